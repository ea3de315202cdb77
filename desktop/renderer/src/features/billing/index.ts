/** The built-in test billing's pages, each loaded when its route is visited. */
export const billingPages = {
  LocalCheckoutPage: () => import('./local-checkout-page').then((m) => m.LocalCheckoutPage),
  LocalPortalPage: () => import('./local-portal-page').then((m) => m.LocalPortalPage),
};

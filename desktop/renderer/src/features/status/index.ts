/** Its pages, each loaded when its route is visited. */
export const statusPages = {
  StatusPage: () => import('./status-page').then((m) => m.StatusPage),
};

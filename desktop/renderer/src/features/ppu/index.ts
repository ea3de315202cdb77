/** Pay-as-you-go's pages, each loaded when its route is visited. */
export const ppuPages = {
  PayAsYouGoOrderPage: () => import('./pay-as-you-go-order-page').then((m) => m.PayAsYouGoOrderPage),
  PayAsYouGoOrderDetailPage: () => import('./pay-as-you-go-order-detail-page').then((m) => m.PayAsYouGoOrderDetailPage),
  PayAsYouGoHistoryPage: () => import('./pay-as-you-go-history-page').then((m) => m.PayAsYouGoHistoryPage),
  WorkspaceOrderPage: () => import('./workspace-order-page').then((m) => m.WorkspaceOrderPage),
  WorkspaceOrderDetailPage: () => import('./workspace-order-detail-page').then((m) => m.WorkspaceOrderDetailPage),
};

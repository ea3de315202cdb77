/** Its pages, each loaded when its route is visited. */
export const operatorPages = {
  OperatorPage: () => import('./operator-page').then((m) => m.OperatorPage),
};

/** Its pages, each loaded when its route is visited. */
export const endpointsPages = {
  SubmitEndpointPage: () => import('./submit-endpoint-page').then((m) => m.SubmitEndpointPage),
  OperatorEndpointsPage: () => import('./operator-endpoints-page').then((m) => m.OperatorEndpointsPage),
};

/** Its pages, each loaded when its route is visited. */
export const jsonPathSandboxPages = {
  JsonPathSandboxPage: () => import('./jsonpath-sandbox-page').then((m) => m.JsonPathSandboxPage),
  StandaloneSandboxPage: () => import('./standalone-sandbox-page').then((m) => m.StandaloneSandboxPage),
};

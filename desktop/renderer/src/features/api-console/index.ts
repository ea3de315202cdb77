export { KeepKeyButton } from './keep-key-button';

/** Its pages, each loaded when its route is visited. */
export const apiConsolePages = {
  ApiConsolePage: () => import('./api-console-page').then((m) => m.ApiConsolePage),
};

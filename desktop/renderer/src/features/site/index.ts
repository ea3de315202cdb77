// What every page of the site shares, the landing page first: the site's facts and the cookie banner.
// The entry imports this folder, so it stays small.
export { siteQueries } from './queries';
export { CookieBanner } from './cookie-banner';

/** Its pages, each loaded when its route is visited. */
export const sitePages = {
  CookiePolicyPage: () => import('./cookie-policy-page').then((m) => m.CookiePolicyPage),
};

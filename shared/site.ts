// What GET /api/site and GET /api/has-new-deploy answer, and the names the public site and the dashboard
// shell share with the tests.

/**
 * GET /api/site: links and contacts from configuration. Status and Documentation are the built-in
 * pages (/status, /docs) unless STATUS_URL or DOCS_URL name others; a null link (Blog) is not
 * configured and its nav item is hidden.
 */
export interface SiteInfo {
  links: { status: string | null; blog: string | null; docs: string | null; cookiePolicy: string };
  chatUrl: string | null;
  supportEmail: string;
  socialLinks: Array<{ label: string; url: string }>;
  companyAddress: string | null;
  maintenance: { enabled: boolean; eta: string | null };
  /** Where project keys call the API (the dashboard's API examples). */
  gatewayUrl: string;
  /** The development mailbox's path (sign-in links are listed there, not sent) outside production without SMTP_URL; null otherwise. */
  devMailbox: string | null;
}

/** GET /api/has-new-deploy: the build id of the web app on disk, or UNKNOWN_VERSION when it cannot be read. */
export interface DeployVersion {
  version: string;
}
export const UNKNOWN_VERSION = 'unknown';

/** The cookie the cookie banner's Accept sets; once it exists the banner stays hidden. */
export const CONSENT_COOKIE = 'cairn_cookie_consent';
export const CONSENT_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

/** In-page anchors of the landing page (spec section 2). */
export const landingAnchors = {
  introduction: 'introduction',
  pricing: 'pricing',
  payAsYouGo: 'pay-as-you-go',
  contact: 'contact',
} as const;

/** The deploy checker's poll interval (spec section 9). */
export const DEPLOY_POLL_MS = 30_000;

/** The hero's rotating words and their interval (spec sections 2 and 9). */
export const heroWords = ['Cardano', 'IPFS'] as const;
export const HERO_WORD_INTERVAL_MS = 3_000;

/**
 * Cairn's icon, for every page it serves: the web app's (the build writes it into index.html) and the
 * server's own pages (API reference, development mailbox, desktop sign-in), so no browser asks for a
 * /favicon.ico that is not there.
 */
export const APP_ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Cellipse cx='16' cy='26' rx='12' ry='4.5' fill='%23364fc7'/%3E%3Cellipse cx='16' cy='17.5' rx='9' ry='3.8' fill='%234263eb'/%3E%3Cellipse cx='16' cy='10' rx='6' ry='3.2' fill='%235c7cfa'/%3E%3Cellipse cx='16' cy='4.5' rx='3.2' ry='2.2' fill='%2391a7ff'/%3E%3C/svg%3E";
export const APP_ICON_LINK = `<link rel="icon" type="image/svg+xml" href="${APP_ICON}" />`;

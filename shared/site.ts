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

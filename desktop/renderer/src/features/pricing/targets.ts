import { signInPathFor } from '../../../../../shared/routes';
import type { SiteInfo } from '../../../../../shared/site';

export const SUBSCRIPTION_PATH = '/dashboard/subscription';
export const SUBSCRIPTION_PLANS_PATH = '/dashboard/subscription/plans';

/** Fixed plan buttons: the subscription page, or sign-in that comes back to it (spec section 2). */
export const fixedPlanTarget = (signedIn: boolean) => (signedIn ? SUBSCRIPTION_PATH : signInPathFor(SUBSCRIPTION_PATH));

/** Pay As You Go's Start Building: the subscription plans crossroad, or sign-in that comes back to it. */
export const payAsYouGoTarget = (signedIn: boolean) => (signedIn ? SUBSCRIPTION_PLANS_PATH : signInPathFor(SUBSCRIPTION_PLANS_PATH));

/** The Enterprise button: the configured live chat in a new window, else an e-mail to support. */
export function enterpriseContact(site: Pick<SiteInfo, 'chatUrl' | 'supportEmail'> | undefined): { href: string; newWindow: boolean } | null {
  if (!site) return null;
  if (site.chatUrl) return { href: site.chatUrl, newWindow: true };
  return { href: `mailto:${site.supportEmail}`, newWindow: false };
}

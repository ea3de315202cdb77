import { signInPathFor } from '../../../../../shared/routes';
import type { SiteInfo } from '../../../../../shared/site';
import type { PlanName } from '../../../../../shared/plans';

export const SUBSCRIPTION_PATH = '/dashboard/subscription';
const SUBSCRIPTION_PLANS_PATH = '/dashboard/subscription/plans';

/**
 * Fixed plan buttons (spec section 2): the subscription page, or sign-in that comes back to it. A paid
 * plan's button names the plan and period, and the subscription page offers its checkout at once.
 */
export const fixedPlanTarget = (signedIn: boolean, plan?: { name: PlanName; period: 'month' | 'year' }) => {
  const path = plan && plan.name !== 'STARTER' && plan.name !== 'ENTERPRISE' ? `${SUBSCRIPTION_PATH}?plan=${plan.name}&period=${plan.period}` : SUBSCRIPTION_PATH;
  return signedIn ? path : signInPathFor(path);
};

/** Pay As You Go's Start Building: the subscription plans crossroad, or sign-in that comes back to it. */
export const payAsYouGoTarget = (signedIn: boolean) => (signedIn ? SUBSCRIPTION_PLANS_PATH : signInPathFor(SUBSCRIPTION_PLANS_PATH));

/** The Enterprise button: the configured live chat in a new window, else an e-mail to support. */
export function enterpriseContact(site: Pick<SiteInfo, 'chatUrl' | 'supportEmail'> | undefined): { href: string; newWindow: boolean } | null {
  if (!site) return null;
  if (site.chatUrl) return { href: site.chatUrl, newWindow: true };
  return { href: `mailto:${site.supportEmail}`, newWindow: false };
}

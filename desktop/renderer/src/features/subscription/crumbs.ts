import type { Crumb } from '../../components/page-layout';

export const SUBSCRIPTION: Crumb = { label: 'Subscription', to: '/dashboard/subscription' };

export const PLANS: Crumb = { label: 'Subscription plans', to: '/dashboard/subscription/plans' };

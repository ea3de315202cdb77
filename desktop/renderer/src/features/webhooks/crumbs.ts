import type { Crumb } from '../../components/page-layout';

export const WEBHOOKS: Crumb = { label: 'Webhooks', to: '/dashboard' };

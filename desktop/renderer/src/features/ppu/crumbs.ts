import type { Crumb } from '../../components/page-layout';

export const HISTORY: Crumb = { label: 'Pay as you go history', to: '/dashboard/subscription/ppu/history' };

import type { Crumb } from '../../components/page-layout';

export const PROJECTS: Crumb = { label: 'Projects', to: '/dashboard' };

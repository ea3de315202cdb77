import type { Crumb } from '../../components/page-layout';

export const WORKSPACES: Crumb = { label: 'Workspaces', to: '/dashboard/workspaces' };

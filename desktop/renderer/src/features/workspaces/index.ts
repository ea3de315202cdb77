export { invalidateQuotas, invitationQueries, useAcceptInvitation, workspaceQueries } from './queries';
export { SelectedWorkspaceProvider, useSelectedWorkspace, WithSelectedWorkspace } from './selected-workspace';
export { WithWorkspace } from './with-workspace';
export { WorkspacePicker } from './workspace-picker';
export { WORKSPACES } from './crumbs';
export { addProjectBlockedReason, webhookUsageText, workspaceUsageText } from './limits';

/** Its pages, each loaded when its route is visited. */
export const workspacesPages = {
  WorkspacesPage: () => import('./workspaces-page').then((m) => m.WorkspacesPage),
  WorkspacePage: () => import('./workspace-page').then((m) => m.WorkspacePage),
  TransferWorkspacePage: () => import('./transfer-workspace-page').then((m) => m.TransferWorkspacePage),
};

/** Its pages, each loaded when its route is visited. */
export const workspaceInvitePages = {
  WorkspaceInvitePage: () => import('./workspace-invite-page').then((m) => m.WorkspaceInvitePage),
};

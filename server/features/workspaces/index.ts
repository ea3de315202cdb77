// The public face of workspaces, members, invitations and the subscription they run on: the only module of this folder that the rest of the server imports.
export { registerWorkspaceRoutes } from './routes';
export { getSubscription, withOwnerLock } from './subscriptions';
export { deleteWorkspace, limitError, membershipOf, whosePlan, type Membership } from './workspaces';

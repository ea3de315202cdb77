// The public face of projects and their keys: the only module of this folder that the rest of the server imports.
export { registerNetworkRoutes } from './network-routes';
export { findProjectRef, ownedProjectCount, type ProjectRef } from './projects';
export { registerProjectRoutes } from './routes';

// The public face of community endpoints: the only module of this folder that the rest of the server imports.
export { addServedRequests, communityServedNetworks, enabledEndpoints } from './endpoints';
export { registerEndpointRoutes } from './routes';

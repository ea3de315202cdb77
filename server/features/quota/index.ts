// The public face of the workspace's quota: what the owner's plan allows and uses: the only module of this folder that the rest of the server imports.
export { registerQuotaRoutes } from './routes';

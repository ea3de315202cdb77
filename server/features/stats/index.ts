// The public face of usage statistics, request insight and the retention pass: the only module of this folder that the rest of the server imports.
export { startRetention } from './retention';
export { registerUsageRoutes } from './routes';
export { requestsToday } from './usage';

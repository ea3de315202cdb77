// The public face of site settings, the landing sample, the API reference and the dashboard API document: the only module of this folder that the rest of the server imports.
export { docsRouter } from './docs-routes';
export { latestMainnetBlock, registerLandingRoutes } from './landing-routes';
export { registerOpenApiRoute } from './openapi-routes';
export { registerSiteRoutes } from './routes';

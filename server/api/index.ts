import express, { type Router } from 'express';
import type { RouteDeps } from '../http/route';
import { NotFound } from '../errors';
import { registerMeRoutes } from './me';
import { registerWorkspaceRoutes } from './workspaces';
import { registerProjectRoutes } from './projects';
import { registerSettingsRoutes } from './settings';
import { registerSiteRoutes } from './site';

/** The dashboard API under /api: one register function per resource. */
export function apiRouter(deps: RouteDeps, webDir: string): Router {
  const router = express.Router();
  registerMeRoutes(router, deps);
  registerWorkspaceRoutes(router, deps);
  registerProjectRoutes(router, deps);
  registerSettingsRoutes(router, deps);
  registerSiteRoutes(router, deps, webDir);
  router.use((_req, _res, next) => next(new NotFound('There is no such API endpoint.')));
  return router;
}

import express, { type Router } from 'express';
import type { RouteDeps } from '../http/route';
import { NotFound } from '../errors';
import { registerMeRoutes } from './me';
import { registerWorkspaceRoutes } from './workspaces';
import { registerProjectRoutes } from './projects';
import { registerSettingsRoutes } from './settings';
import { registerSiteRoutes } from './site';
import { registerUsageRoutes } from './usage';
import { registerLandingRoutes } from './landing';
import { registerWebhookRoutes } from './webhooks';
import { registerBillingRoutes } from './billing';
import { registerOperatorRoutes } from './operator';
import type { BillingProvider } from '../billing/provider';
import { EventStreams, registerEventRoutes } from './events';
import { registerWebhookEventPayloadRoute } from './webhook-event-payload';
import { registerOpenApiRoute } from './openapi';
import { registerStatusRoutes } from './status';
import type { StatusReport } from '../../shared/status';
import { CAIRN_VERSION } from '../version';
import { registerMilkomedaRoutes } from './milkomeda';
import { registerEndpointRoutes } from './endpoints';
import { registerNetworkRoutes } from './networks';
import { registerPpuRoutes, type PpuExtras } from './ppu';
import { registerIpfsRoutes } from './ipfs';
import type { ChainSource } from '../webhooks/chain-source';
import type { LatestBlock } from '../../shared/landing-sample';

/** The dashboard API under /api: one register function per resource. */
export interface ApiExtras {
  webDir: string;
  latestBlock: () => Promise<{ block: LatestBlock; source: string }>;
  /** Gateway slugs served by the sandbox chain. */
  sandboxed: Pick<ReadonlySet<string>, 'has'>;
  /** Event sources of the webhook networks (for sample payloads). */
  webhookSources: Map<number, ChainSource>;
  billing: BillingProvider;
  /** Open event streams, ended when the app closes (a set of this router's own when not given). */
  eventStreams?: EventStreams;
  /** The status page's report (cached). */
  status: () => Promise<StatusReport>;
  /** Whether this server can serve a gateway slug: not turned off, with a backend (GET /api/networks, new projects). */
  served: (slug: string) => boolean;
  /** Pay as you go (absent: its routes are not served). */
  ppu?: PpuExtras;
}

export function apiRouter(deps: RouteDeps, extras: ApiExtras): Router {
  const router = express.Router();
  registerMeRoutes(router, deps);
  registerWorkspaceRoutes(router, deps);
  registerProjectRoutes(router, deps, extras.sandboxed, extras.served);
  registerSettingsRoutes(router, deps);
  registerSiteRoutes(router, deps, extras.webDir);
  registerUsageRoutes(router, deps);
  registerLandingRoutes(router, deps, extras.latestBlock);
  registerWebhookRoutes(router, deps, extras.webhookSources);
  registerIpfsRoutes(router, deps);
  registerMilkomedaRoutes(router, deps);
  registerEndpointRoutes(router, deps);
  registerBillingRoutes(router, deps, extras.billing);
  if (extras.ppu) registerPpuRoutes(router, deps, extras.ppu);
  registerOperatorRoutes(router, deps);
  registerEventRoutes(router, deps, extras.eventStreams ?? new EventStreams());
  registerWebhookEventPayloadRoute(router, deps);
  registerStatusRoutes(router, deps, extras.status);
  registerNetworkRoutes(router, deps, extras.served);
  // Last: the document lists every route declared above.
  registerOpenApiRoute(router, deps, CAIRN_VERSION);
  router.use((_req, _res, next) => next(new NotFound('There is no such API endpoint.')));
  return router;
}

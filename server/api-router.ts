import express, { type Router } from 'express';
import type { RouteDeps } from './http/route';
import { NotFound } from './errors';
import { registerMeRoutes } from './features/accounts/me-routes';
import { registerWorkspaceRoutes } from './features/workspaces/routes';
import { registerProjectRoutes } from './features/projects/routes';
import { registerSettingsRoutes } from './features/accounts/settings-routes';
import { registerSiteRoutes } from './features/site/routes';
import { registerUsageRoutes } from './features/stats/routes';
import { registerLandingRoutes } from './features/site/landing-routes';
import { registerWebhookRoutes } from './features/webhooks/routes';
import { registerBillingRoutes } from './features/billing/routes';
import { registerOperatorRoutes } from './features/operator/routes';
import type { BillingProvider } from './features/billing/provider';
import { EventStreams, registerEventRoutes } from './features/webhooks/event-stream-routes';
import { registerWebhookEventPayloadRoute } from './features/webhooks/event-payload-routes';
import { registerOpenApiRoute } from './features/site/openapi-routes';
import { registerStatusRoutes } from './features/status/routes';
import type { StatusReport } from '../shared/status';
import { CAIRN_VERSION } from './version';
import { registerMilkomedaRoutes } from './features/milkomeda/routes';
import { registerEndpointRoutes } from './features/endpoints/routes';
import { registerNetworkRoutes } from './features/projects/network-routes';
import { registerPpuRoutes, type PpuExtras } from './features/ppu/routes';
import { registerIpfsRoutes } from './features/ipfs/routes';
import type { ChainSource } from './features/webhooks/chain-source';
import type { LatestBlock } from '../shared/landing-sample';

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

import express, { type Router } from 'express';
import type { RouteDeps, Tenancy } from './http/route';
import { isOperator, registerAccountRoutes, registerMeRoutes, registerSettingsRoutes } from './features/accounts/index';
import { membershipOf, registerWorkspaceRoutes } from './features/workspaces/index';
import { findProjectRef, registerProjectRoutes, registerNetworkRoutes } from './features/projects/index';
import { registerTxRoutes } from './features/txs/index';
import { registerDevnetRoutes, type DevnetService } from './features/devnets/index';
import { findWebhook, registerWebhookRoutes, EventStreams, registerEventRoutes, registerWebhookEventPayloadRoute, type ChainSource } from './features/webhooks/index';
import { NotFound } from './errors';
import { assertCsrfToken } from './http/csrf';
import { registerQuotaRoutes } from './features/quota/index';
import { registerSiteRoutes, registerLandingRoutes, registerOpenApiRoute } from './features/site/index';
import { registerUsageRoutes } from './features/stats/index';
import { cancelForAccountDeletion, registerBillingRoutes, type BillingProvider } from './features/billing/index';
import { registerOperatorRoutes } from './features/operator/index';
import { registerStatusRoutes } from './features/status/index';
import type { StatusReport } from '../shared/status';
import { CAIRN_VERSION } from './version';
import { registerMilkomedaRoutes } from './features/milkomeda/index';
import { devChainInfo } from './sandbox/evm-accounts';
import { usesEvmDevChain } from './config';
import { registerEndpointRoutes } from './features/endpoints/index';
import { registerPpuRoutes, type PpuExtras } from './features/ppu/index';
import { registerIpfsRoutes } from './features/ipfs/index';
import { registerAuditRoutes } from './features/audit/index';
import type { LatestBlock } from '../shared/landing-sample';

/** What route() looks up to check a permission, from the features that own workspaces, projects, webhooks and operators. */
export const tenancy: Tenancy = { membershipOf, findProjectRef, findWebhook, isOperator };

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
  /** The devnets' steering calls (absent: the devnet network is turned off, its routes are not served). */
  devnets?: DevnetService;
}

export function apiRouter(deps: RouteDeps, extras: ApiExtras): Router {
  const router = express.Router();
  registerMeRoutes(router, deps);
  registerWorkspaceRoutes(router, deps);
  registerAuditRoutes(router, deps);
  registerQuotaRoutes(router, deps);
  registerProjectRoutes(router, deps, extras.sandboxed, extras.served);
  registerSettingsRoutes(router, deps);
  registerAccountRoutes(router, deps, (user) => cancelForAccountDeletion(deps.db, extras.billing, user));
  registerSiteRoutes(router, deps, extras.webDir);
  registerUsageRoutes(router, deps);
  registerLandingRoutes(router, deps, extras.latestBlock);
  registerWebhookRoutes(router, deps, extras.webhookSources);
  registerTxRoutes(router, deps);
  if (extras.devnets) registerDevnetRoutes(router, deps, extras.devnets);
  registerIpfsRoutes(router, deps);
  registerMilkomedaRoutes(router, deps, usesEvmDevChain(deps.config) ? devChainInfo() : null);
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
  // A state-changing request to no endpoint is refused for a missing token first, as a declared route
  // would refuse it: a caller without the token learns nothing of which paths exist.
  router.use((req, _res, next) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') assertCsrfToken(req);
      next(new NotFound('There is no such API endpoint.'));
    } catch (err) {
      next(err);
    }
  });
  return router;
}

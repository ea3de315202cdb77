import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { parseAllowlist } from '../webhooks/index';
import { checkBlockfrostBackend } from './check';
import { allEndpoints, endpointsOf, reviewEndpoint, submitEndpoint } from './endpoints';
import { endpointActionSchema, submitEndpointSchema } from '../../../shared/endpoints';

const idParams = z.object({ id: z.coerce.number({ error: 'id must be a number' }).int().positive() });

/** The submit-endpoint form's API, and the operators' review of what was submitted. */
export function registerEndpointRoutes(router: Router, deps: RouteDeps): void {
  const { db, config } = deps;
  // The check reaches only public addresses, or what the operator allow-lists (the webhooks' SSRF guard).
  const allow = parseAllowlist(config.webhooks.allowlist);

  route(router, deps, {
    method: 'get',
    path: '/endpoints',
    permission: 'signedIn',
    summary: 'The endpoints the signed-in user submitted',
    handler: ({ user }) => endpointsOf(db, user!.id),
  });

  route(router, deps, {
    method: 'post',
    path: '/endpoints',
    permission: 'signedIn',
    body: submitEndpointSchema,
    status: 201,
    summary: 'Submit a Blockfrost-compatible backend (checked at once, then reviewed by an operator)',
    handler: ({ user, body }) => submitEndpoint(db, { userId: user!.id, endpoint: body.endpoint, paymentAddress: body.paymentAddress, check: (url) => checkBlockfrostBackend(url, allow) }),
  });

  route(router, deps, {
    method: 'get',
    path: '/operator/endpoints',
    permission: 'operator',
    summary: 'Every submitted endpoint, for operators (OPERATOR_EMAILS); 404 for anyone else',
    handler: () => allEndpoints(db),
  });

  route(router, deps, {
    method: 'post',
    path: '/operator/endpoints/:id',
    permission: 'operator',
    params: idParams,
    body: endpointActionSchema,
    summary: 'Enable (after checking it again), disable or reject a submitted endpoint; operators only',
    handler: ({ user, params, body }) => reviewEndpoint(db, params.id, body.action, user!.id, (url) => checkBlockfrostBackend(url, allow)),
  });
}

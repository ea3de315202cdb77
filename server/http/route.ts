import type { Request, Response, NextFunction, Router } from 'express';
import type { z } from 'zod';
import type { Db } from '../db/index';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { AppError, Forbidden, NotFound, Unauthorized } from '../errors';
import { isOperator } from '../services/operators';
import { signInPathFor } from '../../shared/routes';
import { can, type Action } from '../../shared/permissions';
import { membershipOf, type Membership } from '../services/workspaces';

export interface SignedInUser {
  id: number;
  email: string;
}

/**
 * Who may call a route. 'public' must be said out loud; 'signedIn' needs a session; a workspace
 * action needs membership of the workspace in the path (`:id` or `:workspaceId`) with a role the
 * permission matrix allows. Non-members get 404, members without the permission 403. 'operator'
 * needs an account named in OPERATOR_EMAILS (anyone else gets 404, as if the route were not there).
 * A route without a permission fails to register.
 */
export type Permission = 'public' | 'signedIn' | 'operator' | { workspace: Action; denied?: string };

export interface RouteContext<B, Q, P> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: P;
  user: SignedInUser | null;
  /** The caller's membership, for workspace routes. */
  membership: Membership;
  deps: RouteDeps;
}

export interface RouteDeps {
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: Method;
  path: string;
  permission: Permission;
  body?: B;
  query?: Q;
  params?: P;
  /** Status for a successful answer; 200 by default. */
  status?: number;
  /**
   * A link target the browser navigates to (the billing portals, a log download): it never answers
   * with a JSON page. Signed out goes to sign-in and back; any other refusal goes to the given page
   * with the message in `billing_error`.
   */
  link?: { errorPage: string };
  handler: (ctx: RouteContext<z.output<B>, z.output<Q>, z.output<P>>) => Promise<unknown> | unknown;
  /** One line for the API reference (/api/openapi.json); the method and path say the rest. */
  summary?: string;
}

/** What a route declares, as the API reference reads it. */
export type RouteDeclaration = Pick<RouteSpec<z.ZodType, z.ZodType, z.ZodType>, 'method' | 'path' | 'permission' | 'body' | 'query' | 'params' | 'status' | 'summary'> & {
  /** The answer is not the {data} envelope (a file, a stream, a redirect or a page). */
  raw?: string;
};

const declarations = new WeakMap<Router, RouteDeclaration[]>();

/** Every route declared on a router, in order: the dashboard API's OpenAPI document is built from these. */
export const declaredRoutes = (router: Router): readonly RouteDeclaration[] => declarations.get(router) ?? [];

/**
 * Declares a handler that answers something other than {data} (a download, an event stream, a
 * redirect) and is registered by hand, so the API reference still lists it.
 */
export function declareRoute(router: Router, declaration: RouteDeclaration & { raw: string }): void {
  if (!declaration.permission) throw new Error(`Route ${declaration.method.toUpperCase()} ${declaration.path} declares no permission`);
  const list = declarations.get(router) ?? [];
  list.push(declaration);
  declarations.set(router, list);
}

/** Registers one JSON endpoint: validates input with zod, checks the permission, answers {data}. */
export function route<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown>(
  router: Router,
  deps: RouteDeps,
  spec: RouteSpec<B, Q, P>,
): void {
  if (!spec.permission) {
    throw new Error(`Route ${spec.method.toUpperCase()} ${spec.path} declares no permission`);
  }
  const list = declarations.get(router) ?? [];
  list.push({
    method: spec.method,
    path: spec.path,
    permission: spec.permission,
    body: spec.body,
    query: spec.query,
    params: spec.params,
    status: spec.status,
    summary: spec.summary,
    ...(spec.link ? { raw: `a redirect (303) or a file for the browser, never JSON; refusals redirect to ${spec.link.errorPage}?billing_error=…` } : {}),
  });
  declarations.set(router, list);
  router[spec.method](spec.path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const user = (req.user as SignedInUser | undefined) ?? null;
      if (spec.permission !== 'public' && !user) throw new Unauthorized();
      if (spec.permission === 'operator' && !isOperator(deps.config, user!.email)) throw new NotFound('There is no such API endpoint.');
      let membership: Membership | undefined;
      if (typeof spec.permission === 'object') {
        const raw = req.params.workspaceId ?? req.params.id;
        const workspaceId = Number(raw);
        if (!Number.isSafeInteger(workspaceId) || workspaceId <= 0) throw new NotFound('Workspace not found.');
        membership = await membershipOf(deps.db, workspaceId, user!.id);
        if (!can(membership.role, spec.permission.workspace)) throw new Forbidden(spec.permission.denied);
      }
      const body = spec.body ? spec.body.parse(req.body ?? {}) : req.body;
      const query = spec.query ? spec.query.parse(req.query) : req.query;
      const params = spec.params ? spec.params.parse(req.params) : req.params;
      const data = await spec.handler({ req, res, body, query, params, user, membership, deps } as RouteContext<
        z.output<B>,
        z.output<Q>,
        z.output<P>
      >);
      if (!res.headersSent) res.status(spec.status ?? 200).json({ data: data ?? null });
    } catch (err) {
      if (spec.link && !res.headersSent) {
        if (err instanceof Unauthorized) return res.redirect(303, signInPathFor(req.originalUrl));
        const message = err instanceof AppError ? err.message : (err as { issues?: Array<{ message: string }> }).issues?.[0]?.message;
        if (message) return res.redirect(303, `${spec.link.errorPage}?billing_error=${encodeURIComponent(message)}`);
      }
      next(err);
    }
  });
}

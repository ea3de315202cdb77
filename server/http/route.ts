import type { Request, Response, NextFunction, Router } from 'express';
import type { z } from 'zod';
import type { Db } from '../db/index';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { AppError, Forbidden, Invalid, NotFound, Unauthorized } from '../errors';
import { signInPathFor } from '../../shared/routes';
import { can, deniedMessages, type Action } from '../../shared/permissions';
import { MAX_DB_ID, parseDbId } from '../../shared/text';
import type { Membership, ProjectRef } from '../../shared/workspaces';
import type { WebhookRow } from '../../shared/webhooks';
import { Paged } from '../db/pagination';
import { assertCsrfToken } from './csrf';

export interface SignedInUser {
  id: number;
  email: string;
}

/**
 * Who may call a route. 'public' must be said out loud; 'signedIn' needs a session; 'operator'
 * needs an account named in OPERATOR_EMAILS (anyone else gets 404, as if the route were not there).
 * The others need membership of a workspace with a role the permission matrix allows for the
 * action, and route() resolves that workspace itself:
 * - `{ workspace }`: from `:workspaceId` or `:id` in the path;
 * - `{ project }`: from the project `:projectId` or `:projectUuid` (within `:id`/`:workspaceId` when
 *   the path names one);
 * - `{ webhook }`: the webhook `:webhookId` within the workspace `:id`.
 * Non-members, and ids that name nothing, get 404; members without the permission 403 with the
 * matrix's text (`denied` overrides it). A route without a permission fails to register.
 */
export type Permission =
  | 'public'
  | 'signedIn'
  | 'operator'
  | { workspace: Action; denied?: string }
  | { project: Action; denied?: string }
  | { webhook: Action; denied?: string };

interface BaseContext<B, Q, P> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: P;
  deps: RouteDeps;
}

/** What the permission guarantees the handler: `user` once signed in, `membership` (and the project or webhook) once resolved. */
type Guaranteed<Perm> = [Perm] extends ['public']
  ? { user: SignedInUser | null }
  : [Perm] extends ['signedIn'] | ['operator']
    ? { user: SignedInUser }
    : [Perm] extends [{ project: Action }]
      ? { user: SignedInUser; membership: Membership; project: ProjectRef }
      : [Perm] extends [{ webhook: Action }]
        ? { user: SignedInUser; membership: Membership; webhook: WebhookRow }
        : [Perm] extends [{ workspace: Action }]
          ? { user: SignedInUser; membership: Membership }
          : // A permission not known at compile time: the loosest shape.
            { user: SignedInUser | null; membership: Membership };

export type RouteContext<B, Q, P, Perm extends Permission = Permission> = BaseContext<B, Q, P> & Guaranteed<Perm>;

export interface RouteDeps {
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  /** How a permission finds its workspace, project or webhook: the features that own them, wired by the composition root. */
  tenancy: Tenancy;
}

/** The lookups route() needs to check a permission; each throws NotFound for what does not exist or is not the user's. */
export interface Tenancy {
  membershipOf(db: Db, workspaceId: number, userId: number): Promise<Membership>;
  findProjectRef(db: Db, uuid: string, workspaceId?: number): Promise<ProjectRef>;
  findWebhook(db: Db, workspaceId: number, webhookId: string): Promise<WebhookRow>;
  isOperator(config: Pick<Config, 'operatorEmails'>, email: string | null | undefined): boolean;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, Perm extends Permission = Permission> {
  method: Method;
  path: string;
  permission: Perm;
  body?: B;
  query?: Q;
  params?: P;
  /** Status for a successful answer; 200 by default. */
  status?: number;
  /**
   * Whether the request must carry its client's CSRF token (server/http/csrf.ts), checked before
   * anything else. When absent: yes for POST, PUT, PATCH and DELETE, no for GET. `true` is for a GET
   * that changes state; nothing is declared `false` today.
   */
  csrf?: boolean;
  /**
   * A link target the browser navigates to (the billing portals, a log download): it never answers
   * with a JSON page. Signed out goes to sign-in and back; any other refusal goes to the given page
   * with the message in `billing_error`.
   */
  link?: { errorPage: string };
  handler: (ctx: RouteContext<z.output<B>, z.output<Q>, z.output<P>, Perm>) => Promise<unknown> | unknown;
  /** One line for the API reference (/api/openapi.json); the method and path say the rest. */
  summary?: string;
  /** The schema of the answer's `data` (from shared/), for the API reference; not checked at run time. */
  response?: z.ZodType;
  /**
   * The handler answers one page of a list (a `Paged`): the body is `{data: [...], next}` and the
   * query takes `limit` and `cursor` (shared/pagination.ts).
   */
  paged?: boolean;
}

/** What a route declares, as the API reference reads it. */
export type RouteDeclaration = Pick<RouteSpec<z.ZodType, z.ZodType, z.ZodType>, 'method' | 'path' | 'permission' | 'body' | 'query' | 'params' | 'status' | 'summary' | 'response' | 'paged'> & {
  /** The request must carry the CSRF token (the route's csrf option, or its default). */
  csrf: boolean;
  /** The answer is not the {data} envelope (a file, a stream, a redirect or a page). */
  raw?: string;
};

const declarations = new WeakMap<Router, RouteDeclaration[]>();

/** Every route declared on a router, in order: the dashboard API's OpenAPI document is built from these. */
export const declaredRoutes = (router: Router): readonly RouteDeclaration[] => declarations.get(router) ?? [];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const param = (req: Request, name: string): string | undefined => {
  const v = (req.params as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
};

const workspaceIdIn = (req: Request): number | undefined => {
  const raw = param(req, 'workspaceId') ?? param(req, 'id');
  if (raw === undefined) return undefined;
  const id = parseDbId(raw);
  if (id === null) throw new Invalid(`The workspace id must be a whole number between 1 and ${MAX_DB_ID}.`);
  return id;
};

const allow = (membership: Membership, permission: { denied?: string }, action: Action) => {
  if (!can(membership.role, action)) throw new Forbidden(permission.denied ?? deniedMessages[action]);
};

interface Resolved {
  membership?: Membership;
  project?: ProjectRef;
  webhook?: WebhookRow;
}

/** The workspace a route addresses, the caller's membership in it, and the project or webhook it names. */
async function resolveTenancy({ db, tenancy }: RouteDeps, req: Request, permission: Exclude<Permission, string>, userId: number): Promise<Resolved> {
  const { membershipOf, findProjectRef, findWebhook } = tenancy;
  if ('workspace' in permission) {
    const workspaceId = workspaceIdIn(req);
    if (workspaceId === undefined) throw new Error(`route ${req.method} ${req.route?.path}: a workspace permission needs :id or :workspaceId`);
    const membership = await membershipOf(db, workspaceId, userId);
    allow(membership, permission, permission.workspace);
    return { membership };
  }
  if ('project' in permission) {
    const uuid = param(req, 'projectId') ?? param(req, 'projectUuid');
    if (uuid === undefined) throw new Error(`route ${req.method} ${req.route?.path}: a project permission needs :projectId or :projectUuid`);
    if (!UUID.test(uuid)) throw new Invalid('The project id must be a UUID.');
    const workspaceId = workspaceIdIn(req);
    if (workspaceId !== undefined) {
      // Addressed through its workspace: membership first, so a stranger learns nothing of the project.
      const membership = await membershipOf(db, workspaceId, userId);
      allow(membership, permission, permission.project);
      return { membership, project: await findProjectRef(db, uuid, workspaceId) };
    }
    const project = await findProjectRef(db, uuid);
    const membership = await membershipOf(db, project.workspaceId, userId).catch(() => {
      throw new NotFound('Project not found.');
    });
    allow(membership, permission, permission.project);
    return { membership, project };
  }
  const workspaceId = workspaceIdIn(req);
  const webhookId = param(req, 'webhookId');
  if (workspaceId === undefined || webhookId === undefined) throw new Error(`route ${req.method} ${req.route?.path}: a webhook permission needs :id and :webhookId`);
  if (!UUID.test(webhookId)) throw new Invalid('The webhook id must be a UUID.');
  const membership = await membershipOf(db, workspaceId, userId);
  allow(membership, permission, permission.webhook);
  return { membership, webhook: await findWebhook(db, workspaceId, webhookId) };
}

/** Registers one JSON endpoint: validates input with zod, checks the permission, answers {data}. */
export function route<B extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, P extends z.ZodType = z.ZodUnknown, const Perm extends Permission = Permission>(
  router: Router,
  deps: RouteDeps,
  spec: RouteSpec<B, Q, P, Perm>,
): void {
  if (!spec.permission) {
    throw new Error(`Route ${spec.method.toUpperCase()} ${spec.path} declares no permission`);
  }
  const csrf = spec.csrf ?? spec.method !== 'get';
  const list = declarations.get(router) ?? [];
  list.push({
    csrf,
    method: spec.method,
    path: spec.path,
    permission: spec.permission,
    body: spec.body,
    query: spec.query,
    params: spec.params,
    status: spec.status,
    summary: spec.summary,
    response: spec.response,
    paged: spec.paged,
    ...(spec.link ? { raw: `a redirect (303) or a file for the browser, never JSON; refusals redirect to ${spec.link.errorPage}?billing_error=…` } : {}),
  });
  declarations.set(router, list);
  const permission: Permission = spec.permission;
  router[spec.method](spec.path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (csrf) assertCsrfToken(req);
      const user = (req.user as SignedInUser | undefined) ?? null;
      if (permission !== 'public' && !user) throw new Unauthorized();
      if (permission === 'operator' && !deps.tenancy.isOperator(deps.config, user!.email)) throw new NotFound('There is no such API endpoint.');
      const tenancy = typeof permission === 'object' ? await resolveTenancy(deps, req, permission, user!.id) : {};
      const body = spec.body ? spec.body.parse(req.body ?? {}) : req.body;
      const query = spec.query ? spec.query.parse(req.query) : req.query;
      const params = spec.params ? spec.params.parse(req.params) : req.params;
      const ctx = { req, res, body, query, params, user, deps, ...tenancy };
      const data = await spec.handler(ctx as unknown as RouteContext<z.output<B>, z.output<Q>, z.output<P>, Perm>);
      if (res.headersSent) return;
      if (data instanceof Paged) res.status(spec.status ?? 200).json({ data: data.items, next: data.next });
      else res.status(spec.status ?? 200).json({ data: data ?? null });
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

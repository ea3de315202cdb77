import type { Request, Response, NextFunction, Router } from 'express';
import type { z } from 'zod';
import type { Db } from '../db/index';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { Forbidden, Invalid, Unauthorized } from '../errors';
import { MAX_DB_ID, parseDbId } from '../../shared/text';
import { can, type Action } from '../../shared/permissions';
import { membershipOf, type Membership } from '../services/workspaces';

export interface SignedInUser {
  id: number;
  email: string;
}

/**
 * Who may call a route. 'public' must be said out loud; 'signedIn' needs a session; a workspace
 * action needs membership of the workspace in the path (`:id` or `:workspaceId`) with a role the
 * permission matrix allows. Non-members get 404, members without the permission 403. A route
 * without a permission fails to register.
 */
export type Permission = 'public' | 'signedIn' | { workspace: Action; denied?: string };

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
  handler: (ctx: RouteContext<z.output<B>, z.output<Q>, z.output<P>>) => Promise<unknown> | unknown;
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
  router[spec.method](spec.path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const user = (req.user as SignedInUser | undefined) ?? null;
      if (spec.permission !== 'public' && !user) throw new Unauthorized();
      let membership: Membership | undefined;
      if (typeof spec.permission === 'object') {
        const workspaceId = parseDbId(req.params.workspaceId ?? req.params.id);
        if (workspaceId === null) throw new Invalid(`The workspace id must be a whole number between 1 and ${MAX_DB_ID}.`);
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
      next(err);
    }
  });
}

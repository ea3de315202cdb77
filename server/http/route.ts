import type { Request, Response, NextFunction, Router } from 'express';
import type { z } from 'zod';
import type { Db } from '../db/index';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { Unauthorized } from '../errors';

export interface SignedInUser {
  id: number;
  email: string;
}

/**
 * Who may call a route. 'public' must be said out loud; 'signedIn' needs a session. Workspace
 * permissions extend this union as they arrive; a route without one fails to register.
 */
export type Permission = 'public' | 'signedIn';

export interface RouteContext<B, Q, P> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: P;
  user: SignedInUser | null;
  deps: RouteDeps;
}

export interface RouteDeps {
  db: Db;
  config: Config;
  logger: Logger;
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
      const body = spec.body ? spec.body.parse(req.body ?? {}) : req.body;
      const query = spec.query ? spec.query.parse(req.query) : req.query;
      const params = spec.params ? spec.params.parse(req.params) : req.params;
      const data = await spec.handler({ req, res, body, query, params, user, deps } as RouteContext<
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

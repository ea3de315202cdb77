import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { grantBoostByOperator, listUsersForOperator, setPlanByOperator } from './admin';
import { findUserById } from '../accounts/index';
import { NotFound } from '../../errors';
import { originOf } from '../audit/index';
import { operatorBoostSchema, operatorPlanSchema } from '../../../shared/billing';
import type { BoostType, PlanName } from '../../../shared/plans';

const userParams = z.object({ id: z.coerce.number({ error: 'The user id is not valid.' }).int('The user id is not valid.').positive('The user id is not valid.').max(2 ** 31 - 1, 'The user id is not valid.') });

/** The operator page's calls: accounts named in OPERATOR_EMAILS only (everyone else gets 404). */
export function registerOperatorRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;
  const userExists = async (id: number) => {
    if (!(await findUserById(db, id))) throw new NotFound('User not found.');
  };

  route(router, deps, {
    method: 'get',
    path: '/operator/users',
    permission: 'operator',
    query: z.object({ search: z.string().max(254).refine((v) => !v.includes('\u0000'), 'search must not contain NUL').optional() }),
    handler: ({ query }) => listUsersForOperator(db, query.search ?? ''),
  });

  route(router, deps, {
    method: 'put',
    path: '/operator/users/:id/plan',
    permission: 'operator',
    params: userParams,
    body: operatorPlanSchema,
    handler: async ({ req, user, params, body }) => {
      await userExists(params.id);
      await setPlanByOperator(db, params.id, body.plan as PlanName, body.status, { operator: user.email, ...originOf(req) });
      return (await listUsersForOperator(db)).find((u) => u.id === params.id);
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/operator/users/:id/boosts',
    permission: 'operator',
    status: 201,
    params: userParams,
    body: operatorBoostSchema,
    handler: async ({ req, user, params, body }) => {
      await userExists(params.id);
      await grantBoostByOperator(db, params.id, body.type as BoostType, body.workspaceId, body.days, { operator: user.email, ...originOf(req) });
      return (await listUsersForOperator(db)).find((u) => u.id === params.id);
    },
  });
}

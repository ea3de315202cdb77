import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { NotFound } from '../../errors';
import { accountMessages, deleteAccountSchema, type AccountDeletionPlan } from '../../../shared/account';
import { endOtherSessions, endSession, listSessions } from './account-sessions';
import { originOf, recordAuditForMember } from '../audit/index';
import { deleteAccount, planAccountDeletion, type CancelBilling } from './account-deletion';
import { exportAccount } from './account-export';
import { SESSION_COOKIE } from './auth-routes';
import { pageQuerySchema } from '../../../shared/page-query';

const sessionParams = z.object({ sessionId: z.string() });

/** The security section of Settings: sessions, deleting the account, downloading its data. */
export function registerAccountRoutes(router: Router, deps: RouteDeps, cancelBilling: CancelBilling): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/account/sessions',
    permission: 'signedIn',
    query: pageQuerySchema,
    paged: true,
    summary: "One page of the user's signed-in sessions (browsers and the desktop app): the current one first and marked, then the most recently seen",
    handler: ({ req, user, query }) => listSessions(db, user.id, req.sessionID, query),
  });

  route(router, deps, {
    method: 'post',
    path: '/account/sessions/sign-out-others',
    permission: 'signedIn',
    summary: 'Signs out every session of the user but this one',
    handler: async ({ req, user }) => {
      const ended = await endOtherSessions(db, user.id, req.sessionID);
      if (ended > 0) await recordAuditForMember(db, user.id, { actor: { userId: user.id, email: user.email }, action: 'member.signed_out', target: { type: 'member', id: user.id, label: user.email }, ...originOf(req), details: { ended, scope: 'everywhere else' } });
      return { ended, message: accountMessages.signedOutOthers(ended) };
    },
  });

  route(router, deps, {
    method: 'delete',
    path: '/account/sessions/:sessionId',
    permission: 'signedIn',
    params: sessionParams,
    summary: 'Signs out one of the user’s other sessions',
    handler: async ({ req, user, params }) => {
      // A session id is 22 base64url characters; anything else names no session.
      if (!/^[\w-]{22}$/.test(params.sessionId)) throw new NotFound(accountMessages.sessionNotFound);
      await endSession(db, user.id, params.sessionId, req.sessionID);
      await recordAuditForMember(db, user.id, { actor: { userId: user.id, email: user.email }, action: 'member.signed_out', target: { type: 'member', id: user.id, label: user.email }, ...originOf(req), details: { ended: 1, scope: 'one other device' } });
      return { ended: true };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/account/deletion',
    permission: 'signedIn',
    summary: 'What deleting the account would delete and cancel, and which workspaces stop it',
    handler: ({ user }): Promise<AccountDeletionPlan> => planAccountDeletion(db, user.id),
  });

  route(router, deps, {
    method: 'delete',
    path: '/account',
    permission: 'signedIn',
    body: deleteAccountSchema,
    summary: 'Deletes the account (the body confirms it with the account’s e-mail address) and signs it out everywhere',
    handler: async ({ req, res, user, body }) => {
      await deleteAccount(db, user, body.confirmation, cancelBilling);
      // The id only: the e-mail address is what was just deleted.
      deps.logger.info({ userId: user.id }, 'account deleted');
      // Its row is gone already; this drops what the request still holds so nothing writes it back.
      await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      return { deleted: true, redirect: '/auth/signin' };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/account/export',
    permission: 'signedIn',
    link: { errorPage: '/dashboard/settings' },
    summary: "Downloads the user's own data as a JSON file",
    handler: async ({ req, res, user }) => {
      const data = await exportAccount(db, user, req.sessionID);
      // The export holds the account's data: each of its workspaces' owners may see it was taken.
      await recordAuditForMember(db, user.id, { actor: { userId: user.id, email: user.email }, action: 'member.data_exported', target: { type: 'member', id: user.id, label: user.email }, ...originOf(req) });
      const day = data.exported_at.slice(0, 10);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="cairn-account-${day}.json"`);
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).send(JSON.stringify(data, null, 2));
    },
  });
}

// GET /api/events: the signed-in user's event stream (Server-Sent Events). It announces webhook notices
// (server/webhooks/notices.ts) of the workspaces the user belongs to with a role that may view webhooks,
// re-read on every poll so a removed member stops hearing at once; resumable with Last-Event-ID.
import type { Router } from 'express';
import { route, type RouteDeps } from '../http/route';
import { Invalid } from '../errors';
import { can } from '../../shared/permissions';
import { isRole } from '../../shared/permissions';
import { noticeEventName, type WebhookNotice, type WebhookNoticeKind } from '../../shared/webhook-notices';

const POLL_MS = 1000;
const HEARTBEAT_MS = 25_000;
const PAGE = 100;
const EVENT_ID_RE = /^\d{1,15}$/;

/** Open streams of one app, so shutting the app down ends them instead of waiting for clients to leave. */
export class EventStreams {
  private readonly open = new Set<() => void>();
  add(end: () => void): () => void {
    this.open.add(end);
    return () => this.open.delete(end);
  }
  closeAll(): void {
    for (const end of [...this.open]) end();
  }
}

export function registerEventRoutes(router: Router, deps: RouteDeps, streams: EventStreams, pollMs = POLL_MS): void {
  const { db } = deps;

  const visibleWorkspaces = async (userId: number): Promise<number[]> => {
    const rows = (await db('workspace_members').where({ user_id: userId }).select('workspace_id', 'role')) as Array<{ workspace_id: number; role: string }>;
    return rows.filter((r) => isRole(r.role) && can(r.role, 'webhooks.view')).map((r) => Number(r.workspace_id));
  };

  route(router, deps, {
    method: 'get',
    path: '/events',
    permission: 'signedIn',
    handler: async ({ req, res, user }) => {
      const resumeFrom = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
      if (resumeFrom !== undefined && !EVENT_ID_RE.test(resumeFrom)) throw new Invalid('Last-Event-ID must be an event id from this stream.');
      let last =
        resumeFrom !== undefined ? Number(resumeFrom) : Number(((await db('webhook_notices').max({ id: 'id' }).first()) as { id: number | string | null } | undefined)?.id ?? 0);
      const sid = req.sessionID;

      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        // no-transform keeps the compression middleware from buffering the stream.
        'Cache-Control': 'no-store, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 5000\n: connected\n\n');

      await new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        let ended = false;
        let lastWrite = Date.now();
        const end = (): void => {
          if (ended) return;
          ended = true;
          clearTimeout(timer);
          forget();
          res.end();
          resolve();
        };
        const forget = streams.add(end);
        req.on('close', end);

        const poll = async (): Promise<void> => {
          // Signing out (here or elsewhere) ends the session, and with it the stream.
          const alive = await db('sessions').where({ sid }).andWhere('expires_at', '>', Date.now()).first('sid');
          if (!alive) return end();
          const workspaces = await visibleWorkspaces(user!.id);
          const rows = workspaces.length
            ? ((await db('webhook_notices').where('id', '>', last).whereIn('workspace_id', workspaces).orderBy('id', 'asc').limit(PAGE)) as Array<Record<string, unknown>>)
            : [];
          for (const row of rows) {
            const notice: WebhookNotice = {
              id: Number(row.id),
              kind: row.kind as WebhookNoticeKind,
              webhookId: String(row.webhook_id),
              workspaceId: Number(row.workspace_id),
              ...(JSON.parse(String(row.data)) as Omit<WebhookNotice, 'id' | 'kind' | 'webhookId' | 'workspaceId'>),
            };
            res.write(`id: ${notice.id}\nevent: ${noticeEventName(notice.kind)}\ndata: ${JSON.stringify(notice)}\n\n`);
            last = notice.id;
            lastWrite = Date.now();
          }
          if (Date.now() - lastWrite >= HEARTBEAT_MS) {
            res.write(': keep-alive\n\n');
            lastWrite = Date.now();
          }
        };
        const loop = (): void => {
          if (ended) return;
          poll()
            .catch((err: unknown) => req.log?.warn({ err: { message: (err as Error).message } }, 'event stream poll failed'))
            .finally(() => {
              if (!ended) timer = setTimeout(loop, pollMs);
            });
        };
        loop();
      });
    },
  });
}

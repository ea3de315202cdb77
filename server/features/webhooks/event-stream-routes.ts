// GET /api/events: the signed-in user's event stream (Server-Sent Events). It announces webhook notices
// (server/features/webhooks/notices.ts) of the workspaces the user belongs to with a role that may view webhooks,
// re-read on every poll so a removed member stops hearing at once; resumable with Last-Event-ID.
import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { Invalid } from '../../errors';
import { latestNoticeId, noticesAfter, sessionAlive, workspacesHearingWebhooks } from './notice-store';
import { noticeEventName } from '../../../shared/webhook-notices';

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

  route(router, deps, {
    method: 'get',
    path: '/events',
    permission: 'signedIn',
    handler: async ({ req, res, user }) => {
      const resumeFrom = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
      if (resumeFrom !== undefined && !EVENT_ID_RE.test(resumeFrom)) throw new Invalid('Last-Event-ID must be an event id from this stream.');
      let last = resumeFrom !== undefined ? Number(resumeFrom) : await latestNoticeId(db);
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
          if (!(await sessionAlive(db, sid))) return end();
          const notices = await noticesAfter(db, last, await workspacesHearingWebhooks(db, user!.id), PAGE);
          for (const notice of notices) {
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

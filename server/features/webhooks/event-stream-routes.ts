// GET /api/events: the signed-in user's event stream (Server-Sent Events). It announces webhook notices
// (server/features/webhooks/notices.ts) of the workspaces the user belongs to with a role that may view webhooks,
// re-read on every poll so a removed member stops hearing at once; resumable with Last-Event-ID.
import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { AppError, Invalid } from '../../errors';
import { latestNoticeId, noticesAfter, sessionAlive, workspacesHearingWebhooks } from './notice-store';
import { noticeEventName } from '../../../shared/webhook-notices';

const POLL_MS = 1000;
const HEARTBEAT_MS = 25_000;
const PAGE = 100;
const EVENT_ID_RE = /^\d{1,15}$/;

export interface EventStreamLimits {
  perUser: number;
  perIp: number;
}

/** Without configuration (tests that build the router alone): the configuration's defaults. */
const DEFAULT_LIMITS: EventStreamLimits = { perUser: 5, perIp: 20 };

/**
 * Open streams of one app: how many each user and each client IP holds (a stream is a held
 * connection and a poll a second, so both are capped), and how to end them all when the app shuts
 * down instead of waiting for clients to leave.
 */
export class EventStreams {
  private readonly open = new Set<() => void>();
  private readonly perUser = new Map<number, number>();
  private readonly perIp = new Map<string, number>();

  constructor(private readonly limits: EventStreamLimits = DEFAULT_LIMITS) {}

  /**
   * Takes a slot for one stream of this user from this IP; throws 429 when either is full. The
   * answer frees the slot, once however often it is called.
   */
  reserve(userId: number, ip: string): () => void {
    const users = this.perUser.get(userId) ?? 0;
    const ips = this.perIp.get(ip) ?? 0;
    if (users >= this.limits.perUser) {
      throw new AppError(429, 'too_many_streams', `You already have ${this.limits.perUser} event streams open. Close one (another tab or window) and try again.`);
    }
    if (ips >= this.limits.perIp) {
      throw new AppError(429, 'too_many_streams', `Your network already has ${this.limits.perIp} event streams open. Close one and try again.`);
    }
    this.perUser.set(userId, users + 1);
    this.perIp.set(ip, ips + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const u = (this.perUser.get(userId) ?? 1) - 1;
      if (u > 0) this.perUser.set(userId, u);
      else this.perUser.delete(userId);
      const i = (this.perIp.get(ip) ?? 1) - 1;
      if (i > 0) this.perIp.set(ip, i);
      else this.perIp.delete(ip);
    };
  }

  /** Streams open now, in all. */
  get size(): number {
    return this.open.size;
  }

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
      // Taken before anything is awaited, so requests arriving together cannot all pass the count.
      const release = streams.reserve(user!.id, req.ip ?? req.socket.remoteAddress ?? 'unknown');
      let last: number;
      try {
        last = resumeFrom !== undefined ? Number(resumeFrom) : await latestNoticeId(db);
      } catch (err) {
        release();
        throw err;
      }
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
          release();
          res.end();
          resolve();
        };
        const forget = streams.add(end);
        req.on('close', end);
        res.on('close', end);
        // Gone while the first notice id was read: no close event will come.
        if (res.destroyed || req.socket.destroyed) return end();

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

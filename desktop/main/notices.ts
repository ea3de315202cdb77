// Native notifications for webhook trouble: the main process listens to the server's event stream
// (GET /api/events) with the app's session, and turns each notice into at most one notification per webhook
// per hour. No Electron here: start.ts passes in how to show a notification.
import { EVENTS_PATH, noticeText, webhookNoticeKinds, type WebhookNotice } from '../../shared/webhook-notices';

interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** The text/event-stream format (WHATWG HTML §9.2), fed in chunks. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | null = null;
  lastEventId: string | null = null;

  feed(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next one.
      if (this.buffer[newline] === '\r' && newline === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (this.id !== null) this.lastEventId = this.id;
        if (this.data.length > 0) out.push({ id: this.lastEventId, event: this.event || 'message', data: this.data.join('\n') });
        this.data = [];
        this.event = '';
        this.id = null;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id' && !value.includes('\0')) this.id = value;
    }
    return out;
  }
}

const NOTIFY_EVERY_MS = 3600_000;

/** One notification per webhook per hour at most. */
export class NoticeThrottle {
  private readonly last = new Map<string, number>();
  constructor(private readonly everyMs = NOTIFY_EVERY_MS) {}
  allow(webhookId: string, now = Date.now()): boolean {
    const previous = this.last.get(webhookId);
    if (previous !== undefined && now - previous < this.everyMs) return false;
    this.last.set(webhookId, now);
    return true;
  }
}

const KIND_EVENTS = new Set(webhookNoticeKinds.map((k) => `webhook.${k}`));

interface NoticeStreamDeps {
  cairnOrigin: string;
  /** `cairn.sid=…`, or null while signed out (the stream then waits). */
  sessionCookie(): Promise<string | null>;
  onNotice(notice: WebhookNotice): void;
  fetchImpl?: typeof fetch;
  /** Delay before reconnecting after the stream ended or failed. */
  retryMs?: number;
  /** How often to look again for a session while signed out. */
  signedOutPollMs?: number;
}

/** Keeps one connection to the event stream, reconnecting with Last-Event-ID so no notice is lost. */
export class NoticeStream {
  private controller: AbortController | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  lastEventId: string | null = null;

  constructor(private readonly deps: NoticeStreamDeps) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller?.abort();
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.connect().then((delay) => this.schedule(delay));
    }, ms);
    this.timer.unref?.();
  }

  /** One connection; answers how long to wait before the next. */
  private async connect(): Promise<number> {
    const retry = this.deps.retryMs ?? 5000;
    const cookie = await this.deps.sessionCookie().catch(() => null);
    if (!cookie) return this.deps.signedOutPollMs ?? 10_000;
    this.controller = new AbortController();
    try {
      const res = await (this.deps.fetchImpl ?? fetch)(new URL(EVENTS_PATH, this.deps.cairnOrigin), {
        headers: { accept: 'text/event-stream', cookie, ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}) },
        redirect: 'manual',
        signal: this.controller.signal,
      });
      if (res.status === 401) return this.deps.signedOutPollMs ?? 10_000;
      if (res.status !== 200 || !res.body) return retry;
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        for (const event of parser.feed(decoder.decode(chunk, { stream: true }))) {
          if (event.id !== null) this.lastEventId = event.id;
          if (!KIND_EVENTS.has(event.event)) continue;
          try {
            this.deps.onNotice(JSON.parse(event.data) as WebhookNotice);
          } catch {
            // A notice we cannot read is skipped; the stream goes on.
          }
        }
      }
    } catch {
      // Network failure or stop(): try again later (stop() prevents the next attempt).
    } finally {
      this.controller = null;
    }
    return retry;
  }
}

/** What a notice shows natively: title, body, and the page a click opens. */
export function nativeNotification(notice: WebhookNotice, cairnOrigin: string): { title: string; body: string; url: string } {
  const { title, message } = noticeText(notice);
  return { title, body: message, url: new URL(`/dashboard/webhooks/${encodeURIComponent(notice.webhookId)}`, cairnOrigin).href };
}

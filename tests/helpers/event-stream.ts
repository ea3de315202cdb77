// GET /api/events read as EventSource would: its events collected as they arrive.
import { expect } from 'vitest';
import type { Client } from './http-client';
import type { WebhookNotice } from '../../shared/webhook-notices';

export interface StreamEvent {
  id: string;
  event: string;
  notice: WebhookNotice;
}

/** Reads GET /api/events as EventSource would, collecting its events. */
export async function openStream(appUrl: string, client: Client, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(`${appUrl}/api/events`, {
    headers: {
      accept: 'text/event-stream',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const state = { ended: false };
  if (res.status === 200 && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) => block.split('\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          const data = field('data');
          if (data) events.push({ id: field('id')!, event: field('event')!, notice: JSON.parse(data) as WebhookNotice });
        }
      }
      state.ended = true;
    })().catch(() => undefined);
  }
  return {
    res,
    events,
    state,
    async waitFor(count: number, timeoutMs = 5000) {
      await expect.poll(() => events.length, { timeout: timeoutMs, interval: 50 }).toBeGreaterThanOrEqual(count);
      return events;
    },
    close: () => controller.abort(),
  };
}

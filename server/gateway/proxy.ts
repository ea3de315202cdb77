import http from 'node:http';
import https from 'node:https';
import type { UpstreamConfig } from '../config';
import { INTERNAL_ERROR_MESSAGE } from '../chain/sandbox/http';
import { sendBlockfrostError } from './respond';

// Headers that describe one hop, not the message; never forwarded either way (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);
// What the client sends that the upstream must not see: our key, cookies, and the original host.
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'project_id', 'cookie', 'authorization']);

/** What a failover pool learns from one forward (server/gateway/upstream-pool.ts). */
export interface ForwardHooks {
  /** The backend failed before answering; true when the pool took the request over (the 500 is not sent). */
  unavailable(): boolean;
  /** The backend answered (status below 500). */
  answered(): void;
}

export interface Upstream {
  forward(req: http.IncomingMessage, res: http.ServerResponse, path: string, hooks?: ForwardHooks): void;
  close(): void;
}

/**
 * A Blockfrost-compatible HTTP backend. Bodies stream through in both directions (nothing is
 * buffered); connections are kept alive; a failure or timeout before the answer starts becomes the
 * Blockfrost 500 body.
 */
export function httpUpstream(cfg: UpstreamConfig, timeoutMs: number): Upstream {
  const base = new URL(cfg.url);
  const isHttps = base.protocol === 'https:';
  // The timeout lives on the agent's sockets, armed once per socket rather than per request.
  const agent = isHttps ? new https.Agent({ keepAlive: true, maxSockets: 256, timeout: timeoutMs }) : new http.Agent({ keepAlive: true, maxSockets: 256, timeout: timeoutMs });
  const basePath = base.pathname.replace(/\/+$/, '');
  const request = isHttps ? https.request : http.request;
  const authName = cfg.auth?.name.toLowerCase();

  return {
    forward(req, res, path, hooks) {
      // A flat [name, value, …] list goes out as it is; an object would be copied header by header
      // through setHeader's checks again. Node adds no Host to a list, so it is the first entry.
      const headers: string[] = ['host', base.host];
      const incoming = req.headers;
      for (const name in incoming) {
        const value = incoming[name];
        // A client's own copy of the upstream's auth header would reach it beside ours.
        if (value === undefined || NOT_FORWARDED.has(name) || name === authName) continue;
        if (typeof value === 'string') headers.push(name, value);
        else for (const v of value) headers.push(name, v);
      }
      if (cfg.auth) headers.push(cfg.auth.name, cfg.auth.value);
      const upstreamReq = request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || (isHttps ? 443 : 80),
        method: req.method,
        path: basePath + path,
        headers,
        agent,
      });
      let answered = false;
      const fail = () => {
        if (answered) return;
        answered = true;
        upstreamReq.destroy();
        if (hooks && !res.headersSent && hooks.unavailable()) return;
        if (!res.headersSent) sendBlockfrostError(res, 500, INTERNAL_ERROR_MESSAGE);
        else res.destroy();
      };
      upstreamReq.on('timeout', fail);
      upstreamReq.on('error', fail);
      upstreamReq.on('response', (upstreamRes) => {
        if (answered) return upstreamRes.resume();
        const status = upstreamRes.statusCode ?? 502;
        // The backend falling over (5xx) is reported in our own words; its 4xx answers pass through.
        if (status >= 500) {
          upstreamRes.resume();
          return fail();
        }
        answered = true;
        hooks?.answered();
        const out: http.OutgoingHttpHeaders = {};
        const h = upstreamRes.headers;
        for (const name in h) if (!HOP_BY_HOP.has(name) && h[name] !== undefined) out[name] = h[name];
        res.writeHead(status, out);
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
      });
      res.on('close', () => {
        if (!res.writableFinished) upstreamReq.destroy();
      });
      // A failover retry forwards a request whose (empty) body has already been read.
      if (req.readableEnded) upstreamReq.end();
      else req.pipe(upstreamReq);
    },
    close: () => agent.destroy(),
  };
}

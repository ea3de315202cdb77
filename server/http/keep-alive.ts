import type { Server } from 'node:http';

/**
 * How long the servers keep an idle keep-alive connection open: longer than what sits in front of
 * them keeps its own (60 s is a load balancer's usual idle timeout; Node's default of 5 s is shorter
 * than browsers' and HTTP clients' pools keep theirs). A server that closes first races the client:
 * a request sent on the connection just as it closes is lost, and the client reads ECONNRESET.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The server with Cairn's keep-alive timeout (its headers timeout stays above it). */
export function keptAlive<S extends Server>(server: S): S {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = Math.max(server.headersTimeout, KEEP_ALIVE_TIMEOUT_MS + 1_000);
  return server;
}

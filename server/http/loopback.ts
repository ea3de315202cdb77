import type { Request } from 'express';

/** The TCP peer is this machine (never a forwarded header: a proxy in front would make everyone local). */
export function isLoopbackRequest(req: Request): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
}

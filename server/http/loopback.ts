import type { Request } from 'express';
import { isLoopbackIp } from '../../shared/ip';

/** The TCP peer is this machine (never a forwarded header: a proxy in front would make everyone local). */
export function isLoopbackRequest(req: Request): boolean {
  return isLoopbackIp(req.socket.remoteAddress ?? '');
}

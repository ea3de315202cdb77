import type { Request } from 'express';
import { isLoopbackIp } from '../../shared/ip';

export const isLoopback = (address: string | undefined): boolean => !!address && isLoopbackIp(address);

/**
 * True when the request comes from this machine: the TCP peer is a loopback address, and so is the
 * client Express derives from the X-Forwarded-For hops TRUST_PROXY trusts (a local reverse proxy
 * forwarding a remote client is not a loopback client; an entry the client wrote itself is never
 * believed past the trusted hops).
 */
export const fromLoopback = (req: Request): boolean => isLoopback(req.socket.remoteAddress) && isLoopback(req.ip);

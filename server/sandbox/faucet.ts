// The sandbox faucet and development wallets over HTTP, for the dashboard's faucet button and for
// scripts: mounted on /dev (never in production) and answering loopback clients only.
import express, { type Response, type Router } from 'express';
import { faucetRequestSchema } from '../../shared/sandbox-faucet';
import { sandboxOf, slugOfSandbox } from '../../shared/networks';
import { isLoopbackIp } from '../../shared/ip';
import { fromLoopback } from '../http/loopback';
import type { SandboxChain, SandboxNetwork } from './chain/index';

const fail = (res: Response, status: number, code: string, message: string): void => {
  res.status(status).json({ error: { code, message } });
};

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms (shared/ip.ts). */
export const isLoopbackAddress = (address: string): boolean => isLoopbackIp(address);

export function devFaucetRouter(chains: Partial<Record<SandboxNetwork, SandboxChain>>): Router {
  const router = express.Router();
  router.use(['/faucet', '/wallets'], (req, res, next) => {
    if (!fromLoopback(req)) return fail(res, 403, 'forbidden', 'Development aids answer loopback clients only.');
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/wallets', (_req, res) => {
    res.json({
      data: Object.entries(chains).map(([network, chain]) => ({ network: slugOfSandbox(network as SandboxNetwork), faucet: chain.faucetInfo(), wallets: chain.devWallets() })),
    });
  });

  router.post('/faucet', express.json({ limit: '8kb' }), (req, res, next) => {
    if (!req.is('application/json')) return fail(res, 400, 'invalid', 'Send the request as application/json.');
    const parsed = faucetRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(res, 400, 'invalid', `${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    const body = parsed.data;
    const chain = chains[sandboxOf(body.network)!];
    if (!chain) return fail(res, 404, 'not_found', `${body.network} is not served by the sandbox chain on this server (it has an upstream).`);
    const assets = (body.assets ?? []).map((a) => ({ assetName: Buffer.from(a.name, 'utf8').toString('hex'), quantity: String(a.quantity) }));
    if (assets.some((a) => a.assetName.length > 64)) return fail(res, 400, 'invalid', 'assets.name: at most 32 bytes in UTF-8.');
    chain.faucet({ address: body.address, lovelace: String(body.lovelace), assets }).then(
      (payment) => res.json({ data: payment }),
      (err: unknown) => {
        if (err instanceof RangeError) return fail(res, 400, 'invalid', err.message);
        next(err);
      },
    );
  });
  return router;
}

import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { createSandboxChain, sandboxRouter } from '../../server/sandbox/chain/index';
import { httpSource, sandboxSource } from '../../server/features/webhooks/chain-source';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { createLogger } from '../../server/logger';

// A Blockfrost-compatible backend over HTTP (the sandbox chain's router on its own port, behind the
// auth header an operator would configure), to show the follower reads any such upstream.
let clock = Date.UTC(2026, 10, 3);
const chain = createSandboxChain({ network: 'preprod', now: () => clock });
let upstream: http.Server;
let url: string;
const seenAuth: string[] = [];
let ws: number;

beforeAll(async () => {
  const backend = express();
  backend.use((req, _res, next) => {
    seenAuth.push(String(req.headers.project_id ?? ''));
    next();
  });
  backend.use('/api/v0', sandboxRouter(chain));
  upstream = http.createServer(backend);
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v0`;
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});
const app = useTestApp();
beforeAll(async () => {
  const user = await makeUser(app.db, 'upstream-source@example.com', 'ENTERPRISE');
  ws = await makeWorkspace(app.db, user.id, []);
});

describe('the follower on a Blockfrost-compatible HTTP upstream', () => {
  it('builds the same events from the upstream as from the chain in process', async () => {
    const now = Date.now();
    const ids: Record<string, string> = {};
    for (const type of ['block', 'transaction', 'delegation']) {
      ids[type] = crypto.randomUUID();
      await app.db('webhooks').insert({ id: ids[type], workspace_id: ws, name: type, network: 3, type, target_url: 'http://127.0.0.1:9/x', confirmations: 1, status: 'enabled', conditions: '[]', auth_token: 'u'.repeat(64), created_at: now, updated_at: now });
    }
    const source = httpSource({ url, auth: { name: 'project_id', value: 'upstream-key' } });
    const follower = new ChainFollower(app.db, createLogger('silent'), source, { network: 3, maxBlocksPerTick: 100 });
    await follower.tick();
    const start = Number((await app.db('chain_cursors').where({ network: 3, confirmations: 1 }).first()).height);
    clock += 30 * chain.params.blockIntervalMs;
    await follower.tick();

    const events = await app.db('webhook_events').where({ network: 3 }).orderBy('block_height').select('type', 'block_height', 'body');
    const blocks = events.filter((e) => e.type === 'block').map((e) => Number(e.block_height));
    expect(blocks).toEqual(Array.from({ length: 30 }, (_, i) => start + 1 + i));
    expect(seenAuth.every((a) => a === 'upstream-key')).toBe(true);

    // The transaction payloads equal what the in-process chain gives for the same blocks.
    const local = sandboxSource(chain);
    for (const e of events.filter((x) => x.type === 'transaction').slice(0, 3)) {
      const block = (await local.blockAt(Number(e.block_height)))!;
      const txs = await local.blockTxDetails(block.hash);
      const payload = JSON.parse(e.body).payload as Array<{ tx: { hash: string } }>;
      expect(payload.map((p) => p.tx.hash)).toEqual(txs.map((t) => t.tx.hash));
    }
    expect(events.some((e) => e.type === 'delegation')).toBe(true);
  });
});

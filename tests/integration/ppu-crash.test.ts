import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/index';
import { loadConfig } from '../../server/config';
import { createSandboxChains } from '../../server/sandbox/chains';
import { sandboxSource } from '../../server/features/webhooks/chain-source';
import { createOrder, ppuSettings, watchCursor } from '../../server/features/ppu/ppu';
import { watchTick } from '../../server/features/ppu/watcher';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';

// A SIGKILL while the payment watcher credits: the real entry point (worker role) is killed in the
// middle of crediting a few hundred paid orders. Each credit is one transaction (order state,
// balance, subscription log), so the kill leaves every order either credited in full or not at all,
// and the restarted worker credits the rest: each order exactly once.

const ORDERS = 300;
const WORKSPACES = 3;
const BLOCK_MS = 500;
let data: ServerData;
let db: Db;
let env: Record<string, string>;

const startWorker = () => spawnServerProcess({ role: 'worker', env });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  data = await serverData('ppu-crash');
  db = data.db;
  env = {
    ...data.env,
    SESSION_SECRET: 'x'.repeat(40),
    SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS),
    CHAIN_POLL_MS: '100',
    PPU_CONFIRMATIONS: '2',
  };
});
afterAll(async () => {
  // Whatever happened, no worker is left behind (a timed-out test included).
  await stopServerProcesses();
  await data.remove();
});

describe('a SIGKILL while the payment watcher credits', () => {
  it('credits every order exactly once across the restart: balances equal what was paid, one log entry per order', { timeout: 180_000 }, async () => {
    // The same configuration as the worker's, so the orders' addresses and the sandbox chain are the ones it watches.
    const config = loadConfig({ NODE_ENV: 'development', ...env });
    const settings = ppuSettings(config);
    const chain = createSandboxChains(config, db).mainnet!;
    await chain.ready();
    const source = sandboxSource(chain);
    const network = settings.network;

    const owners: Array<{ userId: number; workspaceId: number }> = [];
    for (let w = 0; w < WORKSPACES; w++) {
      const user = await makeUser(db, `ppu-crash-${w}@example.com`);
      owners.push({ userId: user.id, workspaceId: await makeWorkspace(db, user.id, [], `Crash ${w}`) });
    }
    const view = { tip: null, canSimulate: false, requiredConfirmations: 2 };
    const orders: Array<{ id: number; workspaceId: number; requests: number; address: string; lovelace: string }> = [];
    for (let i = 0; i < ORDERS; i++) {
      const o = owners[i % WORKSPACES]!;
      const requests = 1_000_000 + (i % 7) * 250_000;
      const dto = await createOrder(db, settings, { workspaceId: o.workspaceId, userId: o.userId, requests }, view);
      orders.push({ id: dto.id, workspaceId: o.workspaceId, requests, address: dto.address, lovelace: dto.lovelace });
    }
    const t0 = Date.now();
    // The watcher's cursor starts here (as a running worker's would), then every order is paid exactly.
    await watchTick(db, source, { network, confirmations: 2 });
    let lastHeight = 0;
    for (const o of orders) lastHeight = Math.max(lastHeight, (await chain.faucet({ address: o.address, lovelace: o.lovelace })).height);
    while (chain.tipHeight() < lastHeight + 2) await sleep(50);
    const ids = orders.map((o) => o.id);
    const paidCount = async () => Number((await db('ppu_orders').whereIn('id', ids).where('status', 'paid').count({ n: '*' }).first())?.n ?? 0);
    expect(await paidCount()).toBe(0);
    console.log(`ppu-crash: ${ORDERS} orders paid in ${Date.now() - t0} ms`);

    // The worker starts, records the payments and credits them; it is killed part-way through (once a
    // tenth is credited: the count is read every few milliseconds, and crediting 300 takes about a second).
    const first = await startWorker();
    let second: ChildProcess | null = null;
    try {
      const end = Date.now() + 60_000;
      let atKill = 0;
      while (Date.now() < end) {
        atKill = await paidCount();
        if (atKill >= ORDERS / 10) break;
        await sleep(5);
      }
      await stopServerProcess(first, 'SIGKILL');
      atKill = await paidCount();
      expect(atKill, 'the kill came while crediting').toBeGreaterThan(0);
      expect(atKill, 'the kill came while crediting').toBeLessThan(ORDERS);
      console.log(`ppu-crash: the worker was killed with ${atKill} of ${ORDERS} orders credited`);

      // Whatever the kill left is whole: each credited order has its balance and its log entry, the others neither.
      const check = async () => {
        for (const o of owners) {
          const paid = await db('ppu_orders').where({ workspace_id: o.workspaceId, status: 'paid' }).select('id', 'requests', 'credited_requests');
          for (const p of paid) expect(Number(p.credited_requests)).toBe(Number(p.requests));
          const balance = await db('ppu_balances').where({ workspace_id: o.workspaceId }).first('credited');
          expect(Number(balance?.credited ?? 0)).toBe(paid.reduce((s: number, p: { requests: number | string }) => s + Number(p.requests), 0));
          const logs = await db('subscription_logs').where({ user_id: o.userId, type: 'ppu_order' }).select('dedupe_key');
          expect(logs.map((l: { dedupe_key: string }) => Number(l.dedupe_key.split(':')[1])).sort((a: number, b: number) => a - b)).toEqual(paid.map((p: { id: number | string }) => Number(p.id)).sort((a: number, b: number) => a - b));
        }
      };
      await check();
      // Every payment was recorded before the crediting began.
      expect(Number((await db('ppu_orders').whereIn('id', ids).whereNotIn('status', ['paid', 'confirming']).count({ n: '*' }).first())?.n)).toBe(0);

      // Started again: the rest is credited, nothing twice.
      second = await startWorker();
      const end2 = Date.now() + 60_000;
      while ((await paidCount()) < ORDERS && Date.now() < end2) await sleep(50);
      // More passes of the watcher (its cursor two blocks further on): still nothing twice.
      const passed = (await watchCursor(db, network))?.height ?? 0;
      await vi.waitFor(async () => expect((await watchCursor(db, network))?.height ?? 0).toBeGreaterThanOrEqual(passed + 2), { timeout: 10_000, interval: 50 });
    } finally {
      await stopServerProcess(first, 'SIGKILL');
      if (second) await stopServerProcess(second, 'SIGTERM');
    }

    expect(await paidCount()).toBe(ORDERS);
    for (const o of owners) {
      const mine = orders.filter((x) => x.workspaceId === o.workspaceId);
      const balance = await db('ppu_balances').where({ workspace_id: o.workspaceId }).first('credited', 'spent');
      expect(Number(balance.credited)).toBe(mine.reduce((s, x) => s + x.requests, 0));
      const logs = await db('subscription_logs').where({ user_id: o.userId, type: 'ppu_order' }).select('reference', 'dedupe_key');
      expect(logs).toHaveLength(mine.length);
      expect(new Set(logs.map((l: { dedupe_key: string }) => l.dedupe_key)).size).toBe(mine.length);
    }
    const payments = await db('ppu_payments').whereIn('order_id', ids).select('order_id');
    expect(payments).toHaveLength(ORDERS);
    expect(new Set(payments.map((p: { order_id: number | string }) => Number(p.order_id))).size).toBe(ORDERS);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { sandboxSource } from '../../server/features/webhooks/chain-source';
import { watchTick } from '../../server/features/ppu/watcher';
import { addressDeriver, parseAccountXpub, accountXpubOfMnemonic, DEV_PAYMENT_MNEMONIC } from '../../server/features/ppu/addresses';
import type { PpuOrderDto, PpuQuoteDto } from '../../shared/ppu';

const BLOCK_MS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pay as you go: quotes, orders, the payment watcher and the balance', () => {
  const app = useTestApp({ env: { SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS), PPU_CONFIRMATIONS: '2' } });
  let owner: Client;
  let workspaceId: number;

  beforeAll(async () => {
    owner = new Client(app.url);
    await signIn(owner, app.mailer, 'ppu-owner@example.com');
    workspaceId = (await owner.get('/api/workspaces')).body.data[0].id;
  });

  const watch = () => watchTick(app.db, sandboxSource(app.chains.mainnet!), { network: 'cardano-mainnet', confirmations: 2 });
  const untilTip = async (height: number) => {
    while (app.chains.mainnet!.tipHeight() < height) await sleep(50);
  };

  it('quotes requests at the fallback prices, and refuses quantities that are not whole, positive and bounded', async () => {
    const res = await owner.post<{ data: PpuQuoteDto }>('/api/ppu/orders/quotes', { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] });
    expect(res.status).toBe(200);
    expect(res.body.data.pricing.requests.price_per_unit_eur).toBe(0.0000024);
    expect(res.body.data.pricing.ada_eur_rate).toBeCloseTo(0.0000024 / 0.0000044839, 12);
    expect(res.body.data.total_eur).toBe(2.4);
    expect(res.body.data.total_lovelace).toBe('4483900');
    for (const bad of [0, -1, 2.5, 1e13, '1000000']) {
      const r = await owner.post('/api/ppu/orders/quotes', { items: [{ item_type: 'requests', item_quantity: bad }] });
      expect(r.status, String(bad)).toBe(400);
      expect(r.body.error.code).toBeTruthy();
    }
    // Below the 1 ADA a Cardano payment needs.
    const small = await owner.post('/api/ppu/orders/quotes', { items: [{ item_type: 'requests', item_quantity: 1000 }] });
    expect(small.status).toBe(400);
    expect(small.body.error.message).toMatch(/at least 1 ADA/);
    expect((await new Client(app.url).post('/api/ppu/orders/quotes', { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] })).status).toBe(401);
  });

  it('gives each order its own derived address and lets nobody else see it', async () => {
    const a = await owner.post<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] });
    const b = await owner.post<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 2_000_000 }] });
    expect(a.status).toBe(201);
    expect(a.body.data.status).toBe('awaiting_payment');
    expect(a.body.data.lovelace).toBe('4483900');
    expect(a.body.data.expiresAt - a.body.data.createdAt).toBe(60 * 60_000);
    const derive = addressDeriver(parseAccountXpub(accountXpubOfMnemonic(DEV_PAYMENT_MNEMONIC)), 'cardano-mainnet');
    expect(a.body.data.address).toBe(derive(a.body.data.id));
    expect(b.body.data.address).not.toBe(a.body.data.address);

    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'ppu-stranger@example.com');
    expect((await stranger.get(`/api/ppu/orders/${a.body.data.id}`)).status).toBe(404);
    expect((await stranger.get(`/api/workspaces/${workspaceId}/ppu/orders/${a.body.data.id}`)).status).toBe(404);
    expect((await stranger.post(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] })).status).toBe(404);
    const history = await owner.get<{ data: PpuOrderDto[]; next: string | null }>('/api/ppu/orders');
    expect(history.body.data.map((o) => o.id)).toEqual([b.body.data.id, a.body.data.id]);
    expect(history.body.next).toBeNull();
  });

  it('sees a simulated payment, credits it once after the confirmations, logs it and reports the balance', async () => {
    await watch(); // the watcher's cursor starts here
    const order = (await owner.post<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] })).body.data;
    expect(order.canSimulate).toBe(true);
    const paid = await owner.post<{ data: { txHash: string; height: number } }>(`/dev/ppu/orders/${order.id}/simulate-payment`);
    expect(paid.status).toBe(200);
    await untilTip(paid.body.data.height);
    await watch();
    let seen = (await owner.get<{ data: PpuOrderDto }>(`/api/ppu/orders/${order.id}`)).body.data;
    expect(seen.status).toBe('confirming');
    expect(seen.receivedLovelace).toBe('4483900');
    expect(seen.txHashes).toEqual([paid.body.data.txHash]);
    await untilTip(paid.body.data.height + 1);
    const first = await watch();
    expect(first.credited).toBe(1);
    expect((await watch()).credited).toBe(0); // a second pass credits nothing
    seen = (await owner.get<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders/${order.id}`)).body.data;
    expect(seen.status).toBe('paid');
    expect(seen.creditedRequests).toBe(1_000_000);
    const quota = (await owner.get(`/api/workspaces/${workspaceId}/quota`)).body.data;
    expect(quota.ppu).toEqual({ active: true, balance: { requests: 1_000_000 } });
    const logs = (await owner.get('/api/logs')).body.data as Array<{ type: string; reference: string; workspace_id: number; provider: string }>;
    expect(logs.filter((l) => l.type === 'ppu_order')).toEqual([expect.objectContaining({ reference: paid.body.data.txHash, workspace_id: workspaceId, provider: 'cardano' })]);
    // A paid order cannot be paid again through the simulator.
    expect((await owner.post(`/dev/ppu/orders/${order.id}/simulate-payment`)).status).toBe(409);
  });

  it('credits an overpayment in full and an underpayment for what it covers', async () => {
    await watch();
    const over = (await owner.post<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] })).body.data;
    const under = (await owner.post<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] })).body.data;
    const chain = app.chains.mainnet!;
    const p1 = await chain.faucet({ address: over.address, lovelace: '8967800' }); // twice the amount
    const p2 = await chain.faucet({ address: under.address, lovelace: '2241950' }); // half
    await untilTip(Math.max(p1.height, p2.height) + 1);
    await watch();
    const o = (await owner.get<{ data: PpuOrderDto }>(`/api/ppu/orders/${over.id}`)).body.data;
    const u = (await owner.get<{ data: PpuOrderDto }>(`/api/ppu/orders/${under.id}`)).body.data;
    expect([o.status, o.creditedRequests]).toEqual(['paid', 2_000_000]);
    expect([u.status, u.creditedRequests]).toEqual(['underpaid', 500_000]);
    expect((await owner.get(`/api/workspaces/${workspaceId}/quota`)).body.data.ppu.balance.requests).toBe(3_500_000);
  });

  it('answers 404 to simulate-payment for an order that does not exist', async () => {
    expect((await owner.post('/dev/ppu/orders/999999/simulate-payment')).status).toBe(404);
    expect((await owner.post('/dev/ppu/orders/nonsense/simulate-payment')).status).toBe(404);
  });
});

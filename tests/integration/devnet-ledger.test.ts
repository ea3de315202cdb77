// A devnet's ledger in the database (sandbox_ledger under `devnet:<id>`): the store truncates and
// replaces a chain's entries without touching another's, and a devnet steered on it (funded, rolled
// back, restored) is rebuilt the same from its saved state after a restart.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { dbLedgerStore } from '../../server/sandbox/store';
import { createDevnet, newDevnetState, type LedgerEntry } from '../../server/sandbox/chain/index';
import { enterpriseAddress } from '../../shared/cardano/address';

const app = useTestApp();
const entry = (seq: number, height: number): LedgerEntry => ({ seq, height, hash: seq.toString(16).padStart(64, '0'), cbor: '84a0a0f5f6', origin: 'submit' });

describe('the ledger store of a devnet', () => {
  it("truncates and replaces one chain's entries, keys longer than a network's name included", async () => {
    const store = dbLedgerStore(app.db);
    const key = 'devnet:3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
    const other = 'devnet:other';
    for (let seq = 1; seq <= 5; seq++) expect(await store.append(key, entry(seq, seq * 2))).toBe(true);
    expect(await store.append(other, entry(1, 1))).toBe(true);
    await store.truncate(key, 3);
    expect((await store.entriesAfter(key, 0)).map((e) => e.seq)).toEqual([1, 2]);
    // The freed sequence numbers can be taken again.
    expect(await store.append(key, { ...entry(3, 9), hash: 'ab'.repeat(32) })).toBe(true);
    await store.replace(key, [entry(1, 1), entry(2, 1), entry(3, 4)]);
    expect(await store.entriesAfter(key, 0)).toEqual([entry(1, 1), entry(2, 1), entry(3, 4)]);
    await store.replace(key, []);
    expect(await store.entriesAfter(key, 0)).toEqual([]);
    expect((await store.entriesAfter(other, 0)).map((e) => e.seq)).toEqual([1]);
  });

  it('a devnet steered on the database is the same after a restart from its saved state', async () => {
    const store = dbLedgerStore(app.db);
    const clock = { now: Date.UTC(2026, 10, 3, 8) };
    const first = createDevnet({ id: 'db-devnet', state: newDevnetState({ now: clock.now, seed: 'db-devnet' }), store, now: () => clock.now });
    await first.chain.ready();
    clock.now += 20_000;
    const to = enterpriseAddress('preview', new Uint8Array(28).fill(4));
    const kept = await first.control.fund(to, 7_000_000n);
    clock.now += 1_000;
    const snap = await first.control.snapshot();
    const later = await first.control.fund(to, 9_000_000n);
    clock.now += 5_000;
    expect(first.chain.addressUtxos(to)).toHaveLength(2);
    await first.control.rollback(3, 'mempool');
    clock.now += 3_000;
    expect(first.chain.addressUtxos(to)).toHaveLength(2);
    await first.control.restore(snap);
    clock.now += 4_000;
    expect(first.chain.addressUtxos(to)!.map((u) => u.tx_hash)).toEqual([kept.txHash]);
    expect(first.chain.tx(later.txHash)).toBeNull();

    const saved = JSON.parse(JSON.stringify(first.control.state()));
    const again = createDevnet({ id: 'db-devnet', state: saved, store: dbLedgerStore(app.db), now: () => clock.now });
    await again.chain.ready();
    expect(again.chain.latestBlock()).toEqual(first.chain.latestBlock());
    expect(again.chain.addressUtxos(to)).toEqual(first.chain.addressUtxos(to));
    expect(again.chain.blockAt(21)).toEqual(first.chain.blockAt(21));
  });
});

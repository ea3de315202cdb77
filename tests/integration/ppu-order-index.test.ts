import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { WatchedOrderIndex } from '../../server/features/ppu/order-index';

// The payment watcher's in-memory index of watched orders: a superset of what the database watches,
// kept up to date by primary key, including an order whose id is below one already seen (PostgreSQL
// hands ids out before commit, so a later id can commit first).

let database: TestDatabase;
let ws: number;
let userId: number;
const NOW = Date.UTC(2026, 10, 23, 12);

async function order(id: number, address: string, status = 'awaiting_payment', network = 'cardano-mainnet', expiresAt = NOW + 3_600_000) {
  await database.db('ppu_orders').insert({ id, workspace_id: ws, user_id: userId, network, address, requests: 1_000_000, price_per_unit_eur: 0.0000024, ada_eur_rate: 0.5, total_eur: 2.4, lovelace: 4_800_000, status, created_at: NOW, expires_at: expiresAt });
}

beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
  userId = (await makeUser(database.db, 'ppu-index@example.com')).id;
  ws = await makeWorkspace(database.db, userId, []);
});
afterAll(async () => {
  await database?.drop();
});

describe('the watched-order index', () => {
  it('holds the watched orders of its network, adds new ones by id, late commits included, and names those due to expire', async () => {
    await order(1000, 'addr_open');
    await order(1001, 'addr_paid', 'paid');
    await order(1002, 'addr_other_network', 'awaiting_payment', 'cardano-preprod');
    await order(1003, 'addr_expired_lately', 'expired', 'cardano-mainnet', NOW - 86_400_000);
    await order(1004, 'addr_expired_long_ago', 'expired', 'cardano-mainnet', NOW - 30 * 86_400_000);
    const index = new WatchedOrderIndex(database.db, 'cardano-mainnet');
    await index.refresh(NOW);
    expect(index.candidates(['addr_open', 'addr_paid', 'addr_other_network', 'addr_expired_lately', 'addr_expired_long_ago', 'addr_unknown'])).toEqual(['addr_open', 'addr_expired_lately']);

    // A new order, and one whose id is below it that commits later: both found on the next passes.
    await order(1010, 'addr_new');
    await index.refresh(NOW + 1000);
    await order(1005, 'addr_late_commit');
    await index.refresh(NOW + 2000);
    expect(index.candidates(['addr_new', 'addr_late_commit'])).toEqual(['addr_new', 'addr_late_commit']);
    // Paid since: still a candidate (the database's answer decides), until the next full load.
    await database.db('ppu_orders').where({ id: 1000 }).update({ status: 'paid' });
    expect(index.candidates(['addr_open'])).toEqual(['addr_open']);

    // Due to expire: the orders awaiting payment past their time, once settled no longer.
    expect(index.due(NOW)).toEqual([]);
    const due = index.due(NOW + 3_600_000);
    expect(due.sort()).toEqual([1000, 1005, 1010]);
    index.settled(due);
    expect(index.due(NOW + 3_600_000)).toEqual([]);

    // A full load (after a rollback, or every 10 minutes) drops what is no longer watched.
    index.invalidate();
    await index.refresh(NOW + 3000);
    expect(index.candidates(['addr_open', 'addr_new', 'addr_late_commit'])).toEqual(['addr_new', 'addr_late_commit']);
  });
});

import { describe, expect, it } from 'vitest';
import { eventBody, eventBodyBytes, prepareEvents } from '../../../../../server/features/webhooks/outbox';

const tx = (n: number) => ({ tx: { hash: `${n}`.repeat(64).slice(0, 64), fees: String(170_000 + n), index: n }, inputs: [{ address: 'addr1q…', amount: [{ unit: 'lovelace', quantity: '1000000' }] }], outputs: [{ address: 'addr_test1', amount: [] }] });

describe('eventBodyBytes', () => {
  it('gives the bytes of eventBody for every kind of payload, each list item encoded once per write', () => {
    const shared = tx(1);
    const encoded = new Map<unknown, Buffer>();
    const payloads: unknown[] = [
      [shared, tx(2)],
      [tx(3), shared, shared],
      [],
      [null, 'text', 7, undefined, () => 1, { nested: [undefined, { é: 'ünïcödé ✓ 𝄞 "quoted" \\ \u2028' }] }],
      { height: 5, hash: 'ab'.repeat(32) },
      { previous_epoch: { epoch: 1 }, current_epoch: { epoch: 2, start_time: 1_700_000_000 } },
      null,
      'a string',
    ];
    for (const payload of payloads) {
      const bytes = eventBodyBytes('6f1c1b1e-0000-5000-8000-000000000001', 'a7d9e4c2-1111-4222-8333-444455556666', 1_764_000_000, 'transaction', payload, encoded);
      expect(bytes.toString('utf8')).toBe(eventBody('6f1c1b1e-0000-5000-8000-000000000001', 'a7d9e4c2-1111-4222-8333-444455556666', 1_764_000_000, 'transaction', payload));
    }
    // The transaction carried by three events was encoded once.
    expect([...encoded.keys()].filter((k) => k === shared)).toHaveLength(1);
  });

  it('prepares the outbox rows with these bytes, the handed-off events sharing them', () => {
    const payload = [tx(1)];
    const { rows, claimed } = prepareEvents(
      [
        { webhookId: 'a7d9e4c2-1111-4222-8333-444455556666', type: 'transaction', network: 0, blockHeight: 1, blockHash: 'cd'.repeat(32), payload, id: '6f1c1b1e-0000-5000-8000-000000000001' },
        { webhookId: 'b7d9e4c2-1111-4222-8333-444455556666', type: 'transaction', network: 0, blockHeight: 1, blockHash: 'cd'.repeat(32), payload, id: '6f1c1b1e-0000-5000-8000-000000000002' },
      ],
      1_764_000_000_500,
      { count: 1, leaseMs: 1000 },
    );
    expect(rows.map((r) => JSON.parse(r.body.toString('utf8')) as unknown)).toEqual([
      { id: '6f1c1b1e-0000-5000-8000-000000000001', webhook_id: 'a7d9e4c2-1111-4222-8333-444455556666', created: 1_764_000_000, api_version: 1, type: 'transaction', payload },
      { id: '6f1c1b1e-0000-5000-8000-000000000002', webhook_id: 'b7d9e4c2-1111-4222-8333-444455556666', created: 1_764_000_000, api_version: 1, type: 'transaction', payload },
    ]);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]!.body).toBe(rows[0]!.body);
  });
});

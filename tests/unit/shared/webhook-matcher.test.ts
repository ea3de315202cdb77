import { describe, expect, it } from 'vitest';
import { createSandboxChain } from '../../../server/sandbox/chain/index';
import { stakeAddressOf } from '../../../shared/cardano/address';
import { assetFingerprint } from '../../../shared/cardano/fingerprint';
import { matchBlock, type BlockInput } from '../../../shared/webhook-matcher';
import type { Condition, Trigger } from '../../../shared/webhooks';
import type { TxDetails } from '../../../shared/chain';

// A fixed sandbox block with plenty of variety: multi-assets, several stake keys, delegations.
const chain = createSandboxChain({ network: 'mainnet', now: () => Date.UTC(2026, 10, 1) });
function richBlock(): BlockInput {
  for (let h = chain.tipHeight(); ; h--) {
    const block = chain.blockAt(h)!;
    const txs = chain.blockTxDetails(block.hash) ?? [];
    const assets = txs.some((t) => t.outputs.some((o) => o.amount.length > 1));
    const delegations = txs.some((t) => t.delegations.length > 0);
    if (txs.length > 5 && assets && delegations) return { block, txs, epochSwitch: null };
  }
}
const input = richBlock();
const txs = input.txs;

const match = (type: Trigger, conditions: Condition[], inp: BlockInput = input) => matchBlock([{ id: 'w', type, conditions }], inp)[0]?.payload as any;
const c = (type: Condition['type'], operator: Condition['operator'], value: string, selector?: string): Condition => ({ type, operator, value, ...(selector ? { selector } : {}) });
const hashes = (payload: Array<{ tx: { hash: string } }> | undefined) => (payload ?? []).map((p) => p.tx.hash).sort();
const expectTxs = (payload: any, pred: (t: TxDetails) => boolean) => expect(hashes(payload)).toEqual(txs.filter(pred).map((t) => t.tx.hash).sort());

describe('transaction conditions', () => {
  const someOutput = txs.find((t) => t.outputs.length > 0)!.outputs[0]!.address;
  const someInput = txs.find((t) => t.inputs.length > 0)!.inputs[0]!.address;
  const unit = txs.flatMap((t) => t.outputs.flatMap((o) => o.amount)).find((a) => a.unit !== 'lovelace')!.unit;

  it('no conditions: every transaction', () => expectTxs(match('transaction', []), () => true));

  it('recipient = / != an address', () => {
    expectTxs(match('transaction', [c('recipient', '=', someOutput)]), (t) => t.outputs.some((o) => o.address === someOutput));
    expectTxs(match('transaction', [c('recipient', '!=', someOutput)]), (t) => !t.outputs.some((o) => o.address === someOutput));
  });

  it('recipient = a stake address matches all of its addresses', () => {
    const withStake = txs.flatMap((t) => t.outputs.map((o) => o.address)).find((a) => stakeAddressOf(a))!;
    const stake = stakeAddressOf(withStake)!;
    expectTxs(match('transaction', [c('recipient', '=', stake)]), (t) => t.outputs.some((o) => stakeAddressOf(o.address) === stake));
    const all = chain.addressesOfStake(stake);
    expect(all.length).toBeGreaterThan(0);
  });

  it('sender = / !=', () => {
    expectTxs(match('transaction', [c('sender', '=', someInput)]), (t) => t.inputs.some((i) => i.address === someInput));
    expectTxs(match('transaction', [c('sender', '!=', someInput)]), (t) => !t.inputs.some((i) => i.address === someInput));
    const stake = stakeAddressOf(someInput);
    if (stake) expectTxs(match('transaction', [c('sender', '=', stake)]), (t) => t.inputs.some((i) => stakeAddressOf(i.address) === stake));
  });

  it('policyId, fingerprint and assetHex = / !=', () => {
    const has = (t: TxDetails, p: (u: string) => boolean) => t.outputs.some((o) => o.amount.some((a) => a.unit !== 'lovelace' && p(a.unit)));
    const policy = unit.slice(0, 56);
    const fp = assetFingerprint(policy, unit.slice(56));
    expectTxs(match('transaction', [c('policyId', '=', policy)]), (t) => has(t, (u) => u.startsWith(policy)));
    expectTxs(match('transaction', [c('policyId', '!=', policy)]), (t) => !has(t, (u) => u.startsWith(policy)));
    expectTxs(match('transaction', [c('fingerprint', '=', fp)]), (t) => has(t, (u) => u === unit));
    expectTxs(match('transaction', [c('fingerprint', '!=', fp)]), (t) => !has(t, (u) => u === unit));
    expectTxs(match('transaction', [c('assetHex', '=', unit)]), (t) => has(t, (u) => u === unit));
    expectTxs(match('transaction', [c('assetHex', '!=', unit)]), (t) => !has(t, (u) => u === unit));
  });

  it.each(['=', '!=', '<', '<=', '>', '>='] as const)('quantity %s (lovelace output)', (op) => {
    const values = txs.map((t) => BigInt(t.tx.output_amount.find((a) => a.unit === 'lovelace')!.quantity)).sort((a, b) => (a < b ? -1 : 1));
    const pivot = values[Math.floor(values.length / 2)]!;
    const cmp = { '=': (v: bigint) => v === pivot, '!=': (v: bigint) => v !== pivot, '<': (v: bigint) => v < pivot, '<=': (v: bigint) => v <= pivot, '>': (v: bigint) => v > pivot, '>=': (v: bigint) => v >= pivot }[op];
    expectTxs(match('transaction', [c('quantity', op, String(pivot))]), (t) => cmp(BigInt(t.tx.output_amount.find((a) => a.unit === 'lovelace')!.quantity)));
  });

  it('all conditions must hold', () => {
    const t = txs.find((x) => x.outputs.length > 0 && x.inputs.length > 0)!;
    expect(hashes(match('transaction', [c('recipient', '=', t.outputs[0]!.address), c('sender', '=', t.inputs[0]!.address)]))).toContain(t.tx.hash);
    expect(match('transaction', [c('recipient', '=', t.outputs[0]!.address), c('recipient', '!=', t.outputs[0]!.address)])).toBeUndefined();
  });

  it('jsonPath on each transaction, an array result matching when any item matches', () => {
    const t = txs[0]!;
    expectTxs(match('transaction', [c('jsonPath', '=', t.tx.hash, '$.tx.hash')]), (x) => x.tx.hash === t.tx.hash);
    const addr = t.outputs[0]!.address;
    expectTxs(match('transaction', [c('jsonPath', '=', addr, '$.outputs[*].address')]), (x) => x.outputs.some((o) => o.address === addr));
    expectTxs(match('transaction', [c('jsonPath', '>', '0', '$.tx.fees')]), () => true);
  });
});

describe('block conditions', () => {
  const b = input.block;
  it.each([
    ['poolId', '=', b.slot_leader, true],
    ['poolId', '!=', b.slot_leader, false],
    ['txCount', '=', String(b.tx_count), true],
    ['txCount', '>', String(b.tx_count), false],
    ['txCount', '>=', String(b.tx_count), true],
    ['size', '<', String(b.size + 1), true],
    ['size', '<=', String(b.size - 1), false],
    ['height', '=', String(b.height), true],
    ['height', '!=', String(b.height), false],
    ['totalFees', '=', b.fees ?? '0', true],
    ['totalFees', '>', b.fees ?? '0', false],
    ['totalOutput', '>=', b.output ?? '0', true],
    ['totalOutput', '<', b.output ?? '0', false],
    ['jsonPath', '=', b.hash, true, '$.hash'],
    ['jsonPath', '>', '999999999999', false, '$.height'],
  ] as const)('%s %s %s → %s', (type, op, value, expected, selector?: string) => {
    expect(match('block', [c(type, op, value, selector)]) !== undefined).toBe(expected);
  });
});

describe('delegation conditions', () => {
  const withDelegation = txs.filter((t) => t.delegations.length > 0);
  const pool = withDelegation[0]!.delegations[0]!.pool_id;
  it('poolId = / != and the pool object embedded', () => {
    const eq = match('delegation', [c('poolId', '=', pool)]);
    expect(hashes(eq)).toEqual(withDelegation.filter((t) => t.delegations.some((d) => d.pool_id === pool)).map((t) => t.tx.hash).sort());
    expect(eq[0].delegations[0].pool.pool_id).toBeTruthy();
    expect(hashes(match('delegation', [c('poolId', '!=', pool)]))).toEqual(withDelegation.filter((t) => t.delegations.some((d) => d.pool_id !== pool)).map((t) => t.tx.hash).sort());
  });
  it('jsonPath over the delegations', () => {
    expect(match('delegation', [c('jsonPath', '=', pool, '$.delegations[*].pool_id')])).toBeTruthy();
  });
  it('no event for a block without delegations', () => {
    expect(match('delegation', [], { ...input, txs: txs.filter((t) => t.delegations.length === 0) })).toBeUndefined();
  });
});

describe('epoch conditions', () => {
  const switchInput: BlockInput = {
    ...input,
    epochSwitch: { previous_epoch: chain.epoch(input.block.epoch! - 1)!, current_epoch: chain.epochBounds(input.block.epoch!) },
  };
  it.each([
    ['=', 0, true],
    ['!=', 0, false],
    ['<', 1, true],
    ['<=', 0, true],
    ['>', -1, true],
    ['>=', 1, false],
  ] as const)('epoch %s current%+d → %s', (op, delta, expected) => {
    expect(match('epoch', [c('epoch', op, String(input.block.epoch! + delta))], switchInput) !== undefined).toBe(expected);
  });
  it('fires only at a switch', () => {
    expect(match('epoch', [], input)).toBeUndefined();
    expect(match('epoch', [c('jsonPath', '=', String(input.block.epoch! - 1), '$.previous_epoch.epoch')], switchInput)).toBeTruthy();
  });
});

// The matcher's indexes, candidate narrowing, condition ordering and per-block caches must not change
// a result: 600 random transaction webhooks against blocks of 40 to 150 transactions on each network, each
// compared with the naive evaluation (every condition of every webhook on every transaction).
import { describe, expect, it } from 'vitest';
import { createSandboxChain } from '../../../server/sandbox/chain/index';
import { stakeAddressOf } from '../../../shared/cardano/address';
import { assetFingerprint } from '../../../shared/cardano/fingerprint';
import { compileWebhooks, matchBlock, type BlockInput, type MatchableWebhook } from '../../../shared/webhook-matcher';
import { compare, extractJsonPath, resultMatches } from '../../../shared/jsonpath';
import type { Condition, Operator } from '../../../shared/webhooks';
import type { TxDetails } from '../../../shared/chain';

function blockOf(chain: ReturnType<typeof createSandboxChain>, size: number): BlockInput {
  const txs: TxDetails[] = [];
  let first = chain.latestBlock();
  for (let h = chain.tipHeight(); txs.length < size; h--) {
    const b = chain.blockAt(h)!;
    if (txs.length === 0) first = b;
    txs.push(...(chain.blockTxDetails(b.hash) ?? []));
  }
  return { block: { ...first, tx_count: txs.length }, txs, epochSwitch: null };
}

/** One condition on one transaction, as the contract states it, with no index or cache. */
function naiveCondition(t: TxDetails, c: Condition): boolean {
  const has = (values: string[]) => (c.operator === '=' ? values.includes(c.value) : !values.includes(c.value));
  const withStake = (addresses: string[]) => addresses.flatMap((a) => [a, stakeAddressOf(a)].filter((x): x is string => x !== null));
  const units = t.outputs.flatMap((o) => o.amount.map((a) => a.unit)).filter((u) => u !== 'lovelace' && u.length >= 56);
  switch (c.type) {
    case 'recipient':
      return has(withStake(t.outputs.map((o) => o.address)));
    case 'sender':
      return has(withStake(t.inputs.map((i) => i.address)));
    case 'policyId':
      return has(units.map((u) => u.slice(0, 56)));
    case 'assetHex':
      return has(units);
    case 'fingerprint':
      return has(
        units.flatMap((u) => {
          try {
            return [assetFingerprint(u.slice(0, 56), u.slice(56))];
          } catch {
            return [];
          }
        }),
      );
    case 'quantity':
      return compare(BigInt(t.tx.output_amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0'), c.operator, c.value);
    case 'jsonPath':
      try {
        return resultMatches(extractJsonPath({ tx: t.tx, inputs: t.inputs, outputs: t.outputs }, c.selector ?? ''), c.operator, c.value);
      } catch {
        return false;
      }
    default:
      return false;
  }
}

function naive(webhooks: MatchableWebhook[], input: BlockInput) {
  return webhooks.flatMap((w) => {
    const txs = input.txs.filter((t) => w.conditions.every((c) => naiveCondition(t, c)));
    return txs.length ? [{ webhookId: w.id, type: w.type, payload: txs.map((t) => ({ tx: t.tx, inputs: t.inputs, outputs: t.outputs })) }] : [];
  });
}

const SELECTORS = ['$.tx.fees', '$.tx.size', '$.outputs[*].amount[*].quantity', '$.outputs[0].address', '$..unit', '$.inputs[*].address', '$.tx.block_height', "$['tx']['hash']", '$.tx.nope', '$.outputs.*.amount[0].quantity'];

function randomWebhooks(input: BlockInput, count: number, seed: number): MatchableWebhook[] {
  let s = seed;
  const rng = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const outputs = input.txs.flatMap((t) => t.outputs.map((o) => o.address));
  const inputs = input.txs.flatMap((t) => t.inputs.map((i) => i.address));
  const stakes = [...outputs, ...inputs].map(stakeAddressOf).filter((x): x is string => x !== null);
  const units = input.txs.flatMap((t) => t.outputs.flatMap((o) => o.amount.map((a) => a.unit))).filter((u) => u !== 'lovelace');
  const fees = input.txs.map((t) => t.tx.fees);
  const ops: Operator[] = ['=', '!=', '<', '<=', '>', '>='];
  const condition = (): Condition => {
    const op = rng() < 0.6 ? pick<Operator>(['=', '!=']) : pick(ops);
    switch (Math.floor(rng() * 7)) {
      case 0:
        return { type: 'recipient', operator: op === '=' ? '=' : '!=', value: rng() < 0.8 ? pick(rng() < 0.7 ? outputs : stakes) : 'addr1nothere' };
      case 1:
        return { type: 'sender', operator: op === '=' ? '=' : '!=', value: pick(rng() < 0.7 ? inputs : stakes) };
      case 2:
        return { type: 'policyId', operator: op === '=' ? '=' : '!=', value: pick(units).slice(0, 56) };
      case 3:
        return { type: 'assetHex', operator: op === '=' ? '=' : '!=', value: pick(units) };
      case 4: {
        const u = pick(units);
        return { type: 'fingerprint', operator: op === '=' ? '=' : '!=', value: assetFingerprint(u.slice(0, 56), u.slice(56)) };
      }
      case 5:
        return { type: 'quantity', operator: pick(ops), value: String(Math.floor(rng() * 20_000_000)) };
      default:
        return { type: 'jsonPath', operator: pick(ops), value: rng() < 0.5 ? pick(fees) : String(Math.floor(rng() * 400_000)), selector: pick(SELECTORS) };
    }
  };
  return Array.from({ length: count }, (_, i) => ({ id: `w${i}`, type: 'transaction' as const, conditions: Array.from({ length: 1 + Math.floor(rng() * 5) }, condition) }));
}

describe('matchBlock against the naive evaluation', () => {
  it.each([
    ['mainnet', 150, 1],
    ['preprod', 100, 2],
    ['preview', 40, 3],
  ] as const)('gives the same events on %s (%i transactions)', (network, size, seed) => {
    const input = blockOf(createSandboxChain({ network, now: () => Date.UTC(2026, 10, 1) }), size);
    const webhooks = randomWebhooks(input, 600, seed);
    const got = matchBlock(webhooks, input);
    const want = naive(webhooks, input);
    // Some of each: matches and misses, so the comparison says something.
    expect(want.length).toBeGreaterThan(50);
    expect(want.length).toBeLessThan(webhooks.length);
    expect(got).toEqual(want);
    // The per-block caches hold nothing over: the same webhooks on another block still agree.
    expect(matchBlock(webhooks, { ...input, txs: input.txs.slice(0, 7) })).toEqual(naive(webhooks, { ...input, txs: input.txs.slice(0, 7) }));
    // Compiled once (as the chain follower keeps them) and matched block after block: the same events.
    const compiled = compileWebhooks(webhooks);
    expect(matchBlock(compiled, input)).toEqual(want);
    expect(matchBlock(compiled, { ...input, txs: input.txs.slice(3, 30) })).toEqual(naive(webhooks, { ...input, txs: input.txs.slice(3, 30) }));
    expect(matchBlock(compiled, input)).toEqual(want);
  }, 30_000);
});

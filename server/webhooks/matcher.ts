import { assetFingerprint } from '../chain/cardano/fingerprint';
import { stakeAddressOf } from '../chain/cardano/address';
import type { Block, Epoch, EpochStart, TxDetails } from '../chain/sandbox/types';
import { compare, extractJsonPath, JsonPathRefused, jsonPathMatches, resultMatches } from '../../shared/jsonpath';
import type { Condition, Trigger } from '../../shared/webhooks';

/** What one block offers the matcher. */
export interface BlockInput {
  block: Block;
  txs: TxDetails[];
  /** Present on the first block of a new epoch. */
  epochSwitch: EpochPayload | null;
}

export interface EpochPayload {
  previous_epoch: Epoch;
  current_epoch: EpochStart;
}

export interface MatchableWebhook {
  id: string;
  type: Trigger;
  conditions: Condition[];
}

export interface Match {
  webhookId: string;
  type: Trigger;
  payload: unknown;
}

const INDEXED = new Set(['recipient', 'sender', 'policyId', 'fingerprint', 'assetHex']);

// JSONPath evaluation and comparisons live in shared/jsonpath.ts, which the webhook editor's preview
// runs too; jsonPathMatches and extractJsonPath stay exported from here for the matcher's callers.
export { extractJsonPath, jsonPathMatches } from '../../shared/jsonpath';

// ---- per-transaction facts, computed once per block ----

interface TxFacts {
  recipient: Set<string>;
  sender: Set<string>;
  policyId: Set<string>;
  fingerprint: Set<string>;
  assetHex: Set<string>;
  lovelace: bigint;
}

/** Bounded memo: addresses and assets recur block after block, and decoding them is the costly part of indexing. */
function memo<T>(fn: (k: string) => T, limit = 200_000): (k: string) => T {
  const cache = new Map<string, T>();
  return (k) => {
    let v = cache.get(k);
    if (v === undefined && !cache.has(k)) {
      if (cache.size >= limit) cache.clear();
      v = fn(k);
      cache.set(k, v);
    }
    return v as T;
  };
}
const stakeOf = memo(stakeAddressOf);
const fingerprintOf = memo((unit: string): string | null => {
  try {
    return assetFingerprint(unit.slice(0, 56), unit.slice(56));
  } catch {
    return null; // not a well-formed unit; it can still match by hex
  }
});

const withStake = (addresses: Iterable<string>): Set<string> => {
  const out = new Set<string>();
  for (const a of addresses) {
    out.add(a);
    const stake = stakeOf(a);
    if (stake) out.add(stake);
  }
  return out;
};

function factsOf(t: TxDetails): TxFacts {
  const policyId = new Set<string>();
  const fingerprint = new Set<string>();
  const assetHex = new Set<string>();
  for (const o of t.outputs) {
    for (const a of o.amount) {
      if (a.unit === 'lovelace' || a.unit.length < 56) continue;
      assetHex.add(a.unit);
      policyId.add(a.unit.slice(0, 56));
      const fp = fingerprintOf(a.unit);
      if (fp) fingerprint.add(fp);
    }
  }
  const lovelace = t.tx.output_amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0';
  return {
    recipient: withStake(t.outputs.map((o) => o.address)),
    sender: withStake(t.inputs.map((i) => i.address)),
    policyId,
    fingerprint,
    assetHex,
    lovelace: BigInt(lovelace),
  };
}

/** Everything about one block the conditions look at, with inverted indexes for equality conditions. */
export class BlockIndex {
  readonly facts: TxFacts[];
  private readonly inverted = new Map<string, Map<string, number[]>>();
  private readonly txItems: Array<{ tx: TxDetails['tx']; inputs: TxDetails['inputs']; outputs: TxDetails['outputs'] }>;

  constructor(readonly input: BlockInput) {
    this.facts = input.txs.map(factsOf);
    this.txItems = input.txs.map((t) => ({ tx: t.tx, inputs: t.inputs, outputs: t.outputs }));
    for (const type of INDEXED) {
      const m = new Map<string, number[]>();
      this.facts.forEach((f, i) => {
        for (const v of f[type as keyof Omit<TxFacts, 'lovelace'>]) {
          const list = m.get(v);
          if (list) list.push(i);
          else m.set(v, [i]);
        }
      });
      this.inverted.set(type, m);
    }
  }

  /** Transactions that could satisfy the conditions: narrowed by an indexed '=' condition when there is one. */
  candidates(conditions: Condition[]): Iterable<number> {
    for (const c of conditions) {
      if (c.operator === '=' && INDEXED.has(c.type)) return this.inverted.get(c.type)!.get(c.value) ?? [];
    }
    return this.facts.keys();
  }

  txItem(i: number) {
    return this.txItems[i]!;
  }

  /** Per selector, what it extracts from each transaction: thousands of webhooks share a handful of selectors. */
  private readonly extracted = new Map<string, Array<unknown[] | null | undefined>>();
  /** Selectors that ran out of their budget on a transaction of this block: each costs one budget per block at most. */
  private readonly overBudget = new Set<string>();

  /** jsonPathMatches on transaction `i`, the extraction done once per selector and transaction. */
  jsonPath(i: number, selector: string, op: Condition['operator'], value: string): boolean {
    let perTx = this.extracted.get(selector);
    if (!perTx) {
      perTx = new Array<unknown[] | null | undefined>(this.facts.length);
      this.extracted.set(selector, perTx);
    }
    let results = perTx[i];
    if (results === undefined) {
      if (this.overBudget.has(selector)) results = null;
      else {
        try {
          results = extractJsonPath(this.txItems[i], selector);
        } catch (err) {
          // A query that cannot be evaluated never matches; one that ran out of budget is not run again in this block.
          if (err instanceof JsonPathRefused) this.overBudget.add(selector);
          results = null;
        }
      }
      perTx[i] = results;
    }
    return results !== null && resultMatches(results, op, value);
  }
}

function txMatches(index: BlockIndex, i: number, conditions: Condition[]): boolean {
  const f = index.facts[i]!;
  for (const c of conditions) {
    let ok: boolean;
    switch (c.type) {
      case 'recipient':
      case 'sender':
      case 'policyId':
      case 'fingerprint':
      case 'assetHex':
        ok = f[c.type].has(c.value) === (c.operator === '=');
        break;
      case 'quantity':
        ok = compare(f.lovelace, c.operator, c.value);
        break;
      case 'jsonPath':
        ok = index.jsonPath(i, c.selector ?? '', c.operator, c.value);
        break;
      default:
        ok = false;
    }
    if (!ok) return false;
  }
  return true;
}

function blockMatches(block: Block, conditions: Condition[]): boolean {
  return conditions.every((c) => {
    switch (c.type) {
      case 'poolId':
        return compare(block.slot_leader, c.operator, c.value);
      case 'txCount':
        return compare(block.tx_count, c.operator, c.value);
      case 'size':
        return compare(block.size, c.operator, c.value);
      case 'height':
        return compare(block.height ?? 0, c.operator, c.value);
      case 'totalFees':
        return compare(block.fees ?? '0', c.operator, c.value);
      case 'totalOutput':
        return compare(block.output ?? '0', c.operator, c.value);
      case 'jsonPath':
        return jsonPathMatches(block, c.selector ?? '', c.operator, c.value);
      default:
        return false;
    }
  });
}

function delegationItemMatches(item: { tx: unknown; delegations: Array<{ pool_id: string }> }, conditions: Condition[]): boolean {
  return conditions.every((c) => {
    if (c.type === 'poolId') return item.delegations.some((d) => compare(d.pool_id, c.operator, c.value));
    if (c.type === 'jsonPath') return jsonPathMatches(item, c.selector ?? '', c.operator, c.value);
    return false;
  });
}

/**
 * A webhook's conditions with JSONPath (by far the costliest check) last, so it runs only after every
 * cheap condition held. Remembered per conditions array: the same webhooks come block after block.
 */
const orderedCache = new WeakMap<Condition[], Condition[]>();
function ordered(conditions: Condition[]): Condition[] {
  let o = orderedCache.get(conditions);
  if (!o) {
    o = conditions.some((c) => c.type === 'jsonPath') ? [...conditions].sort((a, b) => Number(a.type === 'jsonPath') - Number(b.type === 'jsonPath')) : conditions;
    orderedCache.set(conditions, o);
  }
  return o;
}

/** Matches every webhook against one block; each matching webhook gets one event with its payload. */
export function matchBlock(webhooks: MatchableWebhook[], input: BlockInput): Match[] {
  const out: Match[] = [];
  let index: BlockIndex | null = null;
  let delegationItems: Array<{ tx: TxDetails['tx']; delegations: TxDetails['delegations'] }> | null = null;
  for (const w of webhooks) {
    switch (w.type) {
      case 'transaction': {
        index ??= new BlockIndex(input);
        const conditions = ordered(w.conditions);
        const matched: Array<ReturnType<BlockIndex['txItem']>> = [];
        for (const i of index.candidates(conditions)) if (txMatches(index, i, conditions)) matched.push(index.txItem(i));
        if (matched.length > 0) out.push({ webhookId: w.id, type: w.type, payload: matched });
        break;
      }
      case 'block':
        if (blockMatches(input.block, w.conditions)) out.push({ webhookId: w.id, type: w.type, payload: input.block });
        break;
      case 'delegation': {
        delegationItems ??= input.txs.filter((t) => t.delegations.length > 0).map((t) => ({ tx: t.tx, delegations: t.delegations }));
        const matched = delegationItems.filter((item) => delegationItemMatches(item, w.conditions));
        if (matched.length > 0) out.push({ webhookId: w.id, type: w.type, payload: matched });
        break;
      }
      case 'epoch':
        if (input.epochSwitch) {
          const payload = input.epochSwitch;
          const ok = w.conditions.every((c) =>
            c.type === 'epoch' ? compare(payload.current_epoch.epoch, c.operator, c.value) : c.type === 'jsonPath' ? jsonPathMatches(payload, c.selector ?? '', c.operator, c.value) : false,
          );
          if (ok) out.push({ webhookId: w.id, type: w.type, payload });
        }
        break;
    }
  }
  return out;
}

import { assetFingerprint } from './cardano/fingerprint';
import { stakeAddressOf } from './cardano/address';
import type { Block, Epoch, EpochStart, TxDetails } from './chain';
import { compare, expectedOf, extractJsonPath, JsonPathRefused, jsonPathMatches, preparedResultMatches, prepareResults, type Actual, type Expected } from './jsonpath';
import type { Condition, Operator, Trigger } from './webhooks';

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
export { extractJsonPath, jsonPathMatches } from './jsonpath';

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

type IndexedType = 'recipient' | 'sender' | 'policyId' | 'fingerprint' | 'assetHex';
const INDEXED_TYPES: readonly IndexedType[] = ['recipient', 'sender', 'policyId', 'fingerprint', 'assetHex'];

/** Everything about one block the conditions look at, with inverted indexes for equality conditions. */
export class BlockIndex {
  readonly facts: TxFacts[];
  private readonly inverted = new Map<IndexedType, Map<string, number[]>>();
  private readonly txItems: Array<{ tx: TxDetails['tx']; inputs: TxDetails['inputs']; outputs: TxDetails['outputs'] }>;
  /** 0 … n−1: the candidates of a webhook with no indexed '=' condition. */
  readonly all: number[];

  constructor(readonly input: BlockInput) {
    this.facts = input.txs.map(factsOf);
    this.txItems = input.txs.map((t) => ({ tx: t.tx, inputs: t.inputs, outputs: t.outputs }));
    this.all = this.facts.map((_, i) => i);
    for (const type of INDEXED_TYPES) {
      const m = new Map<string, number[]>();
      for (let i = 0; i < this.facts.length; i++) {
        for (const v of this.facts[i]![type]) {
          const list = m.get(v);
          if (list) list.push(i);
          else m.set(v, [i]);
        }
      }
      this.inverted.set(type, m);
    }
  }

  /** The transactions holding `value` among their `type` facts (ascending). */
  holding(type: IndexedType, value: string): readonly number[] {
    return this.inverted.get(type)!.get(value) ?? NONE;
  }

  /** Transactions that could satisfy the conditions: narrowed by an indexed '=' condition when there is one. */
  candidates(conditions: Condition[]): readonly number[] {
    for (const c of conditions) {
      if (c.operator === '=' && INDEXED.has(c.type)) return this.holding(c.type as IndexedType, c.value);
    }
    return this.all;
  }

  txItem(i: number) {
    return this.txItems[i]!;
  }

  /** Per selector, what it extracts from each transaction, parsed for comparison: thousands of webhooks share a handful of selectors. */
  private readonly extracted = new Map<string, Array<Actual[] | null | undefined>>();
  /** Selectors that ran out of their budget on a transaction of this block: each costs one budget per block at most. */
  private readonly overBudget = new Set<string>();

  /** What `selector` extracts from transaction `i` (flattened one level and parsed), or null when it cannot be evaluated; extracted once per selector and transaction. */
  private results(i: number, selector: string): Actual[] | null {
    let perTx = this.extracted.get(selector);
    if (!perTx) {
      perTx = new Array<Actual[] | null | undefined>(this.facts.length);
      this.extracted.set(selector, perTx);
    }
    let results = perTx[i];
    if (results === undefined) {
      if (this.overBudget.has(selector)) results = null;
      else {
        try {
          results = prepareResults(extractJsonPath(this.txItems[i], selector));
        } catch (err) {
          // A query that cannot be evaluated never matches; one that ran out of budget is not run again in this block.
          if (err instanceof JsonPathRefused) this.overBudget.add(selector);
          results = null;
        }
      }
      perTx[i] = results;
    }
    return results;
  }

  /** jsonPathMatches on transaction `i` against a value parsed beforehand. */
  jsonPathPrepared(i: number, selector: string, op: Operator, expected: Expected): boolean {
    const results = this.results(i, selector);
    return results !== null && preparedResultMatches(results, op, expected);
  }

  /** jsonPathMatches on transaction `i`, the extraction done once per selector and transaction. */
  jsonPath(i: number, selector: string, op: Operator, value: string): boolean {
    return this.jsonPathPrepared(i, selector, op, expectedOf(value));
  }
}

const NONE: readonly number[] = [];

// ---- conditions compiled once per webhook ----

/** One condition of a transaction webhook as a test on one transaction of a block, its value parsed once. */
type TxCheck = (f: TxFacts, index: BlockIndex, i: number) => boolean;

function bigintCheck(op: Operator, e: bigint): TxCheck {
  switch (op) {
    case '=':
      return (f) => f.lovelace === e;
    case '!=':
      return (f) => f.lovelace !== e;
    case '<':
      return (f) => f.lovelace < e;
    case '<=':
      return (f) => f.lovelace <= e;
    case '>':
      return (f) => f.lovelace > e;
    case '>=':
      return (f) => f.lovelace >= e;
  }
}

function compileCheck(c: Condition): TxCheck {
  switch (c.type) {
    // One function per fact, so each reads its set by name (one shape, one property) rather than by a key.
    case 'recipient': {
      const value = c.value;
      return c.operator === '=' ? (f) => f.recipient.has(value) : (f) => !f.recipient.has(value);
    }
    case 'sender': {
      const value = c.value;
      return c.operator === '=' ? (f) => f.sender.has(value) : (f) => !f.sender.has(value);
    }
    case 'policyId': {
      const value = c.value;
      return c.operator === '=' ? (f) => f.policyId.has(value) : (f) => !f.policyId.has(value);
    }
    case 'fingerprint': {
      const value = c.value;
      return c.operator === '=' ? (f) => f.fingerprint.has(value) : (f) => !f.fingerprint.has(value);
    }
    case 'assetHex': {
      const value = c.value;
      return c.operator === '=' ? (f) => f.assetHex.has(value) : (f) => !f.assetHex.has(value);
    }
    case 'quantity': {
      const e = expectedOf(c.value);
      if (e.int !== null) return bigintCheck(c.operator, e.int);
      const { operator, value } = c;
      return (f) => compare(f.lovelace, operator, value);
    }
    case 'jsonPath': {
      const selector = c.selector ?? '';
      const { operator } = c;
      const e = expectedOf(c.value);
      return (_f, index, i) => index.jsonPathPrepared(i, selector, operator, e);
    }
    default:
      return () => false;
  }
}

/** A webhook made ready for matching: for a transaction webhook, its narrowing condition and the rest as compiled checks. */
export interface CompiledWebhook {
  webhook: MatchableWebhook;
  /** The first indexed '=' condition: only the transactions holding its value are looked at (and it needs no other check). */
  anchor: { type: IndexedType; value: string } | null;
  /** Every other condition, JSONPath (by far the costliest) last, so it runs only after every cheap condition held. */
  checks: TxCheck[];
}

export function compileWebhook(w: MatchableWebhook): CompiledWebhook {
  if (w.type !== 'transaction') return { webhook: w, anchor: null, checks: [] };
  const at = w.conditions.findIndex((c) => c.operator === '=' && INDEXED.has(c.type));
  const anchor = at >= 0 ? { type: w.conditions[at]!.type as IndexedType, value: w.conditions[at]!.value } : null;
  const rest = w.conditions.filter((_, k) => k !== at);
  const ordered = [...rest.filter((c) => c.type !== 'jsonPath'), ...rest.filter((c) => c.type === 'jsonPath')];
  return { webhook: w, anchor, checks: ordered.map(compileCheck) };
}

/**
 * Webhooks compiled for matching, built when they are loaded or change (the chain follower keeps one
 * per confirmation depth and recompiles only the webhooks whose conditions changed), so matching a
 * block parses no condition value, sorts nothing and allocates nothing per webhook that does not match.
 */
export class WebhookSet {
  readonly compiled: CompiledWebhook[];
  constructor(webhooks: Array<MatchableWebhook | CompiledWebhook>) {
    this.compiled = webhooks.map((w) => ('webhook' in w ? w : compileWebhook(w)));
  }
  get size(): number {
    return this.compiled.length;
  }
}

export const compileWebhooks = (webhooks: MatchableWebhook[]): WebhookSet => new WebhookSet(webhooks);

function txMatches(checks: TxCheck[], f: TxFacts, index: BlockIndex, i: number): boolean {
  for (let k = 0; k < checks.length; k++) if (!checks[k]!(f, index, i)) return false;
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
 * Matches every webhook against one block; each matching webhook gets one event with its payload.
 * Takes the webhooks compiled (a WebhookSet, as the chain follower keeps them) or plain (compiled here).
 */
export function matchBlock(webhooks: MatchableWebhook[] | WebhookSet, input: BlockInput): Match[] {
  const set = webhooks instanceof WebhookSet ? webhooks : new WebhookSet(webhooks);
  const out: Match[] = [];
  let index: BlockIndex | null = null;
  let delegationItems: Array<{ tx: TxDetails['tx']; delegations: TxDetails['delegations'] }> | null = null;
  for (const cw of set.compiled) {
    const w = cw.webhook;
    switch (w.type) {
      case 'transaction': {
        index ??= new BlockIndex(input);
        const candidates = cw.anchor ? index.holding(cw.anchor.type, cw.anchor.value) : index.all;
        const { checks } = cw;
        const facts = index.facts;
        let matched: Array<ReturnType<BlockIndex['txItem']>> | null = null;
        for (let k = 0; k < candidates.length; k++) {
          const i = candidates[k]!;
          if (txMatches(checks, facts[i]!, index, i)) (matched ??= []).push(index.txItem(i));
        }
        if (matched) out.push({ webhookId: w.id, type: w.type, payload: matched });
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

/** Whether a 'tx_status' event (a tracked transaction's change of state) meets a webhook's conditions: JSONPath over its payload, all of them. */
export function txStatusMatches(conditions: ReadonlyArray<{ type: string; selector?: string | null; operator: string; value: string }>, payload: unknown): boolean {
  return conditions.every((c) => c.type === 'jsonPath' && jsonPathMatches(payload, c.selector ?? '', c.operator as never, c.value));
}

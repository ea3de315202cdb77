// Plutus evaluation for the sandbox ledger and /utils/txs/evaluate: Aiken's UPLC machine, compiled
// to WebAssembly (@lucid-evolution/uplc), run over a transaction and the outputs it spends and
// references, with the cost models and per-transaction budget of /epochs/latest/parameters. What it
// answers is what the node's evaluation answers: each redeemer's memory and steps, or the failing
// redeemers with the script's error and its trace.
import { randomUUID } from 'node:crypto';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { eval_phase_two_raw } from '@lucid-evolution/uplc';
import { PROTOCOL, type CostModelsRaw, type Ratio } from './protocol';

export const MAX_TX_EX_MEM = 14_000_000n;
export const MAX_TX_EX_STEPS = 10_000_000_000n;

export type Purpose = 'spend' | 'mint' | 'certificate' | 'withdrawal' | 'vote' | 'propose';
export type PlutusVersion = 'plutusV1' | 'plutusV2' | 'plutusV3';

const PURPOSES: Purpose[] = ['spend', 'mint', 'certificate', 'withdrawal', 'vote', 'propose'];
export const purposeOfTag = (tag: CSL.RedeemerTag): Purpose => PURPOSES[tag.kind()] ?? 'spend';

export interface RedeemerBudget {
  purpose: Purpose;
  index: number;
  memory: number;
  steps: number;
}

export interface ScriptFailure {
  purpose: Purpose;
  index: number;
  error: string;
  traces: string[];
}

/** A redeemer whose script context could not be built (an input the ledger does not know). */
export interface ContextFailure {
  purpose: Purpose;
  index: number;
  reason: string;
}

export type Evaluation =
  | { ok: true; redeemers: RedeemerBudget[] }
  /**
   * failures: the redeemers whose scripts failed; context: those whose script context could not be
   * built; general: why evaluation could not start (a missing script, datum or redeemer).
   */
  | { ok: false; failures: ScriptFailure[]; general: string | null; context?: ContextFailure[] };

export interface ResolvedOutput {
  input: CSL.TransactionInput;
  output: CSL.TransactionOutput;
}

export interface SlotConfig {
  /** POSIX milliseconds of slot zeroSlot. */
  zeroTime: number;
  zeroSlot: number;
  /** Milliseconds per slot. */
  slotLength: number;
}

// CSL's objects live in its WebAssembly memory, which never shrinks: those used for a moment are
// freed at once rather than when the garbage collector gets to their wrappers (each devnet makes
// its cost models, a few hundred numbers).
const costModel = (list: readonly number[]): CSL.CostModel => {
  const m = CSL.CostModel.new();
  list.forEach((v, i) => {
    const big = Math.abs(v) < 2 ** 31 ? null : CSL.BigNum.from_str(String(Math.abs(v)));
    const cost = big === null ? CSL.Int.new_i32(v) : v < 0 ? CSL.Int.new_negative(big) : CSL.Int.new(big);
    m.set(i, cost).free();
    cost.free();
    big?.free();
  });
  return m;
};

const LANGUAGES: Record<PlutusVersion, () => CSL.Language> = {
  plutusV1: () => CSL.Language.new_plutus_v1(),
  plutusV2: () => CSL.Language.new_plutus_v2(),
  plutusV3: () => CSL.Language.new_plutus_v3(),
};
const NAMES: Record<PlutusVersion, keyof CostModelsRaw> = { plutusV1: 'PlutusV1', plutusV2: 'PlutusV2', plutusV3: 'PlutusV3' };

/**
 * The cost models of `languages` (every language when absent), as the ledger hashes and the machine
 * reads them: the chain's own (a devnet's genesis may set them), the defaults otherwise.
 */
export function costModels(languages?: Iterable<PlutusVersion>, models: CostModelsRaw = PROTOCOL.costModels): CSL.Costmdls {
  const out = CSL.Costmdls.new();
  for (const v of languages ?? (Object.keys(NAMES) as PlutusVersion[])) {
    const language = LANGUAGES[v]();
    const model = costModel(models[NAMES[v]]);
    out.insert(language, model)?.free();
    language.free();
    model.free();
  }
  return out;
}
/** Every language's models as the machine takes them, made once per set of models. */
const encodedModels = new WeakMap<CostModelsRaw, Uint8Array>();
const allModels = (models: CostModelsRaw): Uint8Array => {
  let bytes = encodedModels.get(models);
  if (!bytes) {
    const all = costModels(undefined, models);
    encodedModels.set(models, (bytes = all.to_bytes()));
    all.free();
  }
  return bytes;
};

export const versionOf = (script: CSL.PlutusScript): PlutusVersion => (['plutusV1', 'plutusV2', 'plutusV3'] as const)[script.language_version().kind()] ?? 'plutusV3';

const FAILURE_LINE = /^\s*(Spend|Mint|Cert|Reward|Vote|Propose)\[(\d+)\]\s*(.*)$/;
const LABEL_PURPOSE: Record<string, Purpose> = { Spend: 'spend', Mint: 'mint', Cert: 'certificate', Reward: 'withdrawal', Vote: 'vote', Propose: 'propose' };

/** Reads the machine's error text: the failing redeemers with their error and trace lines. */
export function parseFailure(text: string): { failures: ScriptFailure[]; general: string | null } {
  const failures: ScriptFailure[] = [];
  const general: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) continue;
    const m = FAILURE_LINE.exec(line);
    if (m) {
      failures.push({ purpose: LABEL_PURPOSE[m[1]!]!, index: Number(m[2]), error: m[3]!.trim(), traces: [] });
      continue;
    }
    const trace = /^\s*Trace\s?(.*)$/.exec(line);
    if (trace && failures.length > 0) failures[failures.length - 1]!.traces.push(trace[1]!);
    else general.push(line.trim());
  }
  return { failures, general: failures.length > 0 ? null : general.join(' ').slice(0, 500) || 'the scripts could not be evaluated' };
}

/**
 * Runs every Plutus script of `tx` (its redeemers' budgets are ignored: each is measured against the
 * transaction's maximum) over `utxos`, which must hold every input and reference input it names.
 */
export function evaluate(tx: Uint8Array, utxos: ResolvedOutput[], slots: SlotConfig, models: CostModelsRaw = PROTOCOL.costModels): Evaluation {
  let out: Uint8Array[];
  try {
    out = eval_phase_two_raw(
      tx,
      utxos.map((u) => u.input.to_bytes()),
      utxos.map((u) => u.output.to_bytes()),
      allModels(models),
      MAX_TX_EX_STEPS,
      MAX_TX_EX_MEM,
      BigInt(slots.zeroTime),
      BigInt(slots.zeroSlot),
      slots.slotLength,
    );
  } catch (err) {
    return { ok: false, ...parseFailure(typeof err === 'string' ? err : err instanceof Error ? err.message : String(err)) };
  }
  return {
    ok: true,
    redeemers: out.map((bytes) => {
      const r = CSL.Redeemer.from_bytes(bytes);
      return { purpose: purposeOfTag(r.tag()), index: Number(r.index().to_str()), memory: Number(r.ex_units().mem().to_str()), steps: Number(r.ex_units().steps().to_str()) };
    }),
  };
}

/** The lovelace the execution units cost at the chain's prices (part of the minimum fee): the exact fraction, rounded up, as the ledger computes it. */
export function exUnitsFee(memory: bigint, steps: bigint, prices: { priceMem: Ratio; priceStep: Ratio } = PROTOCOL): bigint {
  const { priceMem: m, priceStep: s } = prices;
  const numerator = memory * m.numerator * s.denominator + steps * s.numerator * m.denominator;
  const denominator = m.denominator * s.denominator;
  return (numerator + denominator - 1n) / denominator;
}

// ---- Ogmios's EvaluateTx answer, as Blockfrost relays it (version 5 by default, 6 on ?version=6) ----

const V6_PURPOSE: Record<Purpose, string> = { spend: 'spend', mint: 'mint', certificate: 'publish', withdrawal: 'withdraw', vote: 'vote', propose: 'propose' };

// Blockfrost tags each answer with a fresh request id: version 5's reflection {id}, version 6's id.
export function ogmiosResult(evaluation: Evaluation, version: 5 | 6, requestId: string = randomUUID()): Record<string, unknown> {
  const context = evaluation.ok ? [] : (evaluation.context ?? []);
  if (version === 6) {
    const id = requestId;
    if (evaluation.ok) {
      return {
        jsonrpc: '2.0',
        method: 'evaluateTransaction',
        result: evaluation.redeemers.map((r) => ({ validator: { purpose: V6_PURPOSE[r.purpose], index: r.index }, budget: { memory: r.memory, cpu: r.steps } })),
        id,
      };
    }
    // Ogmios 6's answer when scripts terminated with errors: one entry per validator.
    const scriptErrors = (data: unknown[]) => ({ jsonrpc: '2.0', method: 'evaluateTransaction', error: { code: 3010, message: 'Some scripts of the transactions terminated with error(s).', data }, id });
    if (context.length > 0) {
      return scriptErrors(
        context.map((c) => ({
          validator: { purpose: V6_PURPOSE[c.purpose], index: c.index },
          error: { code: 3004, message: 'Unable to create the evaluation context from the given transaction.', data: { reason: c.reason } },
        })),
      );
    }
    if (evaluation.failures.length === 0) {
      return { jsonrpc: '2.0', method: 'evaluateTransaction', error: { code: 3000, message: evaluation.general ?? 'The transaction could not be evaluated.' }, id };
    }
    return scriptErrors(
      evaluation.failures.map((f) => ({
        validator: { purpose: V6_PURPOSE[f.purpose], index: f.index },
        error: { code: 3012, message: 'Some of the scripts failed to evaluate to a positive outcome.', data: { validationError: f.error, traces: f.traces } },
      })),
    );
  }
  const envelope = { type: 'jsonwsp/response', version: '1.0', servicename: 'ogmios', methodname: 'EvaluateTx' };
  const reflection = { id: requestId };
  if (evaluation.ok) {
    return { ...envelope, result: { EvaluationResult: Object.fromEntries(evaluation.redeemers.map((r) => [`${r.purpose}:${r.index}`, { memory: r.memory, steps: r.steps }])) }, reflection };
  }
  if (context.length > 0) {
    // Blockfrost nests a context failure under each redeemer it stops, as one object (not Ogmios 5's list).
    return { ...envelope, result: { EvaluationFailure: { ScriptFailures: Object.fromEntries(context.map((c) => [`${c.purpose}:${c.index}`, { CannotCreateEvaluationContext: { reason: c.reason } }])) } }, reflection };
  }
  if (evaluation.failures.length === 0) return { ...envelope, result: { EvaluationFailure: { CannotCreateEvaluationContext: { reason: evaluation.general } } }, reflection };
  return {
    ...envelope,
    result: {
      EvaluationFailure: {
        ScriptFailures: Object.fromEntries(evaluation.failures.map((f) => [`${f.purpose}:${f.index}`, [{ validatorFailed: { error: f.error, traces: f.traces } }]])),
      },
    },
    reflection,
  };
}

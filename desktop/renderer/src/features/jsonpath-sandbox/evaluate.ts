// The sandbox's verdicts come from the webhook matcher itself (shared/webhook-matcher.ts, isomorphic: it
// needs only shared/jsonpath.ts and pure Cardano encodings), run on the pasted payload as if it were a
// block's content, so the sandbox can never disagree with what is delivered.
import { matchBlock, txStatusMatches, type BlockInput } from '../../../../../shared/webhook-matcher';
import type { Block, TxDetails } from '../../../../../shared/chain';
import { extract } from '../../../../../shared/jsonpath';
import { yieldsList, type Condition, type Trigger } from '../../../../../shared/webhooks';

type ConditionVerdict = {
  matches: boolean;
  /** jsonPath conditions: what the query selects from each item (block and epoch events have one). */
  extracted?: Array<{ ok: true; values: unknown[] } | { ok: false; message: string }>;
};

type SandboxVerdict =
  | { ok: true; fires: boolean; conditions: ConditionVerdict[]; items: number; matchedItems: number }
  | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The payload as the matcher's input, or why it cannot be one. */
function inputOf(trigger: Trigger, payload: unknown): { input: BlockInput; items: number } | string {
  const empty = { block: {} as Block, txs: [] as TxDetails[], epochSwitch: null };
  switch (trigger) {
    case 'transaction':
    case 'delegation': {
      if (!Array.isArray(payload) || payload.length === 0 || !payload.every(isObject)) {
        return `A ${trigger} event's payload is a list of items, each an object with "tx"${trigger === 'transaction' ? ', "inputs" and "outputs"' : ' and "delegations"'}.`;
      }
      const txs = payload.map((item) => {
        const list = (key: string) => (Array.isArray(item[key]) ? (item[key] as unknown[]) : []);
        const tx = isObject(item.tx) ? item.tx : {};
        return { tx, inputs: list('inputs'), outputs: list('outputs'), delegations: list('delegations') } as unknown as TxDetails;
      });
      if (trigger === 'transaction' && txs.some((t) => !Array.isArray((t.tx as { output_amount?: unknown }).output_amount))) {
        return 'Each transaction item needs "tx.output_amount" (the /txs/{hash} shape).';
      }
      if (trigger === 'delegation' && txs.some((t) => t.delegations.length === 0)) return 'Each delegation item needs a non-empty "delegations" list.';
      return { input: { ...empty, txs }, items: txs.length };
    }
    case 'block':
      if (!isObject(payload)) return "A block event's payload is the block object (the /blocks/{hash} shape).";
      return { input: { ...empty, block: payload as unknown as Block }, items: 1 };
    case 'epoch':
      if (!isObject(payload) || !isObject(payload.current_epoch) || !isObject(payload.previous_epoch)) {
        return 'An epoch event\'s payload is {"previous_epoch": {…}, "current_epoch": {"epoch", "start_time", "end_time"}}.';
      }
      return { input: { ...empty, epochSwitch: payload as unknown as BlockInput['epochSwitch'] }, items: 1 };
    case 'tx_status':
      if (!isObject(payload)) return 'A transaction status event\'s payload is {"tx_hash", "state", "previous_state", "block_height", "depth", …}.';
      return { input: empty, items: 1 };
  }
}

/** Whether the event would fire with these conditions, each condition's own verdict, and what queries extract. */
export function evaluateSandbox(trigger: Trigger, payload: unknown, conditions: Condition[]): SandboxVerdict {
  const built = inputOf(trigger, payload);
  if (typeof built === 'string') return { ok: false, message: built };
  const run = (list: Condition[]) =>
    trigger === 'tx_status' ? (txStatusMatches(list, payload) ? { payload } : null) : (matchBlock([{ id: 'sandbox', type: trigger, conditions: list }], built.input)[0] ?? null);
  try {
    const all = run(conditions);
    const subjects = yieldsList(trigger) ? (payload as unknown[]) : [payload];
    return {
      ok: true,
      fires: all !== null,
      items: built.items,
      matchedItems: all === null ? 0 : Array.isArray(all.payload) ? all.payload.length : 1,
      conditions: conditions.map((c) => ({
        matches: run([c]) !== null,
        ...(c.type === 'jsonPath'
          ? {
              extracted: subjects.map((subject) => {
                try {
                  return { ok: true as const, values: extract(subject, c.selector ?? '') };
                } catch (error) {
                  return { ok: false as const, message: error instanceof Error ? error.message : String(error) };
                }
              }),
            }
          : {}),
      })),
    };
  } catch (error) {
    return { ok: false, message: `The matcher could not read this payload: ${error instanceof Error ? error.message : String(error)}` };
  }
}

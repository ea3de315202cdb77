import type { ChainSource } from './chain-source';
import { matchBlock } from '../../../shared/webhook-matcher';
import type { Trigger } from '../../../shared/webhooks';
import { builtInSamples } from '../../../shared/webhook-samples';

const LOOK_BACK = 30;

/**
 * A real payload of a trigger, built from the network's recent blocks exactly as the follower builds
 * events: what the JSONPath editor is prefilled with, and what a test event carries.
 */
export async function samplePayload(source: ChainSource, type: Trigger): Promise<unknown> {
  // A transaction's change of state is not read from blocks: the built-in sample stands for it.
  if (type === 'tx_status') return builtInSamples.tx_status;
  const tip = await source.tipHeight();
  if (type === 'epoch') {
    const block = await source.blockAt(tip);
    if (!block || block.epoch === null) throw new Error('no epoch on this chain yet');
    const [previous, current] = await Promise.all([source.epoch(block.epoch - 1), source.epochStart(block.epoch)]);
    if (!previous || !current) throw new Error('epoch data unavailable');
    return { previous_epoch: previous, current_epoch: current };
  }
  for (let h = tip; h > tip - LOOK_BACK; h--) {
    const block = await source.blockAt(h);
    if (!block) continue;
    if (type === 'block') return block;
    if (block.tx_count === 0) continue;
    const txs = await source.blockTxDetails(block.hash);
    const [match] = matchBlock([{ id: 'sample', type, conditions: [] }], { block, txs, epochSwitch: null });
    if (match) return (match.payload as unknown[]).slice(0, type === 'transaction' ? 2 : 1);
  }
  throw new Error(`no recent ${type} on this chain`);
}

/** How long a network's sample stays fresh: long enough that a busy editor costs one walk a minute. */
export const SAMPLE_TTL_MS = 60_000;
/** A failed walk is not retried for this long, so a struggling backend is not hammered. */
const FAILURE_TTL_MS = 5_000;

/**
 * Samples per network and trigger, shared by every caller: concurrent requests wait for the same
 * walk, and a payload is reused for SAMPLE_TTL_MS, so the number of upstream calls does not grow
 * with the number of people opening the editor.
 */
export class SampleCache {
  private readonly entries = new Map<string, { at: number; ttl: number; value: Promise<unknown> }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(network: number, type: Trigger, source: ChainSource): Promise<unknown> {
    const key = `${network}:${type}`;
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && at - hit.at < hit.ttl) return hit.value;
    const value = samplePayload(source, type);
    const entry = { at, ttl: SAMPLE_TTL_MS, value };
    this.entries.set(key, entry);
    value.catch(() => {
      entry.ttl = FAILURE_TTL_MS;
    });
    return value;
  }
}

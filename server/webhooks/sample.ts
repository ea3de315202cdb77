import type { ChainSource } from './chain-source';
import { matchBlock } from './matcher';
import type { Trigger } from '../../shared/webhooks';

const LOOK_BACK = 30;

/**
 * A real payload of a trigger, built from the network's recent blocks exactly as the follower builds
 * events: what the JSONPath editor is prefilled with, and what a test event carries.
 */
export async function samplePayload(source: ChainSource, type: Trigger): Promise<unknown> {
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

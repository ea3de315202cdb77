import { describe, expect, it } from 'vitest';
import { DEVNET_FIELD_LABELS, DEVNET_MESSAGES, withDevnetFieldLabels } from '../../../shared/devnets';

describe("a steering call's message on the project page", () => {
  it('names the field it starts with by its label', () => {
    expect(withDevnetFieldLabels(DEVNET_MESSAGES.count)).toBe('Blocks to produce now must be a whole number of blocks from 1 to 10,000.');
    expect(withDevnetFieldLabels(DEVNET_MESSAGES.interval).startsWith(`${DEVNET_FIELD_LABELS.ms} must be`)).toBe(true);
    expect(withDevnetFieldLabels('epochLength: at least 4 blocks an epoch')).toBe('Epoch length (slots): at least 4 blocks an epoch');
  });

  it('names a genesis field by its label wherever the message names it, the API path before it too', () => {
    expect(withDevnetFieldLabels('genesis.blockIntervalMs: a multiple of slotLengthMs')).toBe('Genesis block interval (ms): a multiple of Slot length (ms)');
  });

  it('leaves other text as it is: prose words that are field names, unknown names, messages without a field', () => {
    expect(withDevnetFieldLabels('The chain has 3 blocks after its genesis: roll back at most that many.')).toBe('The chain has 3 blocks after its genesis: roll back at most that many.');
    expect(withDevnetFieldLabels('constructor must be a function')).toBe('constructor must be a function');
    expect(withDevnetFieldLabels('toString: nothing')).toBe('toString: nothing');
    expect(withDevnetFieldLabels(DEVNET_MESSAGES.time)).toBe(DEVNET_MESSAGES.time);
  });
});

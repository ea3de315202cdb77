// Every endpoint group of the walk, in the order their prepare() runs (openapi-walk.test.ts and
// bench:sandbox). `txs` stays last: it leaves a transaction in the mempool and expects the latest
// block to hold its payment, which a later group moving the clock would change.
import { served } from './served';
import { gov } from './gov';
import { stake } from './stake';
import { txs } from './txs';
import type { WalkGroup } from './types';

export const GROUPS: WalkGroup[] = [served, stake, gov, txs];

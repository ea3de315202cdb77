import { z } from 'zod';

// The life of a transaction submitted through the gateway (GET /cairn/v1/txs/{hash}/status, the
// project page's recent submissions): its states, the depth that confirms it, and the answer's shape.

export const txStates = ['pending', 'in_block', 'confirmed', 'rolled_back', 'expired', 'invalid'] as const;
export type TxState = (typeof txStates)[number];

/** States a transaction does not leave: settled rows are pruned after TX_RETENTION_DAYS. */
export const settledTxStates: readonly TxState[] = ['confirmed', 'expired', 'invalid'];
/** States the chain follower still advances. */
export const openTxStates: readonly TxState[] = ['pending', 'in_block', 'rolled_back'];

/** Blocks on top of (and including) its block that make a transaction confirmed, unless the project sets its own. */
export const DEFAULT_TX_CONFIRMATIONS = 10;
/** The most a project may ask for. */
export const MAX_TX_CONFIRMATIONS = 2160;
const WHOLE_BLOCKS = 'Confirmations must be a whole number of blocks.';
/** PUT /api/projects/:uuid/tx-confirmations, and the project settings form that sends it. */
export const txConfirmationsSchema = z.object({
  confirmations: z
    .number({ error: WHOLE_BLOCKS })
    .int(WHOLE_BLOCKS)
    .min(1, 'Confirmations must be at least 1 block.')
    .max(MAX_TX_CONFIRMATIONS, `Confirmations must be at most ${MAX_TX_CONFIRMATIONS} blocks.`),
});
/** PUT /api/projects/:uuid/tx-resubmit: whether rolled-back transactions go back to the mempool. */
export const txResubmitSchema = z.object({
  resubmit: z.boolean({ error: 'Resubmit must be true or false.' }),
});
/** Days a settled transaction stays listed after it settled. */
export const TX_RETENTION_DAYS = 7;

export const txStateLabels: Record<TxState, string> = {
  pending: 'Pending',
  in_block: 'In block',
  confirmed: 'Confirmed',
  rolled_back: 'Rolled back',
  expired: 'Expired',
  invalid: 'Invalid',
};

export const TX_HASH_PATTERN = /^[0-9a-f]{64}$/;
export const TX_HASH_MESSAGE = 'The transaction hash must be 64 hexadecimal characters (lower case), the hash /tx/submit answered.';

export interface TxStatusChange {
  state: TxState;
  /** This change was Cairn sending the rolled-back transaction to the mempool again (the project's resubmission setting). */
  resubmitted: boolean;
  block_height: number | null;
  block_hash: string | null;
  /** Epoch seconds, as Blockfrost gives times. */
  at: number;
}

/** GET /cairn/v1/txs/{hash}/status. */
export interface TxStatus {
  tx_hash: string;
  state: TxState;
  block_height: number | null;
  block_hash: string | null;
  /** Blocks from its block to the tip followed so far, its block included (0 while not in a block). */
  depth: number;
  confirmations_needed: number;
  ttl_slot: number | null;
  /** The ledger's reason for an invalid transaction. */
  reason: string | null;
  submitted_at: number;
  history: TxStatusChange[];
}

/** One row of the project page's recent submissions. */
export interface TrackedTxDto {
  tx_hash: string;
  state: TxState;
  block_height: number | null;
  depth: number;
  confirmations_needed: number;
  reason: string | null;
  /** Epoch ms. */
  submitted_at: number;
  updated_at: number;
}

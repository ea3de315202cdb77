// A devnet: a private Cardano development chain of one project, steered by its owner (produce blocks,
// pause, roll back, travel in time, fund addresses, snapshot and restore). The schemas shared by the
// chain (server/sandbox/chain/devnet.ts), its HTTP API and the dashboard: the genesis a devnet is
// created with (every field optional, defaults filled in) and the state that rebuilds it.
import { z } from 'zod';
import { parseShelleyAddress } from './cardano/address';

/** A devnet's network magic (/genesis network_magic); its addresses are testnet ones (network id 0). */
export const DEVNET_NETWORK_MAGIC = 42;

export const DEVNET_DEFAULTS = {
  slotLengthMs: 1000,
  /** 600 slots: an epoch every 10 minutes at 1 s slots, so a delegation earns rewards within half an hour. */
  epochLength: 600,
  blockIntervalMs: 1000,
  securityParam: 100,
} as const;

/** Blocks a single produce() makes at most. */
export const DEVNET_MAX_PRODUCE = 10_000;
/** Lovelace one genesis output holds at most (45 billion ada, the maximum supply). */
const MAX_LOVELACE = 45_000_000_000_000_000n;

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
/** A lovelace amount as text (the API's form: lovelace do not fit a JSON number), or a number. */
const lovelaceText = z
  .union([z.string().regex(/^\d{1,17}$/, 'a whole number of lovelace'), z.number().int().nonnegative()])
  .transform((v) => String(v));

/** The protocol parameters a genesis may set, by their names in /epochs/{n}/parameters. */
export const devnetProtocolParamsSchema = z
  .object({
    min_fee_a: whole(0, 1_000_000),
    min_fee_b: whole(0, 1_000_000_000),
    max_tx_size: whole(1_024, 1_000_000),
    max_block_size: whole(1_024, 10_000_000),
    key_deposit: lovelaceText,
    pool_deposit: lovelaceText,
    coins_per_utxo_size: lovelaceText,
    max_val_size: whole(100, 1_000_000),
    collateral_percent: whole(0, 1_000),
    max_collateral_inputs: whole(1, 100),
    min_pool_cost: lovelaceText,
    min_fee_ref_script_cost_per_byte: whole(0, 1_000_000),
    drep_deposit: lovelaceText,
    gov_action_deposit: lovelaceText,
    /** Epochs a governance action stays open. */
    gov_action_lifetime: whole(1, 1_000),
    /** Epochs without a vote after which a DRep is inactive. */
    drep_activity: whole(1, 1_000),
    committee_max_term_length: whole(1, 10_000),
  })
  .partial()
  .strict();

export const devnetInitialFundSchema = z
  .object({
    address: z
      .string()
      .max(200)
      .refine((a) => parseShelleyAddress(a)?.network === 'testnet', 'a Shelley testnet address (addr_test…)'),
    lovelace: lovelaceText.refine((v) => BigInt(v) >= 1_000_000n && BigInt(v) <= MAX_LOVELACE, 'from 1 ada to 45 billion ada'),
  })
  .strict();

export const devnetInitialDrepSchema = z
  .object({
    /** The DRep credential: a key hash (CIP-105 DRep key) or a script hash, 28 bytes in hex. */
    credential: z.string().regex(/^[0-9a-fA-F]{56}$/, '28 bytes in hex').transform((v) => v.toLowerCase()),
    script: z.boolean().default(false),
  })
  .strict();

export const devnetGenesisSchema = z
  .object({
    /** Milliseconds a slot lasts: 100 to 1000, a multiple of 100. */
    slotLengthMs: whole(100, 1000).multipleOf(100).default(DEVNET_DEFAULTS.slotLengthMs),
    /** Slots per epoch. */
    epochLength: whole(10, 432_000).default(DEVNET_DEFAULTS.epochLength),
    /** Milliseconds between blocks: a multiple of the slot length. */
    blockIntervalMs: whole(100, 3_600_000).default(DEVNET_DEFAULTS.blockIntervalMs),
    /** k: the era summaries' safe zone is 3k/f slots. */
    securityParam: whole(1, 2160).default(DEVNET_DEFAULTS.securityParam),
    protocolParams: devnetProtocolParamsSchema.default({}),
    /** Outputs of the genesis transaction (block 0), after the faucet's and the development wallets'. */
    initialFunds: z.array(devnetInitialFundSchema).max(100).default([]),
    /** DReps registered by the genesis transaction (their deposit is drep_deposit): whoever holds the key votes as them from block 1. */
    initialDReps: z.array(devnetInitialDrepSchema).max(32).default([]),
  })
  .strict()
  .superRefine((g, ctx) => {
    if (new Set(g.initialDReps.map((d) => d.credential)).size !== g.initialDReps.length) ctx.addIssue({ code: 'custom', path: ['initialDReps'], message: 'each credential once' });
    if (g.blockIntervalMs % g.slotLengthMs !== 0) ctx.addIssue({ code: 'custom', path: ['blockIntervalMs'], message: 'a multiple of slotLengthMs' });
    else if (g.epochLength % (g.blockIntervalMs / g.slotLengthMs) !== 0) ctx.addIssue({ code: 'custom', path: ['epochLength'], message: 'a multiple of the slots between blocks (blockIntervalMs / slotLengthMs)' });
    else if (g.epochLength / (g.blockIntervalMs / g.slotLengthMs) < 4) ctx.addIssue({ code: 'custom', path: ['epochLength'], message: 'at least 4 blocks an epoch' });
  });

/** The genesis as the API takes it: every field optional. */
export type DevnetGenesisInput = z.input<typeof devnetGenesisSchema>;
/** The genesis with its defaults filled in. */
export type DevnetGenesis = z.output<typeof devnetGenesisSchema>;

/**
 * The devnet's clock. The chain's time runs from `chainAt` (chain milliseconds, UNIX-like) as of
 * `wallAt` (wall-clock milliseconds), one block per `blockIntervalMs` of wall time, or stands still
 * while `paused`. Blocks and slots stay where the genesis puts them (a block every
 * genesis.blockIntervalMs of chain time): steering moves the chain's time, never a block's slot.
 */
export const devnetClockSchema = z
  .object({
    wallAt: z.number().int(),
    chainAt: z.number().int(),
    blockIntervalMs: whole(100, 3_600_000),
    paused: z.boolean(),
  })
  .strict();

/** Blocks above `height` are on branch `n`: a rollback forks the chain, so what grows after it differs from the abandoned blocks. */
export const devnetForkSchema = z.object({ height: z.number().int().min(-1), n: z.number().int().min(1) }).strict();

/** Everything that rebuilds a devnet's chain (with its ledger entries in the store): JSON, kept by the platform. */
export const devnetStateSchema = z
  .object({
    version: z.literal(1),
    genesis: devnetGenesisSchema,
    /** Every simulated value derives from it. */
    seed: z.string().min(1).max(200),
    /** When the devnet was created, wall-clock milliseconds. */
    createdAt: z.number().int(),
    /** Block 0's time and the genesis' system start (slot 0), milliseconds. */
    genesisTime: z.number().int(),
    clock: devnetClockSchema,
    /** The forks the chain is on, ascending in height and branch. */
    forks: z.array(devnetForkSchema).max(10_000),
    /** Branches made so far (the next fork is branch branches + 1). */
    branches: z.number().int().min(0),
  })
  .strict();

export type DevnetState = z.output<typeof devnetStateSchema>;

export const devnetLedgerEntrySchema = z
  .object({
    seq: z.number().int().min(1),
    height: z.number().int().min(0),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    cbor: z.string().regex(/^(?:[0-9a-f]{2})+$/),
    origin: z.enum(['genesis', 'faucet', 'submit']),
  })
  .strict();

/** A devnet as of a moment: its state and its accepted transactions, what restore() brings back. */
export const devnetSnapshotSchema = z
  .object({
    state: devnetStateSchema,
    /** The chain's tip when it was taken. */
    tip: z.number().int().min(0),
    entries: z.array(devnetLedgerEntrySchema),
  })
  .strict();

export type DevnetSnapshot = z.output<typeof devnetSnapshotSchema>;

/** How a devnet's time travels forward: by slots, or to the first block of the next epoch. */
export const devnetAdvanceSchema = z.union([
  z.object({ slots: whole(1, 100_000_000) }).strict(),
  z.object({ toNextEpoch: z.literal(true) }).strict(),
]);
export type DevnetAdvance = z.output<typeof devnetAdvanceSchema>;

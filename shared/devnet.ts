// A devnet: a private Cardano development chain of one project, steered by its owner (produce blocks,
// pause, roll back, travel in time, fund addresses, snapshot and restore). The schemas shared by the
// chain (server/sandbox/chain/devnet.ts), its HTTP API and the dashboard: the genesis a devnet is
// created with (every field optional, defaults filled in) and the state that rebuilds it.
import { z } from 'zod';
import { parseShelleyAddress, parseStakeAddress, stakeAddressOf } from './cardano/address';
import { fromHex } from './cardano/bech32';
import { poolBech32 } from './cardano/fingerprint';

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
/** committee_max_term_length when a genesis does not set it (the chain's default protocol parameters'). */
export const DEFAULT_COMMITTEE_MAX_TERM_LENGTH = 146;
/** Lovelace one genesis output holds at most (45 billion ada, the maximum supply). */
const MAX_LOVELACE = 45_000_000_000_000_000n;
/** A genesis pool's pledge and fixed cost at most: 9 billion ada. */
const MAX_POOL_LOVELACE = 9_000_000_000_000_000n;

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
/** A lovelace amount as text (the API's form: lovelace do not fit a JSON number), or a number. */
const lovelaceText = z
  .union([z.string().regex(/^\d{1,17}$/, 'a whole number of lovelace'), z.number().int().nonnegative()])
  .transform((v) => String(v));

/** How many parameters each Plutus version's cost model has (the lists of cost_models_raw). */
export const PLUTUS_COST_MODEL_LENGTHS = { PlutusV1: 166, PlutusV2: 175, PlutusV3: 297 } as const;
export type PlutusLanguageName = keyof typeof PLUTUS_COST_MODEL_LENGTHS;

/**
 * One language's cost model as /epochs/latest/parameters carries it: the list of cost_models_raw, or
 * the object of cost_models (its values in order: by position when the keys are positions, else in
 * the order given, as Blockfrost lists the parameters' names).
 */
const costModelSchema = (language: PlutusLanguageName) => {
  const length = PLUTUS_COST_MODEL_LENGTHS[language];
  const message = `${length} whole numbers of at most 2^53 either way (the list cost_models_raw.${language} gives, or the object cost_models.${language})`;
  const cost = z.number({ error: message }).int(message).min(-Number.MAX_SAFE_INTEGER, message).max(Number.MAX_SAFE_INTEGER, message);
  return z
    .union([z.array(cost), z.record(z.string(), cost)], { error: message })
    .transform((v) => {
      if (Array.isArray(v)) return v;
      const entries = Object.entries(v);
      return entries.every(([k]) => /^\d+$/.test(k)) ? entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, n]) => n) : entries.map(([, n]) => n);
    })
    .refine((list) => list.length === length, message);
};

/** A price per execution unit, as /epochs/{n}/parameters gives it (0.0577): a decimal of at most 12 fractional digits. */
const priceSchema = (name: string, max: number) => {
  const message = `${name} must be a decimal number from 0 to ${max} with at most 12 digits after the point (as /epochs/{n}/parameters gives it, e.g. 0.0577)`;
  return z
    .union([z.number({ error: message }).finite(message), z.string({ error: message })], { error: message })
    .transform((v) => (typeof v === 'number' ? (/e/i.test(String(v)) ? v.toFixed(20).replace(/0+$/, '') : String(v)) : v.trim()))
    .refine((t) => /^\d{1,4}(?:\.\d{0,12})?$/.test(t) && Number(t) <= max, message);
};

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
    /** Lovelace per memory unit of a script's execution units. */
    price_mem: priceSchema('price_mem', 1_000),
    /** Lovelace per CPU step of a script's execution units. */
    price_step: priceSchema('price_step', 1),
    /** The Plutus cost models: each language given replaces the default one. */
    cost_models: z
      .object({ PlutusV1: costModelSchema('PlutusV1'), PlutusV2: costModelSchema('PlutusV2'), PlutusV3: costModelSchema('PlutusV3') })
      .partial()
      .strict(),
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

const hex56 = z.string().regex(/^[0-9a-fA-F]{56}$/, '28 bytes in hex (56 characters)').transform((v) => v.toLowerCase());

const THRESHOLD_MESSAGE = 'a share above 0 and at most 1: { numerator, denominator } (whole numbers up to 1,000,000) or a decimal with at most 6 digits after the point';

/** The constitutional committee of a genesis: its members' cold credentials, their terms, and the share of yes votes it takes. */
export const devnetCommitteeSchema = z
  .object({
    members: z
      .array(
        z
          .object({
            /** The member's cold credential: a key hash (or a script hash), whose holder authorizes hot keys and resigns. */
            coldCredential: hex56,
            script: z.boolean().default(false),
            /** The last epoch the member serves in: from 1 (the chain starts in epoch 0) to committee_max_term_length. */
            expiryEpoch: z.number({ error: 'an epoch from 1 to committee_max_term_length' }).int('an epoch from 1 to committee_max_term_length').min(1, 'an epoch after the genesis epoch 0 (1 or later): a term that has ended by epoch 1 is in the past').max(1_000_000),
          })
          .strict(),
      )
      .min(1, 'at least one member')
      .max(32, 'at most 32 members'),
    /** The committee's quorum: the share of yes votes among its active members a proposal needs, as a fraction or a decimal above 0, at most 1. */
    threshold: z
      .union(
        [
          z
            .object({ numerator: z.number(), denominator: z.number() }, { error: THRESHOLD_MESSAGE })
            .strict()
            .refine((t) => [t.numerator, t.denominator].every((n) => Number.isSafeInteger(n) && n >= 1 && n <= 1_000_000) && t.numerator <= t.denominator, THRESHOLD_MESSAGE),
          z
            .number()
            .refine((n) => n > 0 && n <= 1 && /^\d(?:\.\d{1,6})?$/.test(String(n)), THRESHOLD_MESSAGE)
            .transform((n) => ({ numerator: Math.round(n * 1_000_000), denominator: 1_000_000 })),
        ],
        { error: THRESHOLD_MESSAGE },
      )
      .default({ numerator: 2, denominator: 3 }),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (new Set(c.members.map((m) => m.coldCredential)).size !== c.members.length) ctx.addIssue({ code: 'custom', path: ['members'], message: 'each cold credential once' });
  });

/** A stake pool of a genesis: registered from block 0, with the stake its delegators (initialDelegations and later ones) control. */
export const devnetInitialPoolSchema = z
  .object({
    /** The pool's cold key hash: its id (pool1…). Whoever holds the key votes as the pool. A key derived from the devnet's seed when absent. */
    poolKeyHash: hex56.optional(),
    /** The hash of the pool's VRF key; derived from the seed when absent. */
    vrfKeyHash: z.string().regex(/^[0-9a-fA-F]{64}$/, '32 bytes in hex (64 characters)').transform((v) => v.toLowerCase()).optional(),
    pledge: lovelaceText.refine((v) => BigInt(v) <= MAX_POOL_LOVELACE, 'at most 9 billion ada'),
    /** The pool's fixed cost per epoch, lovelace. */
    cost: lovelaceText.refine((v) => BigInt(v) <= MAX_POOL_LOVELACE, 'at most 9 billion ada'),
    /** The pool's margin: a share from 0 to 1. */
    margin: z.number().min(0).max(1),
    /** The stake address its rewards go to (stake_test1…); the pool's own, derived from the seed, when absent. */
    rewardAccount: z
      .string()
      .max(200)
      .refine((a) => parseStakeAddress(a)?.mainnet === false, 'a testnet stake address (stake_test1…)')
      .optional(),
    ticker: z.string().regex(/^[A-Za-z0-9]{3,5}$/, '3 to 5 letters or digits').optional(),
    name: z.string().trim().min(1).max(50).optional(),
  })
  .strict();

/** A delegation the genesis makes: an initial fund's stake credential to one of the genesis' pools, its vote to a DRep, or both. */
export const devnetInitialDelegationSchema = z
  .object({
    /** The stake address of a base address of initialFunds (stake_test1…). */
    stakeAddress: z
      .string()
      .max(200)
      .refine((a) => parseStakeAddress(a)?.mainnet === false, 'a testnet stake address (stake_test1…)'),
    /** The pool: its place in initialPools (0 first), or its id (pool1…) when it names its poolKeyHash. */
    pool: z.union([whole(0, 99), z.string().regex(/^pool1[02-9ac-hj-np-z]{20,100}$/, 'a pool id (pool1…)')], { error: 'the place of a pool in initialPools (0 first) or its id (pool1…)' }).optional(),
    /** Its vote: the credential of one of initialDReps, or 'abstain' or 'no_confidence'. */
    drep: z.union([hex56, z.enum(['abstain', 'no_confidence'])], { error: "the credential of one of initialDReps (28 bytes in hex), 'abstain' or 'no_confidence'" }).optional(),
  })
  .strict()
  .refine((d) => d.pool !== undefined || d.drep !== undefined, { message: 'a pool, a drep or both', path: ['pool'] });

/** The id (pool1…) of a pool's cold key hash. */
export const poolIdOfKeyHash = (hex: string): string => poolBech32(fromHex(hex, 28)!);

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
    /** The constitutional committee, in place of the sandbox's own seven members (whose keys nobody holds). */
    committee: devnetCommitteeSchema.optional(),
    /** Stake pools registered from block 0, after the sandbox's own. */
    initialPools: z.array(devnetInitialPoolSchema).max(16).default([]),
    /** Stake keys of initial funds that the genesis transaction registers and delegates to those pools. */
    initialDelegations: z.array(devnetInitialDelegationSchema).max(100).default([]),
  })
  .strict()
  .superRefine((g, ctx) => {
    if (new Set(g.initialDReps.map((d) => d.credential)).size !== g.initialDReps.length) ctx.addIssue({ code: 'custom', path: ['initialDReps'], message: 'each credential once' });
    const maxTerm = g.protocolParams.committee_max_term_length ?? DEFAULT_COMMITTEE_MAX_TERM_LENGTH;
    g.committee?.members.forEach((m, i) => {
      if (m.expiryEpoch > maxTerm) ctx.addIssue({ code: 'custom', path: ['committee', 'members', i, 'expiryEpoch'], message: `at most committee_max_term_length (${maxTerm}) epochs after the genesis` });
    });
    const poolKeys = g.initialPools.flatMap((p) => (p.poolKeyHash ? [p.poolKeyHash] : []));
    if (new Set(poolKeys).size !== poolKeys.length) ctx.addIssue({ code: 'custom', path: ['initialPools'], message: 'each poolKeyHash once' });
    const funded = new Set(g.initialFunds.map((f) => stakeAddressOf(f.address)).filter((a) => a !== null));
    const delegated = new Set<string>();
    g.initialDelegations.forEach((d, i) => {
      if (delegated.has(d.stakeAddress)) ctx.addIssue({ code: 'custom', path: ['initialDelegations', i, 'stakeAddress'], message: 'each stake address once' });
      delegated.add(d.stakeAddress);
      if (!funded.has(d.stakeAddress)) ctx.addIssue({ code: 'custom', path: ['initialDelegations', i, 'stakeAddress'], message: 'the stake address of a base address of initialFunds' });
      if (d.drep !== undefined && d.drep !== 'abstain' && d.drep !== 'no_confidence' && !g.initialDReps.some((r) => r.credential === d.drep)) ctx.addIssue({ code: 'custom', path: ['initialDelegations', i, 'drep'], message: "the credential of one of initialDReps, 'abstain' or 'no_confidence'" });
      if (d.pool !== undefined && genesisPoolIndex(g.initialPools, d.pool) === null) ctx.addIssue({ code: 'custom', path: ['initialDelegations', i, 'pool'], message: `a pool of initialPools: its place (0 to ${Math.max(0, g.initialPools.length - 1)}) or the id of its poolKeyHash` });
    });
    if (g.blockIntervalMs % g.slotLengthMs !== 0) ctx.addIssue({ code: 'custom', path: ['blockIntervalMs'], message: 'a multiple of slotLengthMs' });
    else if (g.epochLength % (g.blockIntervalMs / g.slotLengthMs) !== 0) ctx.addIssue({ code: 'custom', path: ['epochLength'], message: 'a multiple of the slots between blocks (blockIntervalMs / slotLengthMs)' });
    else if (g.epochLength / (g.blockIntervalMs / g.slotLengthMs) < 4) ctx.addIssue({ code: 'custom', path: ['epochLength'], message: 'at least 4 blocks an epoch' });
  });

/** The place in a genesis' pools of a delegation's pool (its place, or the id of its poolKeyHash); null when none is. */
export function genesisPoolIndex(pools: ReadonlyArray<{ poolKeyHash?: string | undefined }>, ref: number | string): number | null {
  if (typeof ref === 'number') return ref < pools.length ? ref : null;
  const i = pools.findIndex((p) => p.poolKeyHash !== undefined && poolIdOfKeyHash(p.poolKeyHash) === ref);
  return i < 0 ? null : i;
}

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

import { z } from 'zod';
import { DEVNET_MAX_PRODUCE, devnetGenesisSchema } from './devnet';

// Devnets: a cardano-devnet project's own development chain, steered under /cairn/v1/devnet on the
// gateway (the project's key) and from the project page (/api/projects/{uuid}/devnet…). The request
// schemas here are the API's and the dashboard forms' alike, so both say the same messages.

/** Blocks one call may produce at once. */
export const MAX_PRODUCE_BLOCKS = DEVNET_MAX_PRODUCE;
/** Blocks a rollback may take back at once. */
export const MAX_ROLLBACK_BLOCKS = 2_160;
/** Slots one time-travel call may skip (ten 600-slot epochs of 1 s slots is 6,000). */
export const MAX_ADVANCE_SLOTS = 1_000_000;
/** Snapshots a devnet keeps at most. */
export const MAX_DEVNET_SNAPSHOTS = 20;

export const DEVNET_MESSAGES = {
  count: `count must be a whole number of blocks from 1 to ${MAX_PRODUCE_BLOCKS.toLocaleString('en-US')}.`,
  interval: 'ms must be a whole number of milliseconds from 100 to 600,000, a multiple of 100.',
  blocks: `blocks must be a whole number from 1 to ${MAX_ROLLBACK_BLOCKS.toLocaleString('en-US')}.`,
  txs: "txs must be 'mempool' (the rolled-back transactions go into the new branch) or 'drop'.",
  time: `Send {"slots": n} (1 to ${MAX_ADVANCE_SLOTS.toLocaleString('en-US')}) or {"to": "next-epoch"}.`,
  snapshotName: 'A snapshot name is 1 to 64 letters, digits, dots, dashes or underscores.',
  address: 'address must be a Cardano testnet address (addr_test1…).',
  lovelace: 'lovelace must be a whole number from 1,000,000 (1 ada) to 100,000,000,000 (100,000 ada).',
  assetName: 'An asset name is 0 to 32 bytes in hexadecimal.',
  assetQuantity: 'An asset quantity is a whole number from 1 to 10^15.',
} as const;

/**
 * The project page's label of each field of the steering calls: the API's messages name the field
 * as the API does ("count must be…"), the card as its form does ("Blocks to produce now must be…").
 */
export const DEVNET_FIELD_LABELS = {
  count: 'Blocks to produce now',
  slots: 'Slots to skip forward',
  blocks: 'Blocks to roll back',
  txs: 'Their transactions',
  ms: 'Block interval (ms)',
  address: 'Address to fund',
  lovelace: 'Amount (lovelace)',
  name: 'Snapshot name',
  slotLengthMs: 'Slot length (ms)',
  epochLength: 'Epoch length (slots)',
  blockIntervalMs: 'Genesis block interval (ms)',
  securityParam: 'Security parameter k',
  assetName: 'Token name (hex)',
  tokens: 'Tokens',
  more: 'More of the genesis (JSON)',
} as const;

/** The API field a steering call's message starts with ('blocks must be…', 'genesis.slotLengthMs: …'), as its path; undefined when it names none. */
export function devnetFieldOf(message: string): string | undefined {
  return /^([A-Za-z][\w.]*)(?=(?: must |: ))/.exec(message)?.[1];
}

const labelOf = (field: string): string | undefined => (Object.hasOwn(DEVNET_FIELD_LABELS, field) ? DEVNET_FIELD_LABELS[field as keyof typeof DEVNET_FIELD_LABELS] : undefined);

/**
 * A steering call's message as the project page shows it: the API field it starts with (a path such as
 * `genesis.slotLengthMs: …` too) and the genesis fields it names (`a multiple of slotLengthMs`) in
 * their labels. Any other text is left as it is.
 */
export function withDevnetFieldLabels(message: string): string {
  const lead = devnetFieldOf(message);
  const field = lead?.split('.').at(-1);
  const label = field ? labelOf(field) : undefined;
  const led = label ? `${label}${message.slice(lead!.length)}` : message;
  // The genesis' names are one camel-case word each; prose words ('blocks', 'count') are never replaced inside the text.
  return led.replace(/\b[a-z]+[A-Z]\w*\b/g, (name) => labelOf(name) ?? name);
}

const wholeNumber = (message: string, min: number, max: number) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/** POST /cairn/v1/devnet/blocks: this many blocks now. */
export const produceBlocksSchema = z.object({ count: wholeNumber(DEVNET_MESSAGES.count, 1, MAX_PRODUCE_BLOCKS) }).strict();

/** PUT /cairn/v1/devnet/interval: a block every `ms` from the tip on. */
export const blockIntervalSchema = z
  .object({ ms: wholeNumber(DEVNET_MESSAGES.interval, 100, 600_000).refine((n) => n % 100 === 0, DEVNET_MESSAGES.interval) })
  .strict();

export const rollbackTxsModes = ['mempool', 'drop'] as const;
/** POST /cairn/v1/devnet/rollback: the tip goes back `blocks`; their transactions go back to the mempool or are dropped. */
export const rollbackSchema = z
  .object({
    blocks: wholeNumber(DEVNET_MESSAGES.blocks, 1, MAX_ROLLBACK_BLOCKS),
    txs: z.enum(rollbackTxsModes, { error: DEVNET_MESSAGES.txs }).default('mempool'),
  })
  .strict();

/** POST /cairn/v1/devnet/time: forward by a number of slots, or to the next epoch's first slot. */
export const advanceTimeSchema = z.union(
  [
    z.object({ slots: wholeNumber(DEVNET_MESSAGES.time, 1, MAX_ADVANCE_SLOTS) }).strict(),
    z.object({ to: z.literal('next-epoch', { error: DEVNET_MESSAGES.time }) }).strict(),
  ],
  { error: DEVNET_MESSAGES.time },
);
export type AdvanceTime = z.output<typeof advanceTimeSchema>;

export const SNAPSHOT_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const snapshotNameSchema = z.string({ error: DEVNET_MESSAGES.snapshotName }).regex(SNAPSHOT_NAME_PATTERN, DEVNET_MESSAGES.snapshotName);
/** POST /cairn/v1/devnet/snapshots. */
export const snapshotSchema = z.object({ name: snapshotNameSchema }).strict();

/** A testnet address's shape (the chain checks it fully: a 400 with its reason when it is not one). */
const testnetAddress = z
  .string({ error: DEVNET_MESSAGES.address })
  .trim()
  .regex(/^addr_test1[02-9ac-hj-np-z]{20,200}$/, DEVNET_MESSAGES.address);

const lovelace = z
  .union([z.string().regex(/^\d{1,12}$/, DEVNET_MESSAGES.lovelace), z.number().int(DEVNET_MESSAGES.lovelace).nonnegative(DEVNET_MESSAGES.lovelace)], { error: DEVNET_MESSAGES.lovelace })
  .transform((v) => BigInt(v))
  .refine((v) => v >= 1_000_000n && v <= 100_000_000_000n, DEVNET_MESSAGES.lovelace);

/** POST /cairn/v1/devnet/fund: ada, and native tokens minted under the devnet's policy, in the next block. */
export const fundSchema = z
  .object({
    address: testnetAddress,
    lovelace,
    assets: z
      .array(
        z
          .object({
            assetName: z.string({ error: DEVNET_MESSAGES.assetName }).regex(/^(?:[0-9a-fA-F]{2}){0,32}$/, DEVNET_MESSAGES.assetName),
            quantity: z
              .union([z.string().regex(/^\d{1,16}$/, DEVNET_MESSAGES.assetQuantity), z.number().int(DEVNET_MESSAGES.assetQuantity)], { error: DEVNET_MESSAGES.assetQuantity })
              .transform((v) => BigInt(v))
              .refine((v) => v >= 1n && v <= 1_000_000_000_000_000n, DEVNET_MESSAGES.assetQuantity),
          })
          .strict(),
      )
      .max(5, 'At most 5 assets a call.')
      .optional(),
  })
  .strict();
export type FundRequest = z.output<typeof fundSchema>;

/** The dashboard's fund form: ada and, when Tokens is filled, one native token minted under the devnet's policy (the API takes up to five). */
export const fundFormSchema = fundSchema
  .omit({ assets: true })
  .extend({ assetName: z.string(), tokens: z.string() })
  .superRefine((v, ctx) => {
    if (v.tokens.trim() === '') return;
    const asset = fundSchema.shape.assets.unwrap().element.safeParse({ assetName: v.assetName.trim(), quantity: v.tokens.trim() });
    if (asset.success) return;
    for (const issue of asset.error.issues) ctx.addIssue({ code: 'custom', path: [issue.path[0] === 'assetName' ? 'assetName' : 'tokens'], message: issue.message });
  });

/** A devnet's genesis: the chain's own schema (every field optional, defaults filled in). */
export { devnetGenesisSchema, DEVNET_DEFAULTS, DEVNET_NETWORK_MAGIC } from './devnet';
export type { DevnetGenesisInput, DevnetGenesis as DevnetGenesisSettings } from './devnet';

/** POST /cairn/v1/devnet: a new chain from this genesis (all of it optional). */
export const createDevnetSchema = z.object({ genesis: devnetGenesisSchema.default(devnetGenesisSchema.parse({})) }).strict();

/** The genesis fields the dashboard's form has inputs for; the rest of a genesis goes in its JSON. */
export const GENESIS_FORM_FIELDS = ['slotLengthMs', 'epochLength', 'blockIntervalMs', 'securityParam'] as const;
const GENESIS_JSON_MESSAGE = 'More of the genesis must be a JSON object, such as {"initialFunds": [{"address": "addr_test1…", "lovelace": "5000000000"}]}, or empty.';

/** The rest of a genesis from the dashboard form's JSON: an object ({} when empty), or null when it is not one. */
export function genesisMoreOf(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The dashboard's genesis form: its fields, and the rest of a genesis as JSON (protocol parameters and
 * cost models, initial funds, DReps, committee, pools, delegations), checked together by the API's
 * schema; a problem in the JSON part is reported on it with its path.
 */
export const genesisFormSchema = z
  .object({ genesis: z.record(z.string(), z.unknown()), more: z.string() })
  .superRefine((v, ctx) => {
    const more = genesisMoreOf(v.more);
    if (!more) return void ctx.addIssue({ code: 'custom', path: ['more'], message: GENESIS_JSON_MESSAGE });
    const parsed = createDevnetSchema.safeParse({ genesis: { ...more, ...v.genesis } });
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const [, field, ...rest] = issue.path.map(String);
      if (field && rest.length === 0 && (GENESIS_FORM_FIELDS as readonly string[]).includes(field)) ctx.addIssue({ code: 'custom', path: ['genesis', field], message: issue.message });
      else ctx.addIssue({ code: 'custom', path: ['more'], message: `${issue.path.slice(1).join('.')}: ${issue.message}` });
    }
  });

/** The chain's tip as the steering calls answer it (times in UNIX seconds, as Blockfrost gives them). */
export interface DevnetTipDto {
  height: number;
  hash: string;
  slot: number;
  epoch: number;
  time: number;
}

export interface DevnetSnapshotDto {
  name: string;
  /** UNIX seconds. */
  created_at: number;
  /** The tip the snapshot brings the chain back to. */
  height: number;
}

/** GET /cairn/v1/devnet and GET /api/projects/{uuid}/devnet. */
export interface DevnetStateDto {
  tip: DevnetTipDto;
  paused: boolean;
  /** Milliseconds between blocks from the tip on. */
  block_interval_ms: number;
  slot_length_ms: number;
  epoch_length: number;
  network_magic: number;
  /** UNIX seconds when the chain (its genesis) began. */
  system_start: number;
  snapshots: DevnetSnapshotDto[];
}

/** The steering actions the dashboard offers, each one call. */
export const devnetActions = ['blocks', 'pause', 'resume', 'interval', 'rollback', 'time', 'snapshot', 'restore', 'delete-snapshot', 'reset', 'fund', 'create'] as const;
export type DevnetAction = (typeof devnetActions)[number];

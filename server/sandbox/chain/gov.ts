// Conway governance of the sandbox chain: DReps, the constitutional committee, proposals and votes.
//
// Two layers, as for the rest of the chain. The world's governance is a function of the chain key
// and the clock: 32 DRep seats whose holders register, update their anchors, vote and retire in
// cycles of hundreds of epochs; a seven-member committee whose terms renew every
// committee_max_term_length epochs with a new hot key each; up to two proposals an epoch, voted on
// by the DReps, the pools and the committee in the two epochs that follow, then ratified and
// enacted, dropped (a competing action of the same purpose was enacted first) or expired. Nothing
// is stored: any epoch's proposals and any voter's votes are computed on demand and memoised.
// The live layer is what submitted transactions carry (ledger.ts decodes and checks them): DRep
// certificates, vote delegations, votes and proposals, merged with the world's by block height.
//
// This is the model the chain shares: the ledger's validation of submitted governance (`check`), the
// accounts' DRep (`drepOfStake`) and the /governance answers (resources/governance/queries.ts, which
// shapes them for Blockfrost) all read it.
import { blake2b } from '@noble/hashes/blake2.js';
import { decodeBech32, encodeBech32 } from '../../../shared/cardano/bech32';
import type { Protocol } from './protocol';
import { Rng, derive, deriveFloat, mixWord, unitOf } from './rng';
import type { DrepTarget, GovActionType, LiveTx, VoteValue, VoterRole } from './ledger';

export type { GovActionType, VoteValue, VoterRole };

export interface Anchor {
  url: string;
  hash: string;
}

/** Off-chain content the sandbox serves for an anchor it made (world DReps and proposals). */
interface AnchorContent extends Anchor {
  json: unknown;
  bytes: string;
}

export interface GovContext {
  key: Uint8Array;
  /** The chain's parameters: deposits, the lifetime of actions, DRep activity, committee terms. */
  protocol: Readonly<Protocol>;
  blocksPerEpoch: number;
  tip: () => number;
  /** Visible live transactions in chain order. */
  live: () => LiveTx[];
  /** A live transaction's index in its block. */
  liveIndex: (t: LiveTx) => number;
  /** The chain's pools; a genesis' (owner -1) votes only with what its key holder submits. */
  pools: ReadonlyArray<{ id: string; hex: string; owner?: number }>;
  /** The world's stake addresses (background accounts). */
  stakeAddresses: readonly string[];
  /** Lovelace controlled by each stake address as of the tip (the accounts' controlled_amount). */
  stakes: () => Map<string, bigint>;
  /** UNIX seconds of a block. */
  timeOf: (height: number) => number;
  /**
   * A devnet's own constitutional committee (its genesis'), in place of the world's seven members:
   * its members authorize hot keys and resign with submitted certificates, vote with those keys, and
   * the chain ratifies submitted proposals against its quorum.
   */
  committee?: GenesisCommittee | null;
}

/** A committee a genesis sets: its members' cold credentials and last epochs, and its quorum (a share of yes votes). */
export interface GenesisCommittee {
  members: ReadonlyArray<{ coldHex: string; script: boolean; expiryEpoch: number }>;
  quorum: { numerator: number; denominator: number };
}

export interface Proposal {
  txHash: string;
  index: number;
  height: number;
  order: number;
  type: GovActionType;
  deposit: bigint;
  returnAddress: string;
  anchor: Anchor | null;
  /** The off-chain document the sandbox serves for the anchor (world proposals), made on demand. */
  content: (() => AnchorContent) | null;
  description: unknown;
  parameters: Record<string, unknown> | null;
  withdrawals: Array<{ stakeAddress: string; amount: bigint }>;
  world: boolean;
}

export interface Vote {
  txHash: string;
  certIndex: number;
  height: number;
  order: number;
  role: VoterRole;
  voterHex: string;
  /** The voter's CIP-129 / bech32 id (drep1…, pool1…, cc_hot1…). */
  voter: string;
  proposal: Proposal;
  vote: VoteValue;
  anchor: Anchor | null;
}

export interface DrepEvent {
  txHash: string;
  certIndex: number;
  height: number;
  order: number;
  action: 'registered' | 'updated' | 'deregistered';
  deposit: bigint | null;
  /** Live anchors as submitted; world anchors come from `content`. */
  anchor: Anchor | null;
  content: (() => AnchorContent) | null;
}

export interface Drep {
  hex: string;
  script: boolean;
  id: string;
  /** Every certificate of this credential up to the tip, in chain order. */
  events: DrepEvent[];
  /** The world seat and cycle, for the world's DReps. */
  seat: { slot: number; cycle: number } | null;
}

export interface ProposalStatus {
  ratified: number | null;
  enacted: number | null;
  dropped: number | null;
  expired: number | null;
  expiration: number;
}

export interface CommitteeMember {
  index: number;
  coldHex: string;
  hotHex: string | null;
  status: 'authorized' | 'not_authorized' | 'resigned';
  expiration: number;
}

// ---- ids (CIP-129, and CIP-105 for DReps as Blockfrost shows them) ----

const fromHexBytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, 'hex'));
const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export const DREP_ALWAYS_ABSTAIN = 'drep_always_abstain';
export const DREP_ALWAYS_NO_CONFIDENCE = 'drep_always_no_confidence';

export function drepId(hex: string, script: boolean): string {
  return encodeBech32(script ? 'drep_script' : 'drep', fromHexBytes(hex));
}
/** Hot keys' CIP-129 ids, a pure function of the key kept for the few keys a chain's committee holds (each of its votes names one). */
const hotIds = new Map<string, string>();
export function ccHotId(hex: string): string {
  let id = hotIds.get(hex);
  if (id === undefined) {
    id = encodeBech32('cc_hot', new Uint8Array([0x02, ...fromHexBytes(hex)]));
    hotIds.set(hex, id);
    if (hotIds.size > 4096) hotIds.delete(hotIds.keys().next().value!);
  }
  return id;
}
export function ccColdId(hex: string): string {
  return encodeBech32('cc_cold', new Uint8Array([0x12, ...fromHexBytes(hex)]));
}
export function govActionId(txHash: string, index: number): string {
  return encodeBech32('gov_action', new Uint8Array([...fromHexBytes(txHash), index]));
}
/** DRep ids of delegation targets, kept: every stake address's target is named again at every block. */
const targetIds = new Map<string, string>();
const targetId = (t: DrepTarget): string => {
  if (t === 'abstain') return DREP_ALWAYS_ABSTAIN;
  if (t === 'no_confidence') return DREP_ALWAYS_NO_CONFIDENCE;
  const k = `${t.script ? 's' : 'k'}${t.hex}`;
  let id = targetIds.get(k);
  if (id === undefined) {
    targetIds.set(k, (id = drepId(t.hex, t.script)));
    if (targetIds.size > 4096) targetIds.delete(targetIds.keys().next().value!);
  }
  return id;
};

/** A DRep id as Blockfrost accepts it: CIP-105 (drep1, drep_vkh1, drep_script1) or CIP-129 bech32, or hex; null when malformed. */
export function parseDrepId(text: string): { hex: string; script: boolean | null } | 'abstain' | 'no_confidence' | null {
  if (text === DREP_ALWAYS_ABSTAIN) return 'abstain';
  if (text === DREP_ALWAYS_NO_CONFIDENCE) return 'no_confidence';
  if (/^[0-9a-fA-F]{56}$/.test(text)) return { hex: text.toLowerCase(), script: null };
  if (/^(22|23)[0-9a-fA-F]{56}$/.test(text)) return { hex: text.slice(2).toLowerCase(), script: text.startsWith('23') };
  const b = decodeBech32(text);
  if (!b) return null;
  if (b.prefix === 'drep_script' && b.bytes.length === 28) return { hex: hexOf(b.bytes), script: true };
  if (b.prefix === 'drep_vkh' && b.bytes.length === 28) return { hex: hexOf(b.bytes), script: false };
  if (b.prefix !== 'drep') return null;
  if (b.bytes.length === 28) return { hex: hexOf(b.bytes), script: false };
  if (b.bytes.length === 29 && (b.bytes[0] === 0x22 || b.bytes[0] === 0x23)) return { hex: hexOf(b.bytes.subarray(1)), script: b.bytes[0] === 0x23 };
  return null;
}

/** A committee credential as Blockfrost takes it: CIP-129 cc_hot1… or cc_cold1… (a header byte and the 28-byte hash); null when malformed. */
export function parseCcId(text: string): { kind: 'hot' | 'cold'; hex: string } | null {
  const b = decodeBech32(text);
  if (!b || (b.prefix !== 'cc_hot' && b.prefix !== 'cc_cold')) return null;
  const kind = b.prefix === 'cc_hot' ? 'hot' : 'cold';
  const header = kind === 'hot' ? [0x02, 0x03] : [0x12, 0x13];
  if (b.bytes.length === 29 && header.includes(b.bytes[0]!)) return { kind, hex: hexOf(b.bytes.subarray(1)) };
  return null;
}

/** A CIP-129 governance action id: the proposal's transaction hash and index; null when malformed. */
export function parseGovActionId(text: string): { txHash: string; index: number } | null {
  const b = decodeBech32(text);
  if (!b || b.prefix !== 'gov_action' || b.bytes.length !== 33) return null;
  return { txHash: hexOf(b.bytes.subarray(0, 32)), index: b.bytes[32]! };
}

// ---- rules ----

/** Which actions each kind of voter may vote on (Conway: the committee never on committee changes; pools on a few). */
const SECURITY_PARAMETERS = new Set(['max_block_size', 'max_tx_size', 'max_block_header_size', 'max_val_size', 'max_block_ex_mem', 'max_block_ex_steps', 'min_fee_a', 'min_fee_b', 'coins_per_utxo_size', 'gov_action_deposit', 'min_fee_ref_script_cost_per_byte']);
export function mayVote(role: VoterRole, p: Pick<Proposal, 'type' | 'parameters'>): boolean {
  if (role === 'drep') return true;
  if (role === 'constitutional_committee') return p.type !== 'no_confidence' && p.type !== 'new_committee';
  if (p.type === 'parameter_change') return Object.keys(p.parameters ?? {}).some((k) => SECURITY_PARAMETERS.has(k));
  return p.type === 'info_action' || p.type === 'hard_fork_initiation' || p.type === 'no_confidence' || p.type === 'new_committee';
}

/** DRep thresholds of /epochs/{n}/parameters (dvt_*), by action. */
const DREP_THRESHOLD: Record<GovActionType, number> = {
  parameter_change: 0.67, treasury_withdrawals: 0.67, hard_fork_initiation: 0.6, no_confidence: 0.67, new_committee: 0.67, new_constitution: 0.75, info_action: 2,
};
const POOL_THRESHOLD = 0.51;
export const COMMITTEE_QUORUM = { numerator: 2, denominator: 3 };
/** Actions that compete: enacting one drops the pending others of the same purpose. */
const PURPOSE: Partial<Record<GovActionType, string>> = {
  parameter_change: 'parameters', hard_fork_initiation: 'hard_fork', no_confidence: 'committee', new_committee: 'committee', new_constitution: 'constitution',
};

const DREP_SEATS = 32;
export const COMMITTEE_SIZE = 7;
/** At most two world proposals an epoch. */
export const PROPOSALS_PER_EPOCH = 2;
/** Votes cast in an epoch are on proposals of it and the three epochs before. */
export const VOTED_EPOCHS = 4;
/** One voter's world votes cast in an epoch at most: on the proposals of it and the three before, each voted on at most twice. */
export const VOTES_PER_EPOCH = VOTED_EPOCHS * PROPOSALS_PER_EPOCH * 2;
const PARAMETER_MENU: Array<[string, (f: number) => unknown]> = [
  ['max_tx_size', (f) => 16384 + 1024 * (1 + Math.floor(f * 4))],
  ['max_block_ex_mem', (f) => String(62_000_000 + 2_000_000 * (1 + Math.floor(f * 5)))],
  ['min_fee_ref_script_cost_per_byte', (f) => 10 + Math.floor(f * 10)],
  ['drep_activity', (f) => String(15 + Math.floor(f * 20))],
  ['committee_min_size', (f) => String(5 + Math.floor(f * 4))],
  ['key_deposit', (f) => String(1_000_000 * (1 + Math.floor(f * 4)))],
  ['n_opt', (f) => 400 + 50 * Math.floor(f * 6)],
  ['gov_action_lifetime', (f) => String(5 + Math.floor(f * 5))],
];
const NAMES = ['Ada', 'Basalt', 'Cairn', 'Dolmen', 'Esker', 'Flint', 'Gneiss', 'Horst', 'Inlier', 'Jasper', 'Karst', 'Loess', 'Moraine', 'Nunatak', 'Obsidian', 'Pumice'];

function anchorContent(url: string, json: unknown): AnchorContent {
  const text = JSON.stringify(json, null, 2);
  const raw = Buffer.from(text, 'utf8');
  return { url, hash: hexOf(blake2b(raw, { dkLen: 32 })), json, bytes: `\\x${raw.toString('hex')}` };
}

const CIP100 = 'https://github.com/cardano-foundation/CIPs/blob/master/CIP-0100/README.md#';


// ---- the parts of createGovernance, each answering one question, sharing one context ----

/** World proposal j of an epoch as one integer coordinate of the draws; its k-th part (a parameter) as `proposalAt(e, j) * 4 + k`. */
const proposalAt = (epoch: number, j: number): number => epoch * PROPOSALS_PER_EPOCH + j;

/** The domains of the governance's cheap draws (govBase's `draw`). */
const DRAW = {
  proposals: 1, proposalHeight: 2, proposalType: 3, parameterCount: 4, parameter: 5, parameterValue: 6, lean: 7, vote: 8,
  withdrawalCount: 9, withdrawalTo: 10, withdrawalAmount: 11, returnAddress: 12,
} as const;
const ROLE_CODE: Record<VoterRole, number> = { drep: 0, spo: 1, constitutional_committee: 2 };
/**
 * The voters of a world proposal as its votes are counted: each one's seed, the height it votes
 * before and the count its votes go to (`into`), and the chance each votes.
 */
interface Voters {
  seeds: Int32Array;
  until: Float64Array;
  into: Int32Array;
  chance: number;
}
const NO_VOTERS: Voters = { seeds: new Int32Array(0), until: new Float64Array(0), into: new Int32Array(0), chance: 0 };
/** Whose world votes a count is of: pools' (a count each), or the committee's (all members, one, or one hot key of one). */
interface CountedVoters {
  pools: ReadonlyArray<{ hex: string; owner?: number }> | null;
  member: number | null;
  hotOnly: string | null;
}

interface Seat { slot: number; period: number; offset: number; life: number | null; voter: boolean; anchored: boolean; updateEvery: number | null; script: boolean }
interface LiveDrep { hex: string; script: boolean; events: DrepEvent[] }
interface LiveState {
  dreps: Map<string, LiveDrep>;
  /** Committee certificates in chain order: a hot key authorized (hotHex) or a resignation (hotHex null). */
  committee: Array<{ coldHex: string; hotHex: string | null; height: number }>;
  delegations: Map<string, { target: DrepTarget; height: number }>;
  proposals: Proposal[];
  votes: Array<Omit<Vote, 'proposal'> & { actionTx: string; actionIndex: number }>;
}

/** What every part shares: the chain key, the clock, derivations, hashes and the caches of anchors and closed epochs. */
function govBase(ctx: GovContext) {
  const { key, blocksPerEpoch: bpe } = ctx;
  const epochOf = (height: number): number => Math.floor(height / bpe);
  const f = (...parts: Array<string | number>): number => deriveFloat(key, 'governance', ...parts);
  /** Eight floats in [0, 1) from one hash, where one item needs several values. */
  const floats = (...parts: Array<string | number>): number[] => {
    const d = derive(key, 'governance', ...parts);
    return Array.from({ length: 8 }, (_, i) => d.readUInt32BE(i * 4) / 2 ** 32);
  };
  const memo = <T>(cache: Map<string, T>, k: string, make: () => T, limit = 16384): T => {
    if (cache.has(k)) return cache.get(k)!;
    const v = make();
    cache.set(k, v);
    if (cache.size > limit) cache.delete(cache.keys().next().value!);
    return v;
  };
  const txHashOf = (...parts: Array<string | number>): string => derive(key, 'governance-tx', ...parts).toString('hex');
  // A world proposal's transaction hash encodes its epoch under a keyed mask (as hashes.ts does for
  // blocks), so a lookup by hash is two hashes, and a hash this chain did not make never resolves.
  const proposalTxHash = (epoch: number): string => {
    const prefix = derive(key, 'governance-proposal-tx', 'p', epoch).subarray(0, 24);
    const mask = derive(key, 'governance-proposal-tx', 'm', prefix.toString('hex')).readBigUInt64BE(0);
    const suffix = Buffer.alloc(8);
    suffix.writeBigUInt64BE(BigInt(epoch) ^ mask);
    return Buffer.concat([prefix, suffix]).toString('hex');
  };
  const proposalEpochOf = (txHash: string): number | null => {
    if (!/^[0-9a-f]{64}$/.test(txHash)) return null;
    const bytes = Buffer.from(txHash, 'hex');
    const mask = derive(key, 'governance-proposal-tx', 'm', bytes.subarray(0, 24).toString('hex')).readBigUInt64BE(0);
    const epoch = bytes.readBigUInt64BE(24) ^ mask;
    if (epoch < 1n || epoch > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    return proposalTxHash(Number(epoch)) === txHash ? Number(epoch) : null;
  };
  const hash28 = (...parts: Array<string | number>): string => derive(key, 'governance-key', ...parts).subarray(0, 28).toString('hex');
  const sortKey = (a: { height: number; order: number }, b: { height: number; order: number }): number => a.height - b.height || a.order - b.order;
  const anchors = new Map<string, AnchorContent>();
  /** A voter's world votes cast in an epoch; those of epochs before the tip's never change, so they are kept. */
  const closedEpochs = new Map<string, Vote[]>();
  const epochVotes = (tag: string, e: number, compute: () => Vote[]): Vote[] => (e < epochOf(ctx.tip()) ? memo(closedEpochs, `${tag}|${e}`, compute, 65536) : compute());
  // What a long history's counts read (how many proposals an epoch has, their heights and kinds, who
  // votes on them and when) is drawn on integer coordinates (rng.ts mixWord), a few nanoseconds a
  // value: a list's running counts read some twenty values an epoch, which at a SHA-256 each took
  // seconds for a shared chain's 100,000 epochs. The rest (hashes, anchors, amounts) stays derived.
  const drawSeed = Rng.familySeed(key, 'governance-draws')[0]! | 0;
  const domainSeeds = Array.from({ length: Math.max(...Object.values(DRAW)) + 1 }, (_, d) => mixWord(drawSeed, d));
  /** A float in [0, 1) for one of DRAW's domains and an integer coordinate (several folded into one: `proposalAt`). */
  const draw = (domain: number, x: number): number => unitOf(mixWord(domainSeeds[domain]!, x));
  /** A voter's seed for its vote draws: its role and two integers naming it (a seat and cycle, a member and term, a pool's key). */
  const voterSeed = (role: VoterRole, a: number, b: number): number => mixWord(mixWord(mixWord(domainSeeds[DRAW.vote]!, ROLE_CODE[role]), a), b);
  return { ctx, key, bpe, epochOf, f, floats, draw, voterSeed, memo, txHashOf, proposalTxHash, proposalEpochOf, hash28, sortKey, anchors, closedEpochs, epochVotes };
}
type GovBase = ReturnType<typeof govBase>;

/** The world's 32 DRep seats: each cycle's key, registration, anchor updates and retirement. */
function drepSeats(g: GovBase) {
  const { bpe, epochOf, f, floats, memo, txHashOf, hash28, anchors } = g;
  const seats: Seat[] = Array.from({ length: DREP_SEATS }, (_, slot) => {
    const period = 600 + Math.floor(f('seat-period', slot) * 1800);
    const voter = f('seat-voter', slot) < 0.8;
    return {
      slot,
      period,
      offset: Math.floor(f('seat-offset', slot) * (period / 2)),
      life: f('seat-retires', slot) < 0.8 ? period - 1 - Math.floor(f('seat-gap', slot) * 20) : null,
      voter,
      anchored: f('seat-anchor', slot) < 0.65,
      updateEvery: voter && f('seat-updates', slot) < 0.6 ? 40 + Math.floor(f('seat-update-every', slot) * 200) : null,
      script: slot % 9 === 4,
    };
  });
  const cycleStart = (s: Seat, c: number): number => c * s.period - s.offset;
  const heights = new Map<string, { reg: number; ret: number | null; hex: string }>();
  const seatCycle = (s: Seat, c: number) =>
    memo(heights, `${s.slot}|${c}`, () => {
      const start = cycleStart(s, c);
      const [a, b] = floats('seat-cycle', s.slot, c);
      return {
        reg: start <= 0 ? 1 + s.slot : start * bpe + 1 + Math.floor(a! * (bpe - 2)),
        ret: s.life === null ? null : (start + s.life) * bpe + 1 + Math.floor(b! * (bpe - 2)),
        hex: hash28('drep', s.slot, c),
      };
    });
  const regHeight = (s: Seat, c: number): number => seatCycle(s, c).reg;
  const retHeight = (s: Seat, c: number): number | null => seatCycle(s, c).ret;
  const seatHex = (s: Seat, c: number): string => seatCycle(s, c).hex;
  /** The cycle of a seat whose DRep is registered at a height, or null. */
  const seatCycleAt = (s: Seat, height: number): number | null => {
    const c = s.life === null ? 0 : Math.max(0, Math.floor((epochOf(height) + s.offset) / s.period));
    if (regHeight(s, c) > height) return null;
    const ret = retHeight(s, c);
    return ret !== null && ret <= height ? null : c;
  };
  const seatAnchor = (s: Seat, c: number, version: number): (() => AnchorContent) | null =>
    s.anchored ? () => memo(anchors, `drep|${s.slot}|${c}|${version}`, () => seatDocument(s, c, version), 4096) : null;
  const seatDocument = (s: Seat, c: number, version: number): AnchorContent => {
    const id = drepId(seatHex(s, c), s.script);
    const name = `${NAMES[s.slot % NAMES.length]} ${NAMES[Math.floor(f('seat-name', s.slot, c) * NAMES.length)]}`;
    return anchorContent(`https://governance.sandbox.cairn.invalid/dreps/${id}/${version}.jsonld`, {
      '@context': { CIP100, CIP119: 'https://github.com/cardano-foundation/CIPs/blob/master/CIP-0119/README.md#' },
      hashAlgorithm: 'blake2b-256',
      body: {
        givenName: name,
        objectives: `Keep the sandbox chain's parameters steady (statement ${version + 1}).`,
        motivations: 'A DRep of the Cairn sandbox world.',
        qualifications: `Seat ${s.slot}, cycle ${c}.`,
      },
    });
  };
  const seatEventCache = new Map<string, DrepEvent[]>();
  const seatEvents = (s: Seat, c: number, tip: number): DrepEvent[] => {
    const ret = retHeight(s, c);
    const k = `${s.slot}|${c}|${ret !== null && ret <= tip ? 'all' : tip}`;
    let hit = seatEventCache.get(k);
    if (!hit) {
      hit = seatEventsUpTo(s, c, tip);
      seatEventCache.set(k, hit);
      if (seatEventCache.size > 4096) seatEventCache.delete(seatEventCache.keys().next().value!);
    }
    return hit;
  };
  /** The first height above the tip at which the seat's cycle has one more event (Infinity: none). */
  const seatNextEvent = (s: Seat, c: number, tip: number): number => {
    const reg = regHeight(s, c);
    if (reg > tip) return reg;
    const ret = retHeight(s, c);
    let next = ret !== null && ret > tip ? ret : Infinity;
    if (s.updateEvery !== null) {
      for (let k = 1; ; k++) {
        const epoch = cycleStart(s, c) + k * s.updateEvery;
        const h = epoch * bpe + 2 + Math.floor(((k * 0.618034) % 1) * (bpe - 4));
        if (ret !== null && h >= ret) break;
        if (h > tip) {
          next = Math.min(next, h);
          break;
        }
      }
    }
    return next;
  };
  const seatEventsUpTo = (s: Seat, c: number, tip: number): DrepEvent[] => {
    const hex = seatHex(s, c);
    const out: DrepEvent[] = [];
    const reg = regHeight(s, c);
    if (reg > tip) return out;
    const ret = retHeight(s, c);
    const first = seatAnchor(s, c, 0);
    out.push({ txHash: txHashOf('drep-registration', hex), certIndex: 0, height: reg, order: -1, action: 'registered', deposit: g.ctx.protocol.drepDeposit, anchor: null, content: first });
    if (s.updateEvery !== null) {
      for (let k = 1; ; k++) {
        const epoch = cycleStart(s, c) + k * s.updateEvery;
        const h = epoch * bpe + 2 + Math.floor(((k * 0.618034) % 1) * (bpe - 4));
        if (h > tip || (ret !== null && h >= ret)) break;
        if (h <= reg) continue;
        out.push({ txHash: txHashOf('drep-update', hex, k), certIndex: 0, height: h, order: -1, action: 'updated', deposit: null, anchor: null, content: seatAnchor(s, c, k) });
      }
    }
    if (ret !== null && ret <= tip) out.push({ txHash: txHashOf('drep-retirement', hex), certIndex: 0, height: ret, order: -1, action: 'deregistered', deposit: null, anchor: null, content: null });
    return out;
  };
  return { seats, cycleStart, regHeight, retHeight, seatHex, seatCycleAt, seatEvents, seatNextEvent };
}

/** The constitutional committee's members and their hot keys: the world's, term by term, or a genesis' (the same questions, answered from its members' certificates). */
function committeeKeys(g: GovBase & ReturnType<typeof liveLayer>) {
  return g.ctx.committee ? genesisCommitteeKeys(g, g.ctx.committee) : worldCommitteeKeys(g);
}

/** The world's seven members, a new hot key each every term; one never authorized, one resigned after a while. */
function worldCommitteeKeys(g: GovBase) {
  const { f, hash28 } = g;
  const term = (epoch: number): number => Math.floor(epoch / g.ctx.protocol.committeeMaxTermLength);
  const coldHex = (m: number): string => hash28('cc-cold', m);
  // A member's hot key lasts a term (hundreds of epochs): kept, where counting a year's votes asks
  // it of every member for every proposal.
  const hots = new Map<string, string>();
  const hotHex = (m: number, t: number): string => g.memo(hots, `${m}|${t}`, () => hash28('cc-hot', m, t), 1024);
  const resignEpoch = 100 + Math.floor(f('cc-resign') * 200);
  /** Whether the member holds a hot key at an epoch (one is never authorized, one resigns). */
  const holdsHot = (m: number, epoch: number): boolean => m !== COMMITTEE_SIZE - 1 && !(m === COMMITTEE_SIZE - 2 && epoch >= resignEpoch);
  /** The member's hot key at an epoch, or null (never authorized, or resigned). */
  const hotAt = (m: number, epoch: number): string | null => (holdsHot(m, epoch) ? hotHex(m, term(epoch)) : null);
  const hotOwner = (hex: string, epoch: number): { member: number; term: number } | null => {
    for (let t = term(epoch); t >= 0; t--) for (let m = 0; m < COMMITTEE_SIZE; m++) if (hotHex(m, t) === hex) return { member: m, term: t };
    return null;
  };
  const memberAt = (_state: LiveState, m: number, height: number): { hot: string | null; resigned: boolean } => {
    const hot = hotAt(m, g.epochOf(height));
    return { hot, resigned: hot === null && m !== COMMITTEE_SIZE - 1 };
  };
  return {
    genesisCommittee: null as GenesisCommittee | null, size: COMMITTEE_SIZE, quorum: COMMITTEE_QUORUM, expiryOf: (_m: number, epoch: number) => (term(epoch) + 1) * g.ctx.protocol.committeeMaxTermLength,
    term, coldHex, resignEpoch, holdsHot, hotAt, hotOwner, memberAt,
  };
}

/**
 * A genesis' committee: its members hold their cold keys, authorize hot keys (a later authorization
 * replaces the earlier) and resign (for good) with submitted certificates; nothing happens on its own.
 */
function genesisCommitteeKeys(g: GovBase & ReturnType<typeof liveLayer>, c: GenesisCommittee) {
  const members = c.members;
  /** A member's hot key and whether it resigned, after the committee certificates of `state` up to `height`. */
  const memberAt = (state: LiveState, m: number, height: number): { hot: string | null; resigned: boolean } => {
    let hot: string | null = null;
    let resigned = false;
    for (const e of state.committee) {
      if (e.height > height) break;
      if (e.coldHex !== members[m]!.coldHex || resigned) continue;
      if (e.hotHex === null) [hot, resigned] = [null, true];
      else hot = e.hotHex;
    }
    return { hot, resigned };
  };
  const coldHex = (m: number): string => members[m]!.coldHex;
  const hotAt = (m: number, _epoch: number): string | null => memberAt(g.live(), m, Infinity).hot;
  const hotOwner = (hex: string, _epoch: number): { member: number; term: number } | null => {
    const e = g.live().committee.find((x) => x.hotHex === hex);
    const member = e ? members.findIndex((x) => x.coldHex === e.coldHex) : -1;
    return member < 0 ? null : { member, term: 0 };
  };
  return {
    genesisCommittee: c as GenesisCommittee | null, size: members.length, quorum: c.quorum, expiryOf: (m: number, _epoch: number) => members[m]!.expiryEpoch,
    term: (_epoch: number) => 0, coldHex, resignEpoch: Infinity, holdsHot: (m: number, epoch: number): boolean => hotAt(m, epoch) !== null, hotAt, hotOwner, memberAt,
  };
}

/** The world's proposals, up to two an epoch, and their lookup by transaction hash. */
function worldProposalsOf(g: GovBase) {
  const { ctx, bpe, draw, memo, proposalTxHash, proposalEpochOf, hash28, anchors } = g;
  // An epoch's proposals as the counts read them, from the cheap draws alone: how many, at which
  // height, of which kind, and a parameter change's parameters (whether the pools vote on it).
  const proposalCountAt = (epoch: number): number => {
    if (epoch < 1) return 0;
    const r = draw(DRAW.proposals, epoch);
    return r < 0.35 ? 0 : r < 0.8 ? 1 : 2;
  };
  const proposalHeightAt = (epoch: number): number => epoch * bpe + 3 + Math.floor(draw(DRAW.proposalHeight, epoch) * Math.max(1, Math.floor(bpe / 2)));
  const proposalTypeAt = (epoch: number, j: number): GovActionType => {
    const t = draw(DRAW.proposalType, proposalAt(epoch, j));
    return t < 0.3 ? 'info_action' : t < 0.55 ? 'parameter_change' : t < 0.8 ? 'treasury_withdrawals' : t < 0.88 ? 'hard_fork_initiation' : t < 0.93 ? 'no_confidence' : t < 0.97 ? 'new_committee' : 'new_constitution';
  };
  const parametersAt = (epoch: number, j: number): Record<string, unknown> => {
    const parameters: Record<string, unknown> = {};
    const count = 1 + Math.floor(draw(DRAW.parameterCount, proposalAt(epoch, j)) * 3);
    for (let k = 0; k < count; k++) {
      const [name, value] = PARAMETER_MENU[Math.floor(draw(DRAW.parameter, proposalAt(epoch, j) * 4 + k) * PARAMETER_MENU.length)]!;
      parameters[name] = value(draw(DRAW.parameterValue, proposalAt(epoch, j) * 4 + k));
    }
    return parameters;
  };
  /** Whether the pools vote on world proposal j of an epoch (mayVote's rule, a parameter change's by the parameters it draws). */
  const poolsVoteAt = (epoch: number, j: number, type: GovActionType): boolean => mayVote('spo', { type, parameters: type === 'parameter_change' ? parametersAt(epoch, j) : null });
  const proposalCache = new Map<number, Proposal[]>();
  const worldProposals = (epoch: number): Proposal[] => {
    if (epoch < 1) return [];
    const hit = proposalCache.get(epoch);
    if (hit) return hit;
    const n = proposalCountAt(epoch);
    const height = proposalHeightAt(epoch);
    // Its hash made when read (two SHA-256s): a page walking a list's epochs reads a few proposals'.
    let hash: string | undefined;
    const txHashOf = (): string => (hash ??= proposalTxHash(epoch));
    const out: Proposal[] = [];
    for (let j = 0; j < n; j++) {
      const type = proposalTypeAt(epoch, j);
      let parameters: Record<string, unknown> | null = null;
      const withdrawals: Proposal['withdrawals'] = [];
      let description: unknown;
      if (type === 'parameter_change') {
        parameters = parametersAt(epoch, j);
        description = { tag: 'ParameterChange', contents: [null, parameters, null] };
      } else if (type === 'treasury_withdrawals') {
        const count = 1 + Math.floor(draw(DRAW.withdrawalCount, proposalAt(epoch, j)) * 3);
        for (let k = 0; k < count; k++) {
          const stakeAddress = ctx.stakeAddresses[Math.floor(draw(DRAW.withdrawalTo, proposalAt(epoch, j) * 4 + k) * ctx.stakeAddresses.length)]!;
          if (withdrawals.some((w) => w.stakeAddress === stakeAddress)) continue;
          withdrawals.push({ stakeAddress, amount: BigInt(1_000 + Math.floor(draw(DRAW.withdrawalAmount, proposalAt(epoch, j) * 4 + k) * 499_000)) * 1_000_000n });
        }
        description = { tag: 'TreasuryWithdrawals', contents: [withdrawals.map((w) => [w.stakeAddress, Number(w.amount)]), null] };
      } else if (type === 'hard_fork_initiation') description = { tag: 'HardForkInitiation', contents: [null, { major: g.ctx.protocol.protocolMajor + 1, minor: 0 }] };
      else if (type === 'no_confidence') description = { tag: 'NoConfidence', contents: null };
      else if (type === 'new_committee') description = { tag: 'UpdateCommittee', contents: [null, [], {}, COMMITTEE_QUORUM.numerator / COMMITTEE_QUORUM.denominator] };
      else if (type === 'new_constitution') description = { tag: 'NewConstitution', contents: [null, { anchor: { url: `https://governance.sandbox.cairn.invalid/constitution/${epoch}.txt`, dataHash: hash28('constitution', epoch) + '00000000' } }] };
      else description = { tag: 'InfoAction' };
      const title = `${type.replace(/_/g, ' ')} of epoch ${epoch}${n > 1 ? ` (${j + 1})` : ''}`;
      const document = (): AnchorContent => anchorContent(`https://governance.sandbox.cairn.invalid/proposals/${txHashOf()}/${j}.jsonld`, {
        '@context': { CIP100, CIP108: 'https://github.com/cardano-foundation/CIPs/blob/master/CIP-0108/README.md#' },
        hashAlgorithm: 'blake2b-256',
        authors: [],
        body: { title, abstract: `A ${type.replace(/_/g, ' ')} proposed in the Cairn sandbox world.`, motivation: 'Exercising Conway governance.', rationale: 'Deterministic from the chain seed.' },
      });
      out.push({
        get txHash() {
          return txHashOf();
        },
        index: j, height, order: -1, type, deposit: g.ctx.protocol.govActionDeposit,
        returnAddress: ctx.stakeAddresses[Math.floor(draw(DRAW.returnAddress, proposalAt(epoch, j)) * ctx.stakeAddresses.length)]!,
        anchor: null, content: () => memo(anchors, `proposal|${txHashOf()}|${j}`, document, 4096), description, parameters, withdrawals, world: true,
      });
    }
    proposalCache.set(epoch, out);
    if (proposalCache.size > 65536) proposalCache.delete(proposalCache.keys().next().value!);
    return out;
  };
  const worldProposal = (txHash: string, index: number, epoch: number): Proposal | null => worldProposals(epoch).find((p) => p.txHash === txHash && p.index === index) ?? null;
  const findWorldProposal = (txHash: string, index: number, tip: number): Proposal | null => {
    const epoch = proposalEpochOf(txHash);
    const p = epoch === null ? null : worldProposal(txHash, index, epoch);
    return p && p.height <= tip ? p : null;
  };
  return { proposalCountAt, proposalHeightAt, proposalTypeAt, parametersAt, poolsVoteAt, worldProposals, findWorldProposal };
}
type GovWorld = GovBase & ReturnType<typeof drepSeats> & ReturnType<typeof committeeKeys> & ReturnType<typeof worldProposalsOf> & ReturnType<typeof liveLayer>;

/** The world's votes on its proposals: by the DRep seats, the pools and the committee. */
function worldVotes(g: GovWorld) {
  const { ctx, bpe, epochOf, draw, voterSeed, txHashOf, sortKey, seats, retHeight, seatHex, seatCycleAt, term, resignEpoch, hotAt } = g;
  const lean = (p: Proposal): number => draw(DRAW.lean, proposalAt(epochOf(p.height), p.index));
  const yesChance = (p: Proposal, role: VoterRole): number => {
    const good = lean(p) < 0.5;
    if (role === 'constitutional_committee') return p.type === 'hard_fork_initiation' ? 0.2 : 0.9;
    if (role === 'spo') return p.type === 'info_action' ? 0.6 : p.type === 'parameter_change' ? 0.8 : p.type === 'hard_fork_initiation' ? 0.3 : 0.15;
    if (p.type === 'info_action') return 0.6;
    if (p.type === 'parameter_change' || p.type === 'treasury_withdrawals' || p.type === 'new_constitution') return good ? 0.9 : 0.3;
    return p.type === 'hard_fork_initiation' ? 0.25 : 0.1;
  };
  const valueOf = (r: number, yes: number): VoteValue => (r < yes ? 'yes' : r < yes + (1 - yes) * 0.75 ? 'no' : 'abstain');
  const flip = (v: VoteValue): VoteValue => (v === 'yes' ? 'no' : 'yes');
  /** castHeights' answer. */
  const cast = new Float64Array(2);
  /** The word a voter's draws on world proposal j of epoch pe come from. */
  const voteBase = (seed: number, pe: number, j: number): number => mixWord(seed, proposalAt(pe, j));
  /**
   * Into `cast`, the heights at which a voter (its seed: voterSeed) votes on world proposal j of epoch
   * pe standing at `height`, before `until`: how many (0–2). Whether it votes (`chance`: the base
   * word itself), how long after the proposal, and whether it changes its vote later are the draws
   * of one base word.
   */
  const castHeights = (seed: number, pe: number, j: number, height: number, chance: number, until: number): number => {
    const base = voteBase(seed, pe, j);
    if (unitOf(base) >= chance) return 0;
    const h1 = height + 1 + Math.floor(unitOf(mixWord(base, 1)) * 2 * bpe);
    if (h1 >= until) return 0;
    cast[0] = h1;
    if (unitOf(mixWord(base, 3)) >= 0.08) return 1;
    const h2 = h1 + 1 + Math.floor(unitOf(mixWord(base, 4)) * bpe);
    if (h2 >= until) return 1;
    cast[1] = h2;
    return 2;
  };
  const worldVotesOf = (p: Proposal, role: VoterRole, voterHex: string, voter: string, seed: number, chance: number, until: number): Vote[] => {
    const pe = epochOf(p.height);
    const k = castHeights(seed, pe, p.index, p.height, chance, until);
    if (k === 0) return [];
    const [h1, h2] = cast;
    const v1 = valueOf(unitOf(mixWord(voteBase(seed, pe, p.index), 2)), yesChance(p, role));
    const tag = `${role}|${voterHex}`;
    // The vote's transaction hash is derived when read: a page reads a few.
    const make = (height: number, vote: VoteValue, n: number): Vote => {
      let txHash: string | undefined;
      return {
        get txHash() {
          return (txHash ??= txHashOf('vote', tag, p.txHash, p.index, n));
        },
        certIndex: 0, height, order: -1, role, voterHex, voter, proposal: p, vote, anchor: null,
      };
    };
    return k === 1 ? [make(h1!, v1, 0)] : [make(h1!, v1, 0), make(h2!, flip(v1), 1)];
  };
  const seatVotes = (s: Seat, p: Proposal): Vote[] => {
    if (!s.voter) return [];
    const c = seatCycleAt(s, p.height);
    if (c === null) return [];
    const hex = seatHex(s, c);
    return worldVotesOf(p, 'drep', hex, drepId(hex, s.script), voterSeed('drep', s.slot, c), 0.8, retHeight(s, c) ?? Infinity);
  };
  /** A pool's seed: its key's first four bytes name it. */
  const poolSeed = (pool: { hex: string }): number => voterSeed('spo', parseInt(pool.hex.slice(0, 8), 16), 0);
  const poolVotes = (pool: { id: string; hex: string; owner?: number }, p: Proposal): Vote[] =>
    pool.owner !== -1 && mayVote('spo', p) ? worldVotesOf(p, 'spo', pool.hex, pool.id, poolSeed(pool), 0.55, Infinity) : [];
  // A member votes with the hot key of the proposal's term, before the term (and the key) ends, or it resigns.
  const memberSeed = (m: number, pe: number): number => voterSeed('constitutional_committee', m, term(pe));
  const memberUntil = (m: number, pe: number): number => {
    const termEnd = (term(pe) + 1) * g.ctx.protocol.committeeMaxTermLength * bpe;
    return m === COMMITTEE_SIZE - 2 ? Math.min(termEnd, resignEpoch * bpe) : termEnd;
  };
  const hotIds = new Map<string, string>();
  // A proposal's members' votes, made once: the committee's votes of an epoch read those of the
  // proposals of the four epochs before it.
  const membersVotes = new WeakMap<Proposal, Vote[][]>();
  const memberVotes = (m: number, p: Proposal): Vote[] => {
    // A genesis' committee votes only with what its members submit.
    if (g.genesisCommittee || !mayVote('constitutional_committee', p)) return [];
    let made = membersVotes.get(p);
    if (!made) membersVotes.set(p, (made = []));
    return (made[m] ??= memberVotesOf(m, p));
  };
  const memberVotesOf = (m: number, p: Proposal): Vote[] => {
    const pe = epochOf(p.height);
    const hot = hotAt(m, pe);
    if (hot === null) return [];
    return worldVotesOf(p, 'constitutional_committee', hot, g.memo(hotIds, hot, () => ccHotId(hot), 1024), memberSeed(m, pe), 0.9, memberUntil(m, pe));
  };
  const allWorldVotes = new Map<string, Vote[]>();
  /** Every vote on a world proposal, including votes above the tip (callers filter). */
  const votesOnWorld = (p: Proposal): Vote[] => {
    const k = `${p.txHash}#${p.index}`;
    const hit = allWorldVotes.get(k);
    if (hit) return hit;
    const out: Vote[] = [];
    for (const s of seats) out.push(...seatVotes(s, p));
    for (const pool of ctx.pools) out.push(...poolVotes(pool, p));
    for (let m = 0; m < g.size; m++) out.push(...memberVotes(m, p));
    out.sort(sortKey);
    allWorldVotes.set(k, out);
    if (allWorldVotes.size > 4096) allWorldVotes.delete(allWorldVotes.keys().next().value!);
    return out;
  };

  return { seatVotes, poolVotes, memberVotes, votesOnWorld, castHeights, cast, poolSeed, memberSeed, memberUntil };
}
type GovVoted = GovWorld & ReturnType<typeof worldVotes>;

/** The world's votes and proposals per epoch, counted from the draws alone (a list's running counts). */
function voteCounts(g: GovVoted) {
  const { bpe, term, resignEpoch, holdsHot, hotAt, proposalCountAt, proposalHeightAt, proposalTypeAt, poolsVoteAt, castHeights, cast, poolSeed, memberSeed, memberUntil } = g;
  /** The members of the committee voting on a proposal of epoch pe (all, one, or the one holding a hot key). */
  const committeeVoters = (member: number | null, hotOnly: string | null, pe: number): Voters => {
    const seeds: number[] = [];
    const until: number[] = [];
    for (let m = member ?? 0; m <= (member ?? g.size - 1); m++) {
      if (!holdsHot(m, pe) || (hotOnly !== null && hotAt(m, pe) !== hotOnly)) continue;
      seeds.push(memberSeed(m, pe));
      until.push(memberUntil(m, pe));
    }
    return { seeds: Int32Array.from(seeds), until: Float64Array.from(until), into: new Int32Array(seeds.length), chance: 0.9 };
  };
  /** Pools voting on a world proposal, each into its own count: a genesis' pools vote only with what their key holders submit. */
  const poolVoters = (pools: ReadonlyArray<{ hex: string; owner?: number }>): Voters => {
    const voting = [...pools.keys()].filter((i) => pools[i]!.owner !== -1);
    return { seeds: Int32Array.from(voting, (i) => poolSeed(pools[i]!)), until: new Float64Array(voting.length).fill(Infinity), into: Int32Array.from(voting), chance: 0.55 };
  };
  /**
   * The votes cast in each epoch from..to (entry e − from) on the world's proposals by the committee
   * (all members, one, or one hot key of one: one count) or by pools (a count each), counted from the
   * draws alone: no proposal or vote is made, some tens of nanoseconds a voter and proposal. What a
   * list's running counts read. Pools counted together draw each proposal's kind and parameters once
   * for all of them. One loop for both kinds, so that V8 compiles it once with everything it calls inlined.
   */
  const castCounts = (of: CountedVoters, from: number, to: number): Uint32Array[] => {
    const outs = Array.from({ length: of.pools ? of.pools.length : 1 }, () => new Uint32Array(Math.max(0, to - from + 1)));
    // A genesis' committee votes only with what its members submit.
    if (!of.pools && g.genesisCommittee !== null) return outs;
    let voters: Voters = of.pools ? poolVoters(of.pools) : NO_VOTERS;
    if (of.pools && voters.seeds.length === 0) return outs;
    // The committee's members and their seeds change only with the term and a resignation.
    let votersKey = NaN;
    for (let pe = Math.max(1, from - (VOTED_EPOCHS - 1)); pe <= to; pe++) {
      const n = proposalCountAt(pe);
      if (n === 0) continue;
      const height = proposalHeightAt(pe);
      for (let j = 0; j < n; j++) {
        const type = proposalTypeAt(pe, j);
        if (of.pools) {
          if (!poolsVoteAt(pe, j, type)) continue;
        } else {
          if (!mayVote('constitutional_committee', { type, parameters: null })) continue;
          const key = term(pe) * 2 + (pe >= resignEpoch ? 1 : 0);
          if (key !== votersKey) [votersKey, voters] = [key, committeeVoters(of.member, of.hotOnly, pe)];
        }
        for (let i = 0; i < voters.seeds.length; i++) {
          const k = castHeights(voters.seeds[i]!, pe, j, height, voters.chance, voters.until[i]!);
          const out = outs[voters.into[i]!]!;
          for (let c = 0; c < k; c++) {
            const e = Math.floor(cast[c]! / bpe) - from;
            if (e >= 0 && e < out.length) out[e] = out[e]! + 1;
          }
        }
      }
    }
    return outs;
  };
  /** The committee's world votes cast in each epoch from..to: all members', one member's, or one hot key's. */
  const committeeCastCounts = (member: number | null, hotOnly: string | null, from: number, to: number): Uint32Array => castCounts({ pools: null, member, hotOnly }, from, to)[0]!;
  /** A pool's world votes cast in each epoch from..to. */
  const poolCastCounts = (pool: { hex: string; owner?: number }, from: number, to: number): Uint32Array => castCounts({ pools: [pool], member: null, hotOnly: null }, from, to)[0]!;
  /** Each pool's world votes cast in each epoch from..to, counted together (the proposals' draws made once for all). */
  const poolsCastCounts = (pools: ReadonlyArray<{ hex: string; owner?: number }>, from: number, to: number): Uint32Array[] => castCounts({ pools, member: null, hotOnly: null }, from, to);
  /** The world's proposals of each epoch from..to. */
  const proposalCounts = (from: number, to: number): Uint32Array => {
    const out = new Uint32Array(Math.max(0, to - from + 1));
    for (let e = from; e <= to; e++) out[e - from] = proposalCountAt(e);
    return out;
  };
  return { committeeCastCounts, poolCastCounts, poolsCastCounts, proposalCounts };
}

/** What becomes of a world proposal: ratified and enacted, dropped by a competitor, or expired. */
function ratification(g: GovVoted) {
  const { bpe, epochOf, seats, retHeight, seatHex, worldProposals, votesOnWorld } = g;
  /** The latest vote of each voter (only it counts), without those of DReps retired before `boundary`. */
  const countedVotes = (votes: Vote[], boundaryHeight: number, drepRetired: (hex: string, before: number) => boolean): Set<Vote> => {
    const latest = new Map<string, Vote>();
    for (const v of votes) latest.set(`${v.role}|${v.voterHex}`, v);
    return new Set([...latest.values()].filter((v) => v.role !== 'drep' || !drepRetired(v.voterHex, boundaryHeight)));
  };
  const worldDrepRetired = (hex: string, before: number): boolean => {
    for (const s of seats) {
      if (s.life === null) continue;
      const c = Math.max(0, Math.floor((epochOf(before) + s.offset) / s.period));
      for (const cc of [c, c - 1]) if (cc >= 0 && seatHex(s, cc) === hex) return (retHeight(s, cc) ?? Infinity) < before;
    }
    return false;
  };
  const passes = (p: Proposal): boolean => {
    if (!p.world || p.type === 'info_action') return false;
    const e = epochOf(p.height);
    const counted = countedVotes(votesOnWorld(p), (e + 4) * bpe, worldDrepRetired);
    const ratio = (role: VoterRole): number => {
      let yes = 0;
      let no = 0;
      for (const v of counted) {
        if (v.role !== role) continue;
        if (v.vote === 'yes') yes++;
        else if (v.vote === 'no') no++;
      }
      return yes + no === 0 ? 0 : yes / (yes + no);
    };
    if (ratio('drep') < DREP_THRESHOLD[p.type]) return false;
    if (mayVote('constitutional_committee', p) && ratio('constitutional_committee') < g.quorum.numerator / g.quorum.denominator) return false;
    if (mayVote('spo', p) && ratio('spo') < POOL_THRESHOLD) return false;
    return true;
  };
  const enactedCache = new Map<string, number | null>();
  /** The epoch a world proposal is enacted in, or null; competing proposals enacted first drop it. */
  const enactedEpoch = (p: Proposal): number | null => {
    const k = `${p.txHash}#${p.index}`;
    if (enactedCache.has(k)) return enactedCache.get(k)!;
    let out: number | null = null;
    if (passes(p)) {
      const x = epochOf(p.height) + 5;
      out = droppedBy(p, x, true) === null ? x : null;
    }
    enactedCache.set(k, out);
    if (enactedCache.size > 16384) enactedCache.delete(enactedCache.keys().next().value!);
    return out;
  };
  /** The first epoch a competitor is enacted in while `p` is pending (until `last`), or null. */
  const droppedBy = (p: Proposal, last: number, passing: boolean): number | null => {
    const purpose = PURPOSE[p.type];
    if (!purpose || !p.world) return null;
    const e = epochOf(p.height);
    let first: number | null = null;
    for (let qe = e - 4; qe <= last - 5; qe++) {
      for (const q of worldProposals(qe)) {
        if (q === p || PURPOSE[q.type] !== purpose) continue;
        const x = qe + 5;
        if (x <= e || x > last) continue;
        // At the same epoch boundary the earlier proposal goes first.
        if (passing && x === last && !(q.height < p.height || (q.height === p.height && q.index < p.index))) continue;
        if (enactedEpoch(q) === x && (first === null || x < first)) first = x;
      }
    }
    return first;
  };
  const statusOf = (p: Proposal): ProposalStatus => {
    const e = epochOf(p.height);
    const expiration = e + g.ctx.protocol.govActionLifetime;
    const pass = passes(p);
    const enacted = pass ? enactedEpoch(p) : null;
    if (enacted !== null) return { ratified: enacted - 1, enacted, dropped: null, expired: null, expiration };
    const dropped = droppedBy(p, pass ? e + 5 : expiration + 1, pass);
    if (dropped !== null) return { ratified: null, enacted: null, dropped, expired: null, expiration };
    return { ratified: null, enacted: null, dropped: null, expired: expiration + 1, expiration };
  };
  /** The status as of an epoch: what has not happened yet is null. */
  const statusAt = (p: Proposal, epoch: number): ProposalStatus => {
    const s = statusOf(p);
    const upTo = (x: number | null): number | null => (x !== null && x <= epoch ? x : null);
    return { ratified: upTo(s.ratified), enacted: upTo(s.enacted), dropped: upTo(s.dropped), expired: upTo(s.expired), expiration: s.expiration };
  };
  const resolution = (s: ProposalStatus): number => s.ratified ?? s.dropped ?? s.expired!;
  return { countedVotes, statusOf, statusAt, resolution };
}
type GovRatified = GovVoted & ReturnType<typeof ratification>;

/** The governance of the visible live transactions: DRep certificates, vote delegations, proposals and votes. */
function liveLayer(g: GovBase) {
  const { ctx } = g;
  const liveStateOf = (txs: readonly LiveTx[], order: (t: LiveTx) => number): LiveState => {
    const state: LiveState = { dreps: new Map(), committee: [], delegations: new Map(), proposals: [], votes: [] };
    for (const t of txs) {
      const o = order(t);
      for (const c of t.govCerts) {
        if (c.kind === 'vote_delegation') state.delegations.set(c.stakeAddress!, { target: c.drep!, height: t.height });
        if (c.kind === 'committee_hot_auth' || c.kind === 'committee_resignation') state.committee.push({ coldHex: c.coldHex!, hotHex: c.hotHex ?? null, height: t.height });
        if (c.kind !== 'drep_registration' && c.kind !== 'drep_update' && c.kind !== 'drep_deregistration') continue;
        const target = c.drep as { hex: string; script: boolean };
        const d = state.dreps.get(target.hex) ?? { hex: target.hex, script: target.script, events: [] };
        const action = c.kind === 'drep_registration' ? 'registered' : c.kind === 'drep_update' ? 'updated' : 'deregistered';
        d.events.push({ txHash: t.hash, certIndex: c.certIndex, height: t.height, order: o, action, deposit: action === 'registered' ? c.deposit! : null, anchor: c.anchor ?? null, content: null });
        state.dreps.set(target.hex, d);
      }
      for (const p of t.proposals) {
        state.proposals.push({
          txHash: t.hash, index: p.index, height: t.height, order: o, type: p.type, deposit: p.deposit, returnAddress: p.returnAddress, anchor: p.anchor, content: null,
          description: p.description, parameters: p.parameters, withdrawals: p.withdrawals, world: false,
        });
      }
      for (const v of t.votes) {
        const pool = v.role === 'spo' ? ctx.pools.find((x) => x.hex === v.voterHex) : undefined;
        state.votes.push({
          txHash: t.hash, certIndex: v.index, height: t.height, order: o, role: v.role, voterHex: v.voterHex,
          voter: v.role === 'drep' ? drepId(v.voterHex, false) : v.role === 'spo' ? (pool?.id ?? v.voterHex) : ccHotId(v.voterHex),
          vote: v.vote, anchor: v.anchor, actionTx: v.actionTx, actionIndex: v.actionIndex,
        });
      }
    }
    return state;
  };
  // The visible live transactions are a prefix of an append-only list: their count says which they are.
  let liveCache: { count: number; state: LiveState } | undefined;
  const live = (): LiveState => {
    const txs = ctx.live();
    if (liveCache && liveCache.count === txs.length) return liveCache.state;
    liveCache = { count: txs.length, state: liveStateOf(txs, ctx.liveIndex) };
    return liveCache.state;
  };
  const registeredIn = (events: DrepEvent[], height: number): DrepEvent | null => {
    let reg: DrepEvent | null = null;
    for (const e of events) {
      if (e.height > height) break;
      if (e.action === 'registered') reg = e;
      if (e.action === 'deregistered') reg = null;
    }
    return reg;
  };
  return { liveStateOf, live, registeredIn };
}

/** The DReps, world and live, as of the tip. */
function drepRegistry(g: GovRatified) {
  const { ctx, sortKey, seats, regHeight, seatHex, seatEvents, seatNextEvent, live } = g;
  // The list holds from the tip it was made at until the next height at which a seat registers,
  // updates or retires (`until`), or the live ledger changes.
  let drepCache: { tip: number; until: number; count: number; list: Drep[]; byHex: Map<string, Drep[]> } | undefined;
  const dreps = (): { list: Drep[]; byHex: Map<string, Drep[]> } => {
    const tip = ctx.tip();
    const state = live();
    const count = ctx.live().length;
    if (drepCache && drepCache.tip <= tip && tip < drepCache.until && drepCache.count === count) return drepCache;
    const list: Drep[] = [];
    let until = Infinity;
    for (const s of seats) {
      for (let c = 0; ; c++) {
        const reg = regHeight(s, c);
        if (reg > tip) {
          until = Math.min(until, reg);
          break;
        }
        const hex = seatHex(s, c);
        list.push({ hex, script: s.script, id: drepId(hex, s.script), events: seatEvents(s, c, tip), seat: { slot: s.slot, cycle: c } });
        until = Math.min(until, seatNextEvent(s, c, tip));
        if (s.life === null) break;
      }
    }
    for (const d of state.dreps.values()) list.push({ hex: d.hex, script: d.script, id: drepId(d.hex, d.script), events: d.events, seat: null });
    list.sort((a, b) => sortKey(a.events[0]!, b.events[0]!));
    const byHex = new Map<string, Drep[]>();
    for (const d of list) byHex.set(d.hex, [...(byHex.get(d.hex) ?? []), d]);
    drepCache = { tip, until, count, list, byHex };
    return drepCache;
  };
  const findDrep = (id: { hex: string; script: boolean | null }): Drep | null =>
    (dreps().byHex.get(id.hex) ?? []).find((d) => id.script === null || d.script === id.script) ?? null;
  /** The registered DRep a path names: undefined for a malformed id, null for the two special DReps or an unknown one. */
  const registeredDrep = (text: string): Drep | null | undefined => {
    const id = parseDrepId(text);
    if (id === null) return undefined;
    return typeof id === 'string' ? null : findDrep(id);
  };
  return { dreps, findDrep, registeredDrep };
}
type GovDreps = GovRatified & ReturnType<typeof drepRegistry>;

/** Vote delegations of the stake addresses, and so each DRep's delegators and voting power. */
function voteDelegation(g: GovDreps) {
  const { ctx, epochOf, f, seats, seatHex, seatCycleAt, live, registeredIn, findDrep } = g;
  /** The DRep a stake address delegates its vote to as of the tip, or null. */
  const eraLength = 300;
  // A stake address's choice holds for its era: drawn once per era, not at every block.
  const worldChoices = new Map<number, { phase: number; era: number; choice: 'abstain' | 'no_confidence' | number | null }>();
  const worldTarget = (index: number, tip: number): DrepTarget | null => {
    let entry = worldChoices.get(index);
    const phase = entry?.phase ?? Math.floor(f('deleg-phase', index) * eraLength);
    const era = Math.floor((epochOf(tip) + phase) / eraLength);
    if (!entry || entry.era !== era) {
      const r = f('deleg', index, era);
      const choice = r < 0.12 ? null : r < 0.2 ? 'abstain' : r < 0.24 ? 'no_confidence' : Math.floor(f('deleg-seat', index, era) * DREP_SEATS);
      worldChoices.set(index, (entry = { phase, era, choice }));
    }
    if (entry.choice === null || typeof entry.choice === 'string') return entry.choice;
    const s = seats[entry.choice]!;
    const c = seatCycleAt(s, tip);
    return c === null ? null : { hex: seatHex(s, c), script: s.script };
  };
  const worldIndex = new Map(ctx.stakeAddresses.map((s, i) => [s, i]));
  const delegationOf = (stake: string): DrepTarget | null => {
    const tip = ctx.tip();
    const liveDeleg = live().delegations.get(stake);
    if (liveDeleg) {
      const t = liveDeleg.target;
      if (typeof t === 'string') return t;
      // Retiring a DRep ends the delegations to it (a later re-registration does not revive them).
      const d = findDrep(t);
      const reg = d ? registeredIn(d.events, tip) : null;
      return reg && reg.height <= liveDeleg.height ? t : null;
    }
    const i = worldIndex.get(stake);
    return i === undefined ? null : worldTarget(i, tip);
  };
  let powerCache: { tip: number; count: number; byDrep: Map<string, Array<{ address: string; amount: bigint }>> } | undefined;
  /** Delegators of each DRep (keyed by its id) with their stake, as of the tip. */
  const power = (): Map<string, Array<{ address: string; amount: bigint }>> => {
    const tip = ctx.tip();
    const count = ctx.live().length;
    if (powerCache && powerCache.tip === tip && powerCache.count === count) return powerCache.byDrep;
    const stakes = ctx.stakes();
    const byDrep = new Map<string, Array<{ address: string; amount: bigint }>>();
    const all = new Set([...ctx.stakeAddresses, ...live().delegations.keys()]);
    for (const stake of all) {
      const t = delegationOf(stake);
      if (t === null) continue;
      const id = targetId(t);
      byDrep.set(id, [...(byDrep.get(id) ?? []), { address: stake, amount: stakes.get(stake) ?? 0n }]);
    }
    powerCache = { tip, count, byDrep };
    return byDrep;
  };
  const amountOf = (id: string): bigint => (power().get(id) ?? []).reduce((n, d) => n + d.amount, 0n);
  /** The drep_id of a stake address's vote delegation (accounts), or null. */
  const drepOfStake = (stake: string): string | null => {
    const t = delegationOf(stake);
    return t === null ? null : targetId(t);
  };
  return { delegationOf, power, amountOf, drepOfStake };
}
type GovDelegated = GovDreps & ReturnType<typeof voteDelegation>;

/** A DRep's state: registration, last activity, expiry, amount and latest anchor. */
function drepActivity(g: GovDelegated) {
  const { ctx, epochOf, memo, sortKey, closedEpochs, seats, regHeight, retHeight, worldProposals, seatVotes, live, registeredIn, amountOf } = g;
  const lastActiveEpoch = (d: Drep, tip: number): number | null => {
    const last = d.events.length ? d.events[d.events.length - 1]! : null;
    let h = last ? last.height : null;
    // A world DRep votes only while registered: once retired, its retirement is its last act.
    const votes = d.seat && last?.action !== 'deregistered' ? lastSeatVoteHeight(d, tip) : null;
    if (votes !== null && (h === null || votes > h)) h = votes;
    for (const v of live().votes) if (v.role === 'drep' && v.voterHex === d.hex && (h === null || v.height > h)) h = v.height;
    return h === null ? null : epochOf(h);
  };
  /** The height of a world DRep's latest vote up to the tip (looking back over the epochs until one is found). */
  const lastSeatVoteHeight = (d: Drep, tip: number): number | null => {
    const s = seats[d.seat!.slot]!;
    if (!s.voter) return null;
    const reg = regHeight(s, d.seat!.cycle);
    const ret = retHeight(s, d.seat!.cycle);
    const top = epochOf(Math.min(tip, ret ?? tip));
    for (let e = top; e >= Math.max(1, epochOf(reg)) && e >= top - 60; e--) {
      const votes = seatVotesCastIn(s, d.hex, e, tip);
      if (votes.length) return votes[votes.length - 1]!.height;
    }
    return null;
  };
  /** A world DRep's votes cast in an epoch (on proposals of that epoch and the three before), ascending. */
  const seatVotesCastIn = (s: Seat, hex: string, e: number, tip: number): Vote[] => {
    // The epoch's votes do not depend on the tip, which only hides those above it: made once, the
    // current epoch's too, rather than again at every block.
    const all = memo(closedEpochs, `drep|${hex}|${e}`, () => {
      const out: Vote[] = [];
      for (let pe = e - (VOTED_EPOCHS - 1); pe <= e; pe++) for (const p of worldProposals(pe)) for (const v of seatVotes(s, p)) if (v.voterHex === hex && epochOf(v.height) === e) out.push(v);
      return out.sort(sortKey);
    }, 65536);
    return all.length > 0 && all[all.length - 1]!.height > tip ? all.filter((v) => v.height <= tip) : all;
  };

  const drepState = (d: Drep) => {
    const tip = ctx.tip();
    const epoch = epochOf(tip);
    const reg = registeredIn(d.events, tip);
    const lastActive = lastActiveEpoch(d, tip);
    return {
      registered: reg !== null,
      registrationEpoch: reg ? epochOf(reg.height) : null,
      lastActive,
      expired: reg !== null && lastActive !== null && epoch - lastActive > g.ctx.protocol.drepActivity,
      amount: reg ? amountOf(d.id) : 0n,
    };
  };
  const latestAnchor = (d: Drep): DrepEvent | null => {
    const tip = ctx.tip();
    let out: DrepEvent | null = null;
    for (const e of d.events) if (e.height <= tip && (e.action === 'registered' || e.action === 'updated')) out = e;
    return out && (out.anchor || out.content) ? out : null;
  };
  return { seatVotesCastIn, drepState, latestAnchor };
}
type GovActive = GovDelegated & ReturnType<typeof drepActivity>;

/** A proposal by its reference, world or live, and its status as of an epoch (the ledger's validation reads it too). */
function proposalLookup(g: GovActive) {
  const { ctx, epochOf, findWorldProposal, statusAt, live } = g;
  const proposalByRef = (txHash: string, index: number): Proposal | null => {
    const tip = ctx.tip();
    const l = live().proposals.find((p) => p.txHash === txHash && p.index === index);
    if (l) return l;
    return findWorldProposal(txHash, index, tip);
  };
  const liveStatusAt = (p: Proposal, epoch: number): ProposalStatus => {
    const expiration = epochOf(p.height) + g.ctx.protocol.govActionLifetime;
    const ratified = g.genesisCommittee ? liveRatified(p, expiration) : null;
    const upTo = (x: number | null): number | null => (x !== null && x <= epoch ? x : null);
    if (ratified !== null) return { ratified: upTo(ratified), enacted: upTo(ratified + 1), dropped: null, expired: null, expiration };
    return { ratified: null, enacted: null, dropped: null, expired: expiration + 1 <= epoch ? expiration + 1 : null, expiration };
  };
  /**
   * On a chain with a genesis' committee, a submitted proposal is ratified in the epoch after the
   * first epoch (its own to its expiration) at whose end the votes cast so far pass, and enacted in
   * the epoch after that; null while it has not passed.
   */
  const liveRatified = (p: Proposal, expiration: number): number | null => {
    if (p.type === 'info_action') return null;
    const closed = epochOf(ctx.tip()) - 1;
    const votes = live().votes.filter((v) => v.actionTx === p.txHash && v.actionIndex === p.index);
    for (let e = epochOf(p.height); e <= Math.min(expiration, closed); e++) if (livePasses(p, votes, e)) return e + 1;
    return null;
  };
  /** Whether a submitted proposal's votes cast up to the end of epoch `e` pass each body that votes on it. */
  const livePasses = (p: Proposal, votes: LiveState['votes'], e: number): boolean => {
    const end = (e + 1) * g.bpe - 1;
    const latest = new Map<string, VoteValue>();
    for (const v of votes) if (v.height <= end) latest.set(`${v.role}|${v.voterHex}`, v.vote);
    // DReps and pools: the share of yes among the yes and no votes, as the world's proposals count them.
    const share = (role: VoterRole): number => {
      let yes = 0;
      let no = 0;
      for (const [k, vote] of latest) if (k.startsWith(`${role}|`)) [yes, no] = vote === 'yes' ? [yes + 1, no] : vote === 'no' ? [yes, no + 1] : [yes, no];
      return yes + no === 0 ? 0 : yes / (yes + no);
    };
    if (share('drep') < DREP_THRESHOLD[p.type]) return false;
    if (mayVote('spo', p) && share('spo') < POOL_THRESHOLD) return false;
    if (!mayVote('constitutional_committee', p)) return true;
    // The committee: yes votes among its active members (authorized, not resigned, within their term)
    // that do not abstain; a member that does not vote counts as no.
    let yes = 0;
    let counted = 0;
    for (let m = 0; m < g.size; m++) {
      const { hot } = g.memberAt(live(), m, end);
      if (hot === null || g.expiryOf(m, e) < e) continue;
      const vote = latest.get(`constitutional_committee|${hot}`);
      if (vote === 'abstain') continue;
      counted++;
      if (vote === 'yes') yes++;
    }
    return counted > 0 && yes * g.quorum.denominator >= g.quorum.numerator * counted;
  };
  const proposalStatus = (p: Proposal, epoch: number): ProposalStatus => (p.world ? statusAt(p, epoch) : liveStatusAt(p, epoch));
  return { proposalByRef, liveStatusAt, proposalStatus };
}
type GovProposals = GovActive & ReturnType<typeof proposalLookup>;

/** The validation of submitted governance (ledger.ts calls it). */
function submittedCheck(g: GovProposals) {
  const { ctx, epochOf, seats, seatHex, seatCycleAt, coldHex, hotAt, findWorldProposal, liveStateOf, proposalStatus, memberAt, genesisCommittee, size } = g;
  const check = (tx: LiveTx, accepted: readonly LiveTx[], height: number): string | null => {
    const pending = liveStateOf([...accepted, tx], () => 0);
    const before = liveStateOf(accepted, () => 0);
    const epoch = epochOf(height);
    const worldDrepAt = (hex: string, h: number): boolean => seats.some((s) => {
      const c = seatCycleAt(s, h);
      return c !== null && seatHex(s, c) === hex;
    });
    const liveRegistered = (state: LiveState, hex: string): DrepEvent | null => {
      const d = state.dreps.get(hex);
      if (!d) return null;
      let reg: DrepEvent | null = null;
      for (const e of d.events) reg = e.action === 'registered' ? e : e.action === 'deregistered' ? null : reg;
      return reg;
    };
    // Certificates take effect in order within the transaction.
    const own = new Map<string, DrepEvent | null>();
    const registeredNow = (hex: string): DrepEvent | 'world' | null => {
      if (own.has(hex)) return own.get(hex)!;
      return liveRegistered(before, hex) ?? (worldDrepAt(hex, height) ? 'world' : null);
    };
    for (const c of tx.govCerts) {
      const at = `Certificate ${c.certIndex}`;
      if (c.kind === 'committee_hot_auth' || c.kind === 'committee_resignation') {
        const member = Array.from({ length: size }, (_, m) => m).find((m) => coldHex(m) === c.coldHex);
        if (member === undefined) return `${at}: ${ccColdId(c.coldHex!)} is not a member of the constitutional committee.`;
        // Only the world's members' cold keys (held by no one) could sign this far.
        if (!genesisCommittee) return `${at}: the sandbox does not model changes to the keys of committee member ${ccColdId(c.coldHex!)}.`;
        if (memberAt(before, member, Infinity).resigned) return `${at}: committee member ${ccColdId(c.coldHex!)} has resigned.`;
        continue;
      }
      if (c.kind === 'vote_delegation') {
        const t = c.drep!;
        if (typeof t !== 'string' && registeredNow(t.hex) === null) return `${at}: the DRep ${drepId(t.hex, t.script)} is not registered.`;
        continue;
      }
      const target = c.drep as { hex: string; script: boolean };
      const id = drepId(target.hex, target.script);
      const reg = registeredNow(target.hex);
      if (c.kind === 'drep_registration') {
        if (reg !== null) return `${at}: the DRep ${id} is already registered.`;
        own.set(target.hex, { txHash: tx.hash, certIndex: c.certIndex, height, order: 0, action: 'registered', deposit: c.deposit!, anchor: null, content: null });
      } else if (reg === null) {
        return `${at}: the DRep ${id} is not registered.`;
      } else if (c.kind === 'drep_deregistration') {
        const paid = reg === 'world' ? g.ctx.protocol.drepDeposit : reg.deposit!;
        if (c.deposit !== paid) return `${at}: the refund of ${id} must be its deposit, ${paid} lovelace, not ${c.deposit}.`;
        own.set(target.hex, null);
      }
    }
    for (const v of tx.votes) {
      const at = `Vote ${v.index}`;
      const p = pending.proposals.find((x) => x.txHash === v.actionTx && x.index === v.actionIndex) ?? findWorldProposal(v.actionTx, v.actionIndex, ctx.tip());
      const action = govActionId(v.actionTx, v.actionIndex);
      if (!p) return `${at}: the governance action ${action} does not exist.`;
      const s = proposalStatus(p, epoch);
      if (s.ratified !== null || s.enacted !== null || s.dropped !== null || s.expired !== null || epoch > s.expiration) return `${at}: the governance action ${action} is no longer open for votes.`;
      if (!mayVote(v.role, p)) return `${at}: a ${v.role === 'spo' ? 'stake pool' : 'committee member'} may not vote on this ${p.type.replace(/_/g, ' ')} action.`;
      if (v.role === 'drep' && registeredNow(v.voterHex) === null) return `${at}: the DRep ${drepId(v.voterHex, false)} is not registered.`;
      if (v.role === 'spo' && !ctx.pools.some((x) => x.hex === v.voterHex)) return `${at}: the pool ${v.voterHex} is not registered on this chain.`;
      const hotKeys = genesisCommittee ? Array.from({ length: size }, (_, m) => memberAt(pending, m, Infinity).hot) : Array.from({ length: size }, (_, m) => hotAt(m, epoch));
      if (v.role === 'constitutional_committee' && !hotKeys.includes(v.voterHex)) {
        return `${at}: ${ccHotId(v.voterHex)} is not the hot key of a committee member.`;
      }
    }
    for (const p of tx.proposals) {
      const at = `Proposal ${p.index}`;
      if (p.type === 'treasury_withdrawals' && (p.withdrawals.length === 0 || p.withdrawals.every((w) => w.amount === 0n))) return `${at}: a treasury withdrawal must withdraw something.`;
      if (p.type === 'parameter_change' && Object.keys(p.parameters ?? {}).length === 0) return `${at}: a parameter change must change a parameter the sandbox knows.`;
    }
    return null;
  };
  return { check };
}

/**
 * The governance model of the chain: the world's seats, committee, proposals and votes, their
 * ratification, the live layer, and the validation of submitted governance (`check`, which ledger.ts
 * calls). The accounts read a stake address's DRep from it (`drepOfStake`), and
 * resources/governance/queries.ts answers /governance from it in Blockfrost's shapes.
 */
export function createGovernance(ctx: GovContext) {
  const base = govBase(ctx);
  const withLive = Object.assign(base, drepSeats(base), liveLayer(base));
  const seated = Object.assign(withLive, committeeKeys(withLive));
  const world: GovWorld = Object.assign(seated, worldProposalsOf(base));
  const voted = Object.assign(world, worldVotes(world));
  const counted = Object.assign(voted, voteCounts(voted));
  const ratified = Object.assign(counted, ratification(counted));
  const withDreps = Object.assign(ratified, drepRegistry(ratified));
  const delegated = Object.assign(withDreps, voteDelegation(withDreps));
  const active = Object.assign(delegated, drepActivity(delegated));
  const proposals = Object.assign(active, proposalLookup(active));
  return Object.assign(proposals, submittedCheck(proposals));
}

export type Governance = ReturnType<typeof createGovernance>;

// /governance (and /pools/{pool_id}/votes): DReps, the committee, proposals and votes in
// Blockfrost's shapes, answered from the chain's governance model (../../gov.ts: the world's seats,
// committee, proposals and votes, their ratification and the live layer, which the ledger's
// validation and the accounts read too). Lists are built epoch by epoch, only as far as the page
// asked for needs.
import type { ChainContext } from '../../context';
import type { PageRequest as Page } from '../../../../blockfrost/http';
import { spent } from '../../budget';
import { mergedPage } from '../../merged-page';
import {
  DREP_ALWAYS_ABSTAIN,
  DREP_ALWAYS_NO_CONFIDENCE,
  PROPOSALS_PER_EPOCH,
  VOTED_EPOCHS,
  VOTES_PER_EPOCH,
  ccColdId,
  ccHotId,
  govActionId,
  parseCcId,
  parseDrepId,
  type Drep,
  type DrepEvent,
  type Governance,
  type Proposal,
  type Vote,
} from '../../gov';

/** The chain's queries behind /governance. */
export interface GovernanceQueries {
  /** Conway governance: DReps, the committee, proposals and votes. */
  governance(): GovernanceAnswers;
}

export function governancePaths(ctx: ChainContext): GovernanceQueries {
  const answers = governanceAnswers(ctx.governance);
  return { governance: () => answers };
}

/** Every answer of /governance, built once per chain (each part keeps its own caches). */
function governanceAnswers(model: Governance) {
  const lists: GovLists = { ...model, ...voteLists(model) };
  const rows: GovRows = { ...lists, ...answerRows(lists) };
  return {
    ...drepAnswers(rows),
    ...committeeAnswers(rows),
    ...proposalAnswers(rows),
    deepPagesRead: lists.deepPagesRead,
  };
}

export type GovernanceAnswers = ReturnType<typeof governanceAnswers>;

/** Every parameter of a proposal's /parameters answer (Blockfrost's names); those it does not change are null. */
const PARAMETER_FIELDS = [
  'epoch',
  'min_fee_a',
  'min_fee_b',
  'max_block_size',
  'max_tx_size',
  'max_block_header_size',
  'key_deposit',
  'pool_deposit',
  'e_max',
  'n_opt',
  'a0',
  'rho',
  'tau',
  'decentralisation_param',
  'extra_entropy',
  'protocol_major_ver',
  'protocol_minor_ver',
  'min_utxo',
  'min_pool_cost',
  'cost_models',
  'price_mem',
  'price_step',
  'max_tx_ex_mem',
  'max_tx_ex_steps',
  'max_block_ex_mem',
  'max_block_ex_steps',
  'max_val_size',
  'collateral_percent',
  'max_collateral_inputs',
  'coins_per_utxo_size',
  'coins_per_utxo_word',
  'pvt_motion_no_confidence',
  'pvt_committee_normal',
  'pvt_committee_no_confidence',
  'pvt_hard_fork_initiation',
  'dvt_motion_no_confidence',
  'dvt_committee_normal',
  'dvt_committee_no_confidence',
  'dvt_update_to_constitution',
  'dvt_hard_fork_initiation',
  'dvt_p_p_network_group',
  'dvt_p_p_economic_group',
  'dvt_p_p_technical_group',
  'dvt_p_p_gov_group',
  'dvt_treasury_withdrawal',
  'committee_min_size',
  'committee_max_term_length',
  'gov_action_lifetime',
  'gov_action_deposit',
  'drep_deposit',
  'drep_activity',
  'pvtpp_security_group',
  'pvt_p_p_security_group',
  'min_fee_ref_script_cost_per_byte',
];

/**
 * Epochs a page walks from an end of its list before it reads the list's running counts, beyond one
 * for every WALK_COST epochs the counts still lack (a walked epoch makes its proposals and votes,
 * about what counting a hundred epochs costs): a sparse list's first pages (a pool's votes, some
 * three epochs a vote) walk rather than count its whole history.
 */
const WALKED_EPOCHS = 64;
const WALK_COST = 100;
/** Epochs counted between two looks at the time slice (budget.ts): some 0.3 ms of a list's counting. */
const COUNTED_AT_ONCE = 1024;

/** A list whose deep pages find their epochs by its running counts: its name, and its world items of each epoch from..to, counted without making them. */
interface CountedList {
  name: string;
  countsAt: (from: number, to: number) => Uint32Array;
}

/** Epochs between two running totals a list's counts keep (RunningCounts). */
const TOTAL_EVERY = 32;

/** Blocks of TOTAL_EVERY epochs whose own counts a list's running counts keep, counted again as pages ask (RunningCounts). */
const BLOCKS_KEPT = 64;

/**
 * A list's running counts: the items of its first k epochs for every k, kept as the running total
 * every TOTAL_EVERY epochs (0.125 bytes an epoch: some 0.3 MB for a default chain's 26 lists, 6 MB
 * for a history of 2 million epochs). The epochs between two totals are counted again from the
 * draws when a page asks (`countsAt`: a few microseconds for 32 epochs), the last BLOCKS_KEPT
 * blocks of them kept, so a page's binary searches count each block they visit once.
 */
class RunningCounts {
  private totals = new Uint32Array(4);
  private total = 0;
  /** Each epoch's own count in the blocks read last, by the block's first epoch (entry 0: from). */
  private readonly blocks = new Map<number, Uint32Array>();
  /** Epochs counted, plus one (entry 0: no epoch, no item). */
  length = 1;
  constructor(
    private readonly from: number,
    private readonly countsAt: (from: number, to: number) => Uint32Array,
  ) {}
  at(k: number): number {
    const base = k - (k % TOTAL_EVERY);
    let n = this.totals[base / TOTAL_EVERY]!;
    if (k === base) return n;
    let own = this.blocks.get(base);
    if (!own || own.length < k - base) {
      // The block's counted epochs (the last block may be counted in part).
      own = this.countsAt(this.from + base, this.from + Math.min(base + TOTAL_EVERY, this.length - 1) - 1);
      this.blocks.set(base, own);
      if (this.blocks.size > BLOCKS_KEPT) this.blocks.delete(this.blocks.keys().next().value!);
    }
    for (let e = 0; e < k - base; e++) n += own[e]!;
    return n;
  }
  /** Appends the next epochs, given each one's own count. */
  extend(epochCounts: Uint32Array): void {
    const counted = this.length - 1;
    const totalsNeeded = Math.floor((counted + epochCounts.length) / TOTAL_EVERY) + 1;
    if (totalsNeeded > this.totals.length) {
      const totals = new Uint32Array(Math.max(this.totals.length * 2, totalsNeeded));
      totals.set(this.totals);
      this.totals = totals;
    }
    for (let i = 0; i < epochCounts.length; i++) {
      const e = counted + i;
      this.total += epochCounts[i]!;
      if ((e + 1) % TOTAL_EVERY === 0) this.totals[(e + 1) / TOTAL_EVERY] = this.total;
    }
    this.length += epochCounts.length;
  }
}

/**
 * Deep pages of a list built epoch by epoch: the list's world items counted per closed epoch once
 * (running counts kept per list, extended as epochs close, in time slices: budget.ts), so a page
 * finds its epochs by binary search and computes only them, merged with the live items by place.
 */
function epochIndexedPage(g: Governance) {
  const { ctx, epochOf, sortKey } = g;
  const running = new Map<string, RunningCounts>();
  /** Whether a deep page has counted a list's epochs: a list some client pages through. */
  let deepRead = false;
  /** Items of the list in epochs from..from+k−1 for every k up to the last closed epoch. */
  const runningOf = (list: string, from: number, countsAt: CountedList['countsAt']): RunningCounts => {
    let counts = running.get(list);
    if (!counts) {
      counts = new RunningCounts(from, countsAt);
      running.set(list, counts);
      if (running.size > 64) running.delete(running.keys().next().value!);
    }
    return counts;
  };
  const runningCounts = (list: string, from: number, closed: number, countsAt: CountedList['countsAt'], byPage: boolean): RunningCounts => {
    const counts = runningOf(list, from, countsAt);
    // A page that counts many epochs pages through the history: from then on prepare() counts ahead.
    if (byPage && closed - (from + counts.length - 1) >= WALKED_EPOCHS) deepRead = true;
    for (let e = from + counts.length - 1; e <= closed; e = from + counts.length - 1) {
      counts.extend(countsAt(e, Math.min(closed, e + COUNTED_AT_ONCE - 1)));
      spent();
    }
    return counts;
  };
  // Items of equal place in an epoch: a descending page lists them in the epoch's own order.
  const tieFlipped = <T extends { height: number; order: number }>(items: T[], j: number): T => {
    let first = j;
    let last = j;
    while (first > 0 && sortKey(items[first - 1]!, items[j]!) === 0) first--;
    while (last < items.length - 1 && sortKey(items[last + 1]!, items[j]!) === 0) last++;
    return items[first + last - j]!;
  };
  /** Closed epochs the list has not counted yet. */
  const uncounted = (list: string, from: number, closed: number): number => Math.max(0, closed - from + 2 - (running.get(list)?.length ?? 1));
  const indexedPage = <T extends { height: number; order: number }>(list: CountedList, page: Page, from: number, to: number, worldAt: (epoch: number) => T[], liveItems: T[]): T[] => {
    const closed = Math.min(to, epochOf(ctx.tip()) - 1);
    const counts = runningCounts(`${list.name}|${from}`, from, closed, list.countsAt, true);
    const closedTotal = counts.at(Math.max(0, closed - from + 1));
    const open: T[] = [];
    for (let e = Math.max(from, closed + 1); e <= to; e++) open.push(...worldAt(e));
    const pick = page.order === 'desc' ? tieFlipped : <U>(items: U[], j: number): U => items[j]!;
    const at = (i: number): T => {
      if (i >= closedTotal) return pick(open, i - closedTotal);
      // The last epoch whose running count is not above i holds item i.
      let lo = 0;
      let hi = closed - from + 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if (counts.at(mid) <= i) lo = mid;
        else hi = mid;
      }
      return pick(worldAt(from + lo), i - counts.at(lo));
    };
    return mergedPage(closedTotal + open.length, at, liveItems, page, sortKey);
  };
  /** Counts a list's closed epochs ahead of its deep pages (the running counts those pages read). */
  const countAhead = (list: CountedList, from: number, closed: number): void => {
    if (closed >= from) runningCounts(`${list.name}|${from}`, from, closed, list.countsAt, false);
  };
  /**
   * Counts several lists' closed epochs ahead together, `countsAt` giving each one's counts of the
   * same epochs at once (the pools': a proposal's draws made once for all): from the list counted
   * least far, each list taking the epochs it lacks.
   */
  const countAheadTogether = (lists: CountedList[], countsAt: (from: number, to: number) => Uint32Array[], from: number, closed: number): void => {
    const all = lists.map((l) => runningOf(`${l.name}|${from}`, from, l.countsAt));
    for (;;) {
      const e = Math.min(...all.map((c) => from + c.length - 1));
      if (e > closed) return;
      const to = Math.min(closed, e + COUNTED_AT_ONCE - 1);
      const counted = countsAt(e, to);
      all.forEach((c, i) => {
        const own = from + c.length - 1;
        if (own <= to) c.extend(counted[i]!.subarray(own - e));
      });
      spent();
    }
  };
  return { uncounted, page: indexedPage, countAhead, countAheadTogether, read: (): boolean => deepRead };
}

/** Votes and proposals, world and live, ordered by height and paged epoch by epoch, and the votes that count. */
function voteLists(g: Governance) {
  const { ctx, bpe, epochOf, sortKey, votesOnWorld, countedVotes, statusOf, resolution, live, findDrep, proposalByRef, liveStatusAt, proposalStatus } = g;
  const liveVotes = (): Vote[] => {
    const out: Vote[] = [];
    for (const v of live().votes) {
      const p = proposalByRef(v.actionTx, v.actionIndex);
      if (p) out.push({ ...v, proposal: p });
    }
    return out;
  };

  /**
   * A page of an ordered stream built epoch by epoch (world) and merged with a few live items: only
   * the epochs the page needs are computed, from the first epoch (asc) or from the tip (desc). A
   * page of a counted list (`list`) that the walk does not reach within WALKED_EPOCHS (and WALK_COST) is found
   * through the list's running counts instead (epochIndexedPage): the first such page counts the
   * list's epochs from the draws alone (some 20 ms for 100,000 epochs of the committee's votes, a
   * hundred times less than making them), the next ones find their epochs at once.
   */
  const pageOf = <T extends { height: number; order: number }>(
    page: { count: number; page: number; order: 'asc' | 'desc' },
    fromEpoch: number,
    toEpoch: number,
    worldAt: (epoch: number) => T[],
    liveItems: T[],
    perEpoch: number,
    list?: CountedList,
  ): T[] => {
    // A page past what the epochs could hold at most is empty without computing one of them.
    if ((page.page - 1) * page.count >= Math.max(0, toEpoch - fromEpoch + 1) * perEpoch + liveItems.length) return [];
    const need = page.count * page.page;
    const world: T[] = [];
    const desc = page.order === 'desc';
    let i = 0;
    // A list counted through its last closed epoch (prepare() counts the committee's ahead) computes
    // only the epochs of the page; one not counted yet walks the epochs from its near end that hold
    // the page, when they are few (counted first, not made), and otherwise counts its history.
    const closed = Math.min(toEpoch, epochOf(ctx.tip()) - 1);
    const uncounted = list === undefined ? Infinity : indexed.uncounted(`${list.name}|${fromEpoch}`, fromEpoch, closed);
    const walkable = uncounted === 0 ? 0 : list === undefined ? Infinity : epochsHolding(list, need, fromEpoch, toEpoch, closed, desc, WALKED_EPOCHS + Math.floor(uncounted / WALK_COST));
    for (; i <= toEpoch - fromEpoch && world.length < need && i < walkable; i++) {
      const items = worldAt(desc ? toEpoch - i : fromEpoch + i);
      world.push(...(desc ? items.slice().reverse() : items));
      spent();
    }
    if (list !== undefined && world.length < need && i <= toEpoch - fromEpoch) return indexed.page(list, page, fromEpoch, toEpoch, worldAt, liveItems);
    const merged = [...world, ...liveItems].sort(sortKey);
    if (desc) merged.reverse();
    return merged.slice((page.page - 1) * page.count, page.page * page.count);
  };

  const indexed = epochIndexedPage(g);
  /**
   * How many epochs from the page's end of a list (the first, or with `desc` the last) hold `need`
   * of its world items, from their counts (an open epoch's, above `closed`, taken as none: the walk
   * reads what it shows); 0 when more than `limit` would (the page then reads the running counts),
   * and every epoch when the list holds fewer.
   */
  const epochsHolding = (list: CountedList, need: number, from: number, to: number, closed: number, desc: boolean, limit: number): number => {
    const epochs = to - from + 1;
    let held = 0;
    for (let k = 0; k < Math.min(limit, epochs); k += COUNTED_AT_ONCE) {
      const n = Math.min(COUNTED_AT_ONCE, limit - k, epochs - k);
      const [a, b] = desc ? [to - k - n + 1, to - k] : [from + k, from + k + n - 1];
      const counts = list.countsAt(a, b);
      for (let j = 0; j < n; j++) {
        const e = desc ? b - j : a + j;
        if (e <= closed) held += counts[e - a]!;
        if (held >= need) return k + j + 1;
      }
    }
    return limit < epochs ? 0 : epochs;
  };

  const votesOnProposal = (p: Proposal): Vote[] => {
    const tip = ctx.tip();
    const status = proposalStatus(p, epochOf(tip));
    const stop = status.dropped !== null ? status.dropped * bpe : Infinity;
    const world = p.world ? votesOnWorld(p).filter((v) => v.height <= tip && v.height < stop) : [];
    return [...world, ...liveVotes().filter((v) => v.proposal === p)].sort(sortKey);
  };
  const countedOn = (p: Proposal, votes: Vote[]): Set<Vote> => {
    const tip = ctx.tip();
    const full = p.world ? statusOf(p) : liveStatusAt(p, Infinity);
    const boundary = Math.min(resolution(full), epochOf(p.height) + 4) * bpe;
    const retired = (hex: string, before: number): boolean =>
      (findDrep({ hex, script: null })?.events ?? []).some((e) => e.action === 'deregistered' && e.height < before && e.height <= tip);
    return countedVotes(votes, boundary, retired);
  };
  return { liveVotes, pageOf, votesOnProposal, countedOn, countAhead: indexed.countAhead, countAheadTogether: indexed.countAheadTogether, deepPagesRead: indexed.read };
}
type GovLists = Governance & ReturnType<typeof voteLists>;

/** Rows and objects in Blockfrost's shapes. */
function answerRows(g: GovLists) {
  const { ctx, epochOf, amountOf, drepState, latestAnchor, proposalStatus } = g;
  const slice = <T>(items: T[], page: Page): T[] => (page.order === 'desc' ? items.slice().reverse() : items).slice((page.page - 1) * page.count, page.page * page.count);

  const drepListItem = (d: Drep) => {
    const s = drepState(d);
    const anchor = latestAnchor(d);
    return {
      drep_id: d.id,
      hex: d.hex,
      amount: String(s.amount),
      has_script: d.script,
      retired: !s.registered,
      expired: s.expired,
      last_active_epoch: s.lastActive,
      metadata: anchor ? metadataOf(anchor) : null,
    };
  };
  const metadataOf = (e: DrepEvent) => {
    const c = e.content?.();
    return c
      ? { url: c.url, hash: c.hash, json_metadata: c.json, bytes: c.bytes }
      : { url: e.anchor!.url, hash: e.anchor!.hash, json_metadata: null, bytes: null, error: { code: 'CONNECTION_ERROR' as const, message: 'The sandbox chain does not fetch off-chain metadata.' } };
  };
  const special = (which: 'abstain' | 'no_confidence') => {
    const id = which === 'abstain' ? DREP_ALWAYS_ABSTAIN : DREP_ALWAYS_NO_CONFIDENCE;
    return { drep_id: id, hex: '', amount: String(amountOf(id)), has_script: false, retired: false, expired: false, last_active_epoch: null };
  };
  const voteRow = (v: Vote) => ({ tx_hash: v.txHash, cert_index: v.certIndex, proposal_id: govActionId(v.proposal.txHash, v.proposal.index), proposal_tx_hash: v.proposal.txHash, proposal_cert_index: v.proposal.index, vote: v.vote });
  const committeeVoteRow = (v: Vote) => ({
    tx_hash: v.txHash, voter_hot_id: v.voter, proposal_id: govActionId(v.proposal.txHash, v.proposal.index), proposal_tx_hash: v.proposal.txHash,
    proposal_index: v.proposal.index, governance_type: v.proposal.type, vote: v.vote, metadata_url: v.anchor?.url ?? null, metadata_hash: v.anchor?.hash ?? null,
    block_height: v.height, block_time: ctx.timeOf(v.height),
  });
  const proposalObject = (p: Proposal) => {
    const s = proposalStatus(p, epochOf(ctx.tip()));
    return {
      id: govActionId(p.txHash, p.index), tx_hash: p.txHash, cert_index: p.index, governance_type: p.type,
      governance_description: p.description as Record<string, unknown> | null, deposit: String(p.deposit), return_address: p.returnAddress,
      ratified_epoch: s.ratified, enacted_epoch: s.enacted, dropped_epoch: s.dropped, expired_epoch: s.expired, expiration: s.expiration,
    };
  };
  return { slice, drepListItem, metadataOf, special, voteRow, committeeVoteRow, proposalObject };
}
type GovRows = GovLists & ReturnType<typeof answerRows>;

/** /governance/dreps and each DRep's delegators, metadata, updates and votes. */
function drepAnswers(g: GovRows) {
  const { ctx, epochOf, seats, regHeight, retHeight, dreps, findDrep, registeredDrep, power, seatVotesCastIn, drepState, latestAnchor, liveVotes, pageOf, slice, drepListItem, metadataOf, special, voteRow } = g;
  let rowCache: { tip: number; count: number; rows: Array<ReturnType<typeof drepListItem> | (ReturnType<typeof special> & { metadata: null })> } | undefined;

  return {
    dreps(page: Page, filter: { retired?: boolean; expired?: boolean; byAmount?: boolean }) {
      const tip = ctx.tip();
      const count = ctx.live().length;
      if (!rowCache || rowCache.tip !== tip || rowCache.count !== count) {
        rowCache = { tip, count, rows: [{ ...special('abstain'), metadata: null }, { ...special('no_confidence'), metadata: null }, ...dreps().list.map(drepListItem)] };
      }
      let rows = rowCache.rows;
      if (filter.retired !== undefined) rows = rows.filter((r) => r.retired === filter.retired);
      if (filter.expired !== undefined) rows = rows.filter((r) => r.expired === filter.expired);
      if (filter.byAmount) rows = rows.map((r, i) => ({ r, i })).sort((a, b) => (BigInt(a.r.amount) < BigInt(b.r.amount) ? -1 : BigInt(a.r.amount) > BigInt(b.r.amount) ? 1 : a.i - b.i)).map((x) => x.r);
      return slice(rows, page);
    },
    drep(text: string) {
      const id = parseDrepId(text);
      if (id === null) return undefined;
      if (id === 'abstain' || id === 'no_confidence') return { ...special(id), active: true, active_epoch: null };
      const d = findDrep(id);
      if (!d) return null;
      const s = drepState(d);
      return {
        drep_id: d.id, hex: d.hex, amount: String(s.amount), active: s.registered, active_epoch: s.registrationEpoch, has_script: d.script,
        retired: !s.registered, expired: s.expired, last_active_epoch: s.lastActive,
      };
    },
    drepDelegators(text: string, page: Page) {
      const id = parseDrepId(text);
      if (id === null) return undefined;
      const key = id === 'abstain' ? DREP_ALWAYS_ABSTAIN : id === 'no_confidence' ? DREP_ALWAYS_NO_CONFIDENCE : findDrep(id)?.id;
      if (!key) return null;
      return slice((power().get(key) ?? []).map((d) => ({ address: d.address, amount: String(d.amount) })), page);
    },
    drepMetadata(text: string) {
      const d = registeredDrep(text);
      if (d === undefined) return undefined;
      const anchor = d ? latestAnchor(d) : null;
      return d && anchor ? { drep_id: d.id, hex: d.hex, ...metadataOf(anchor) } : null;
    },
    drepUpdates(text: string, page: Page) {
      const d = registeredDrep(text);
      if (!d) return d;
      const tip = ctx.tip();
      return slice(d.events.filter((e) => e.height <= tip).map((e) => ({ tx_hash: e.txHash, cert_index: e.certIndex, action: e.action, deposit: e.deposit === null ? null : String(e.deposit) })), page);
    },
    drepVotes(text: string, page: Page) {
      const d = registeredDrep(text);
      if (!d) return d;
      const tip = ctx.tip();
      const liveItems = liveVotes().filter((v) => v.role === 'drep' && v.voterHex === d.hex);
      if (!d.seat) return pageOf(page, 1, 0, () => [], liveItems, 0).map(voteRow);
      const s = seats[d.seat.slot]!;
      const ret = retHeight(s, d.seat.cycle);
      const worldAt = (e: number): Vote[] => seatVotesCastIn(s, d.hex, e, tip);
      return pageOf(page, Math.max(1, epochOf(regHeight(s, d.seat.cycle))), epochOf(Math.min(tip, ret ?? tip)), worldAt, liveItems, VOTES_PER_EPOCH).map(voteRow);
    },
  };
}

/** /governance/committee and the committee's votes. */
function committeeAnswers(g: GovRows) {
  const { ctx, epochOf, sortKey, epochVotes, coldHex, hotOwner, worldProposals, memberVotes, committeeCastCounts, liveVotes, pageOf, countAhead, committeeVoteRow, size, quorum, memberAt, expiryOf, genesisCommittee, live } = g;
  /** The world's votes of the committee (one member, or one hot key of it) cast in an epoch, up to the tip. */
  const committeeWorldAt = (member: number | null, hotOnly: string | null, tip: number) => (e: number): Vote[] =>
    epochVotes(`cc|${member ?? 'all'}|${hotOnly ?? ''}`, e, () => {
      const out: Vote[] = [];
      for (let pe = e - (VOTED_EPOCHS - 1); pe <= e; pe++) {
        for (const p of worldProposals(pe)) {
          for (let m = 0; m < size; m++) {
            if (member !== null && m !== member) continue;
            for (const v of memberVotes(m, p)) if (epochOf(v.height) === e && v.height <= tip && (hotOnly === null || v.voterHex === hotOnly)) out.push(v);
          }
        }
      }
      return out.sort(sortKey);
    });
  const committeeList = (member: number | null, hotOnly: string | null): CountedList => ({
    name: `cc|${member ?? 'all'}|${hotOnly ?? ''}`,
    countsAt: (from, to) => committeeCastCounts(member, hotOnly, from, to),
  });
  return {
    /**
     * Counts the committee's votes of the closed epochs not counted yet (in time slices, budget.ts),
     * as the first deep page of /governance/committee/votes would: then no page of it counts.
     */
    countCommitteeVotesAhead() {
      const tip = ctx.tip();
      countAhead(committeeList(null, null), 1, epochOf(tip) - 1);
    },
    committee() {
      const tip = ctx.tip();
      const epoch = epochOf(tip);
      return {
        gov_action_id: null, proposal_tx_hash: null, proposal_index: null, is_dissolved: false, quorum: { numerator: quorum.numerator, denominator: quorum.denominator },
        members: Array.from({ length: size }, (_, m) => {
          const { hot, resigned } = memberAt(live(), m, tip);
          const status = hot ? 'authorized' : resigned ? 'resigned' : 'not_authorized';
          return {
            cc_cold_id: ccColdId(coldHex(m)), cc_cold_hex: coldHex(m), cc_cold_has_script: genesisCommittee?.members[m]!.script ?? false,
            cc_hot_id: hot ? ccHotId(hot) : null, cc_hot_hex: hot, cc_hot_has_script: hot ? false : null, status, expiration_epoch: expiryOf(m, epoch),
          };
        }),
      };
    },
    /** Votes of the committee (all members, or the hot or cold credential given), as rows without block_time (the caller adds it). */
    committeeVotes(page: Page, cc?: string) {
      const tip = ctx.tip();
      let member: number | null = null;
      let hotOnly: string | null = null;
      let from = 1;
      let to = epochOf(tip);
      if (cc !== undefined) {
        const parsed = parseCcId(cc);
        if (!parsed) return undefined;
        if (parsed.kind === 'cold') {
          member = Array.from({ length: size }, (_, m) => m).find((m) => coldHex(m) === parsed.hex) ?? null;
        } else {
          const owner = hotOwner(parsed.hex, epochOf(tip));
          member = owner?.member ?? null;
          hotOnly = parsed.hex;
          // A hot key votes only during its term (and up to three epochs after, on the term's last proposals).
          if (owner && !genesisCommittee) [from, to] = [Math.max(1, owner.term * ctx.protocol.committeeMaxTermLength), Math.min(to, (owner.term + 1) * ctx.protocol.committeeMaxTermLength + 3)];
        }
        if (member === null) return [];
      }
      const worldAt = committeeWorldAt(member, hotOnly, tip);
      // A genesis' member votes with the hot keys it authorized.
      const memberHots = genesisCommittee && member !== null && hotOnly === null ? new Set(live().committee.filter((e) => e.coldHex === coldHex(member!)).map((e) => e.hotHex)) : null;
      const liveItems = liveVotes().filter((v) => v.role === 'constitutional_committee' && (hotOnly === null || v.voterHex === hotOnly) && (memberHots === null || memberHots.has(v.voterHex)));
      return pageOf(page, from, to, worldAt, liveItems, member === null ? size * VOTES_PER_EPOCH : VOTES_PER_EPOCH, committeeList(member, hotOnly)).map(committeeVoteRow);
    },
  };
}

/** /governance/proposals with each proposal's parameters, withdrawals, votes and metadata, and a pool's votes. */
function proposalAnswers(g: GovRows) {
  const { ctx, epochOf, sortKey, epochVotes, worldProposals, poolVotes, poolCastCounts, poolsCastCounts, proposalCounts, live, liveVotes, proposalByRef, pageOf, countAhead, countAheadTogether, votesOnProposal, countedOn, slice, proposalObject } = g;
  /** A pool's world votes cast in an epoch, up to the tip. */
  const poolWorldAt = (pool: (typeof ctx.pools)[number], tip: number) => (e: number): Vote[] =>
    epochVotes(`spo|${pool.hex}`, e, () => {
      const out: Vote[] = [];
      for (let pe = e - (VOTED_EPOCHS - 1); pe <= e; pe++) for (const p of worldProposals(pe)) for (const v of poolVotes(pool, p)) if (epochOf(v.height) === e && v.height <= tip) out.push(v);
      return out.sort(sortKey);
    });
  const poolList = (pool: (typeof ctx.pools)[number]): CountedList => ({ name: `spo|${pool.hex}`, countsAt: (from, to) => poolCastCounts(pool, from, to) });
  const proposalList: CountedList = { name: 'proposals', countsAt: proposalCounts };
  const proposalsAt = (tip: number) => (e: number): Proposal[] => worldProposals(e).filter((p) => p.height <= tip);
  return {
    /** Counts the proposals of the closed epochs not counted yet (in time slices), as the first deep page of /governance/proposals would. */
    countProposalsAhead() {
      const tip = ctx.tip();
      countAhead(proposalList, 1, epochOf(tip) - 1);
    },
    proposals(page: Page) {
      const tip = ctx.tip();
      const worldAt = proposalsAt(tip);
      return pageOf(page, 1, epochOf(tip), worldAt, live().proposals, PROPOSALS_PER_EPOCH, proposalList).map((p) => ({ id: govActionId(p.txHash, p.index), tx_hash: p.txHash, cert_index: p.index, governance_type: p.type }));
    },
    proposal: (txHash: string, index: number) => {
      const p = proposalByRef(txHash, index);
      return p ? proposalObject(p) : null;
    },
    proposalParameters(txHash: string, index: number) {
      const p = proposalByRef(txHash, index);
      if (!p || p.type !== 'parameter_change') return null;
      const parameters = Object.fromEntries(PARAMETER_FIELDS.map((name) => [name, p.parameters?.[name] ?? null]));
      return { id: govActionId(p.txHash, p.index), tx_hash: p.txHash, cert_index: p.index, parameters };
    },
    proposalWithdrawals(txHash: string, index: number, page: Page) {
      const p = proposalByRef(txHash, index);
      if (!p || p.type !== 'treasury_withdrawals') return null;
      return slice(p.withdrawals.map((w) => ({ stake_address: w.stakeAddress, amount: String(w.amount) })), page);
    },
    proposalVotes(txHash: string, index: number, page: Page) {
      const p = proposalByRef(txHash, index);
      if (!p) return null;
      const votes = votesOnProposal(p);
      const counted = countedOn(p, votes);
      return slice(votes, page).map((v) => ({ tx_hash: v.txHash, cert_index: v.certIndex, voter_role: v.role, voter: v.voter, vote: v.vote, counted: counted.has(v) }));
    },
    proposalMetadata(txHash: string, index: number) {
      const p = proposalByRef(txHash, index);
      const c = p?.content?.();
      if (!p || !c) return null;
      return { id: govActionId(p.txHash, p.index), tx_hash: p.txHash, cert_index: p.index, url: c.url, hash: c.hash, json_metadata: c.json, bytes: c.bytes };
    },
    /** Counts every pool's votes of the closed epochs not counted yet (in time slices), as the first deep page of each pool's /votes would. */
    countPoolVotesAhead() {
      const tip = ctx.tip();
      countAheadTogether(ctx.pools.map(poolList), (from, to) => poolsCastCounts(ctx.pools, from, to), 1, epochOf(tip) - 1);
    },
    poolVotes(poolHex: string, page: Page) {
      const pool = ctx.pools.find((p) => p.hex === poolHex);
      if (!pool) return null;
      const tip = ctx.tip();
      const worldAt = poolWorldAt(pool, tip);
      const liveItems = liveVotes().filter((v) => v.role === 'spo' && v.voterHex === poolHex);
      return pageOf(page, 1, epochOf(tip), worldAt, liveItems, VOTES_PER_EPOCH, poolList(pool)).map((v) => ({ tx_hash: v.txHash, cert_index: v.certIndex, vote: v.vote }));
    },
  };
}

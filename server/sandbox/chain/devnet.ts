// A devnet: a sandbox chain of its own, with its own genesis, that its owner steers. It is a
// SandboxChain (every path of the shared chains, the same routers) built by createSandboxChain
// from a DevnetState, which holds everything that rebuilds it (with its ledger entries in the store).
//
// Its time is the chain's own: the tip is the block of the chain's clock, as on the shared chains,
// but the clock runs from an anchor (DevnetState.clock) that the controls move. Producing blocks,
// travelling in time and restoring move the clock forward or back; pausing stops it; the block
// interval sets how fast it runs against the wall clock. Blocks keep the slots and times their
// genesis gives them (a block every genesis.blockIntervalMs of chain time, epochs of
// epochLength slots), so /genesis, /network/eras and /epochs always agree with the blocks.
//
// A rollback forks the chain: blocks above the fork are on a new branch (other hashes, other
// background transactions: chain.ts), the ledger entries of the rolled-back blocks leave the store
// and go back to the mempool (validated again for the new branch's next block) or are dropped.
// Anything that changes the forks or the store's entries rebuilds the chain (a few tens of
// milliseconds) behind the same SandboxChain object, so what holds the chain keeps it.
import { randomBytes } from 'node:crypto';
import { createSandboxChain } from './chain';
import type { SandboxChain } from './api';
import { LedgerRefusal, type LedgerEntry, type LedgerStore } from './ledger';
import type { HistorySumsStore } from './params';
import type { FaucetPayment, FaucetRequest } from './resources/submit/queries';
import { addressNetworkOf, devnetNetwork } from '../../../shared/networks';
import { DEVNET_MAX_PRODUCE, DEVNET_NETWORK_MAGIC, devnetGenesisSchema, genesisPoolIndex, devnetSnapshotSchema, devnetStateSchema, type DevnetAdvance, type DevnetGenesisInput, type DevnetSnapshot, type DevnetState } from '../../../shared/devnet';

/** Where the chain stands: its tip block, and whether its clock runs. */
export interface DevnetTip {
  height: number;
  hash: string;
  slot: number;
  epoch: number;
  /** The tip block's time, UNIX seconds. */
  time: number;
  /** The chain's clock now, UNIX milliseconds (ahead of the wall clock after produce and advance, behind it after a pause). */
  chainTime: number;
  paused: boolean;
}

export interface DevnetControl {
  /** Everything that rebuilds the chain, as of now (a copy): keep it after every action. */
  state(): DevnetState;
  tip(): DevnetTip;
  /** n blocks (1 to 10,000) now: the tip moves n blocks at once. */
  produce(n: number): Promise<DevnetTip>;
  /** The clock stops: the tip stays until resume() (produce() and advance() still make blocks). */
  pause(): DevnetTip;
  /** The clock runs again from where it stood. */
  resume(): DevnetTip;
  /**
   * A block every `ms` of wall time from now on (100 ms to 1 hour, a multiple of 100): the chain's
   * clock runs faster or slower than the wall clock; blocks keep the slots and times of the genesis.
   */
  setBlockInterval(ms: number): DevnetTip;
  /**
   * The tip goes back n blocks (1 to the tip's height) and the chain grows a new branch from there.
   * The live transactions of the rolled-back blocks go back to the mempool ('mempool': into the next
   * block if still valid, else dropped) or are dropped ('drop'); those waiting for the next block stay.
   */
  rollback(n: number, txs: 'mempool' | 'drop'): Promise<{ tip: DevnetTip; requeued: string[]; dropped: string[] }>;
  /** Time travels forward by some slots, or to the first block of the next epoch; the blocks between exist. */
  advance(by: DevnetAdvance): Promise<DevnetTip>;
  /** Pays test ada (1 to 100,000 ada) and mints test tokens under the faucet's policy to an address, in the next block. */
  fund(address: string, lovelace: bigint, assets?: Array<{ assetName: string; quantity: bigint }>): Promise<{ txHash: string; height: number; policyId: string }>;
  /** The chain as of now: its state, its tip and its accepted transactions (those waiting for the next block too). */
  snapshot(): Promise<DevnetSnapshot>;
  /** Back to a snapshot of this devnet: its tip, ledger and clock; what grows after it is a new branch. */
  restore(s: DevnetSnapshot): Promise<DevnetTip>;
  /** Genesis again, now: no transaction but the genesis', a new system start, and blocks that differ from the old chain's. */
  reset(): Promise<DevnetTip>;
  /**
   * Takes the state another process saved after steering the same devnet (its entries are in the
   * shared store already) and rebuilds the chain from it: how a second process follows the first.
   */
  reload(state: DevnetState): Promise<DevnetTip>;
}

/** A refusal of a steering action (an out-of-range number, a snapshot of another devnet): the API answers it with 400. */
export class DevnetRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevnetRefusal';
  }
}

/** The address network of a devnet's keys and addresses: a testnet (network id 0). */
const ADDRESS_NETWORK = addressNetworkOf(devnetNetwork.slug)!;

/** A new devnet's state: the genesis with its defaults, a fresh seed, its system start now (to the slot). */
export function newDevnetState(o: { genesis?: DevnetGenesisInput; seed?: string; now?: number } = {}): DevnetState {
  const genesis = devnetGenesisSchema.parse(o.genesis ?? {});
  const now = o.now ?? Date.now();
  const genesisTime = now - (now % genesis.slotLengthMs);
  return devnetStateSchema.parse({
    version: 1,
    genesis,
    seed: o.seed ?? randomBytes(16).toString('hex'),
    createdAt: now,
    genesisTime,
    clock: { wallAt: now, chainAt: now, blockIntervalMs: genesis.blockIntervalMs, paused: false },
    forks: [],
    branches: 0,
  });
}

/** The chain's time at a wall-clock moment. */
function chainTimeAt(state: DevnetState, wall: number): number {
  const c = state.clock;
  if (c.paused) return c.chainAt;
  return c.chainAt + Math.floor(((wall - c.wallAt) * state.genesis.blockIntervalMs) / c.blockIntervalMs);
}

/** The key of a devnet's entries in the ledger store (sandbox_ledger's `network`): what to empty when the devnet goes. */
export const devnetLedgerKey = (id: string): string => `devnet:${id}`;

/** Forks a state holds at most (devnetStateSchema): past them, the devnet is reset or restored. */
const MAX_FORKS = 10_000;

function wholeIn(value: number, min: number, max: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new DevnetRefusal(`${name} must be a whole number from ${min} to ${max}.`);
  return value;
}

export function createDevnet(o: DevnetOptions): { chain: SandboxChain; control: DevnetControl } {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(o.id)) throw new Error('a devnet id is 1 to 64 letters, digits, - or _');
  const rt = devnetRuntime(o);
  return { chain: rt.chain, control: devnetControl(rt) };
}

/** What a devnet's steering works on: its state, the chain built from it, and the helpers they share. */
interface DevnetRuntime {
  state: DevnetState;
  /** The chain built last from the state (rebuilt by rollback, restore, reload and reset). */
  inner: SandboxChain;
  /** The same object for good, answering from `inner`. */
  readonly chain: SandboxChain;
  readonly store: LedgerStore;
  readonly key: string;
  readonly intervalMs: number;
  wall(): number;
  /** Runs steering actions one at a time; submissions and faucet payments wait for the one under way. */
  serial<T>(fn: () => Promise<T>): Promise<T>;
  chainNow(): number;
  timeOfHeight(h: number): number;
  /** Re-anchors the clock at the wall clock's now, at a chain time. */
  anchor(chainAt: number, patch?: Partial<DevnetState['clock']>): void;
  tip(): DevnetTip;
  /** A new chain behind the same object, its ledger loaded before it answers. */
  rebuild(): Promise<void>;
  entries(): Promise<LedgerEntry[]>;
  faucet(request: FaucetRequest): Promise<FaucetPayment>;
  /** Submits stored entries again, in order, for the next block: those the ledger refuses now are dropped. */
  requeue(list: LedgerEntry[]): Promise<{ requeued: string[]; dropped: string[] }>;
}

/** A devnet's id, its state, where its ledger's entries are kept and, optionally, its history's sums (between loads) and its wall clock. */
interface DevnetOptions {
  id: string;
  state: DevnetState;
  store: LedgerStore;
  historyStore?: HistorySumsStore;
  now?: () => number;
}

function devnetRuntime(o: DevnetOptions): DevnetRuntime {
  const wall = o.now ?? Date.now;
  const store = o.store;
  const key = devnetLedgerKey(o.id);
  let state: DevnetState = devnetStateSchema.parse(o.state);
  const intervalMs = state.genesis.blockIntervalMs;

  const build = (): SandboxChain =>
    createSandboxChain({
      network: ADDRESS_NETWORK,
      seed: state.seed,
      genesisTime: state.genesisTime,
      blockIntervalMs: intervalMs,
      now: () => chainTimeAt(state, wall()),
      store,
      ...(o.historyStore ? { historyStore: o.historyStore } : {}),
      devnet: {
        id: o.id,
        networkMagic: DEVNET_NETWORK_MAGIC,
        slotLengthMs: state.genesis.slotLengthMs,
        epochLength: state.genesis.epochLength,
        securityParam: state.genesis.securityParam,
        protocol: state.genesis.protocolParams,
        initialFunds: state.genesis.initialFunds.map((f) => ({ address: f.address, lovelace: BigInt(f.lovelace) })),
        initialDReps: state.genesis.initialDReps,
        initialPools: state.genesis.initialPools.map((p) => ({ ...p, pledge: BigInt(p.pledge), cost: BigInt(p.cost) })),
        initialDelegations: state.genesis.initialDelegations.map((d) => ({
          stakeAddress: d.stakeAddress,
          pool: d.pool === undefined ? null : genesisPoolIndex(state.genesis.initialPools, d.pool),
          drep: d.drep === undefined ? null : d.drep === 'abstain' || d.drep === 'no_confidence' ? d.drep : { hex: d.drep, script: state.genesis.initialDReps.find((r) => r.credential === d.drep)?.script ?? false },
        })),
        committee: state.genesis.committee
          ? { members: state.genesis.committee.members.map((m) => ({ coldHex: m.coldCredential, script: m.script, expiryEpoch: m.expiryEpoch })), quorum: state.genesis.committee.threshold }
          : null,
        forks: state.forks,
      },
    });
  let inner = build();
  /** Steering actions run one at a time; submissions and faucet payments wait for the one under way. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const chainNow = (): number => chainTimeAt(state, wall());
  const timeOfHeight = (h: number): number => state.genesisTime + h * intervalMs;
  /** Re-anchors the clock at the wall clock's now, at a chain time. */
  const anchor = (chainAt: number, patch: Partial<DevnetState['clock']> = {}): void => {
    state = { ...state, clock: { ...state.clock, wallAt: wall(), chainAt, ...patch } };
  };
  const tip = (): DevnetTip => {
    const b = inner.latestBlock();
    return { height: b.height ?? 0, hash: b.hash, slot: b.slot ?? 0, epoch: b.epoch ?? 0, time: b.time, chainTime: chainNow(), paused: state.clock.paused };
  };
  /** A new chain behind the same object, its ledger loaded before it answers. */
  const rebuild = async (): Promise<void> => {
    const next = build();
    await next.ready();
    inner = next;
  };
  const entries = (): Promise<LedgerEntry[]> => store.entriesAfter(key, 0);

  // The chain: the same object for good, answering from the chain built last.
  const chain = {} as Record<string, unknown>;
  for (const name of Object.keys(inner)) {
    if (name === 'network' || name === 'params') {
      Object.defineProperty(chain, name, { get: () => (inner as unknown as Record<string, unknown>)[name], enumerable: true });
      continue;
    }
    chain[name] = (...args: unknown[]) => ((inner as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!)(...args);
  }
  // What writes to the ledger waits for a steering action under way, so nothing is appended to a chain being replaced.
  const faucet = (request: FaucetRequest): Promise<FaucetPayment> => serial(() => inner.faucet(request));
  chain.submit = (cbor: Uint8Array): Promise<string> => serial(() => inner.submit(cbor));
  chain.faucet = faucet;
  chain.ready = (): Promise<void> => serial(() => inner.ready());
  chain.sync = (): Promise<void> => serial(() => inner.sync());

  /** Submits stored entries again, in order, for the next block: those the ledger refuses now are dropped. */
  const requeue = async (list: LedgerEntry[]): Promise<{ requeued: string[]; dropped: string[] }> => {
    const requeued: string[] = [];
    const dropped: string[] = [];
    for (const e of list) {
      try {
        requeued.push(await inner.submit(Buffer.from(e.cbor, 'hex')));
      } catch (err) {
        if (!(err instanceof LedgerRefusal)) throw err;
        dropped.push(e.hash);
      }
    }
    return { requeued, dropped };
  };

  return {
    get state() {
      return state;
    },
    set state(next: DevnetState) {
      state = next;
    },
    get inner() {
      return inner;
    },
    set inner(next: SandboxChain) {
      inner = next;
    },
    chain: chain as unknown as SandboxChain,
    store,
    key,
    intervalMs,
    wall,
    serial,
    chainNow,
    timeOfHeight,
    anchor,
    tip,
    rebuild,
    entries,
    faucet,
    requeue,
  };
}

/** The steering calls over a devnet's runtime. */
function devnetControl(rt: DevnetRuntime): DevnetControl {
  const { serial, chainNow, anchor, tip, rebuild, entries, requeue, faucet, store, key, intervalMs, wall, timeOfHeight } = rt;
  const control: DevnetControl = {
    state: () => structuredClone({ ...rt.state, clock: { ...rt.state.clock } }),
    tip,
    produce(n) {
      return serial(async () => {
        wholeIn(n, 1, DEVNET_MAX_PRODUCE, 'n');
        await rt.inner.ready();
        anchor(chainNow() + n * intervalMs);
        return tip();
      });
    },
    pause() {
      if (!rt.state.clock.paused) anchor(chainNow(), { paused: true });
      return tip();
    },
    resume() {
      if (rt.state.clock.paused) anchor(rt.state.clock.chainAt, { paused: false });
      return tip();
    },
    setBlockInterval(ms) {
      wholeIn(ms, 100, 3_600_000, 'blockIntervalMs');
      if (ms % 100 !== 0) throw new DevnetRefusal('blockIntervalMs must be a multiple of 100.');
      anchor(chainNow(), { blockIntervalMs: ms });
      return tip();
    },
    rollback(n, txs) {
      return serial(async () => {
        await rt.inner.ready();
        const top = rt.inner.tipHeight();
        if (top === 0) throw new DevnetRefusal('The chain is at block 0: there is nothing to roll back.');
        wholeIn(n, 1, top, 'n');
        if (txs !== 'mempool' && txs !== 'drop') throw new DevnetRefusal("txs must be 'mempool' or 'drop'.");
        if (rt.state.forks.filter((f) => f.height < top - n).length >= MAX_FORKS) throw new DevnetRefusal(`The chain holds ${MAX_FORKS} forks: reset it or restore a snapshot to roll back again.`);
        const fork = top - n;
        const all = await entries();
        const rolled = all.filter((e) => e.height > fork && e.height <= top);
        const waiting = all.filter((e) => e.height > top);
        const cut = all.find((e) => e.height > fork);
        if (cut) await store.truncate(key, cut.seq);
        const c = chainNow();
        const n1 = rt.state.branches + 1;
        rt.state = { ...rt.state, forks: [...rt.state.forks.filter((f) => f.height < fork), { height: fork, n: n1 }], branches: n1 };
        // The clock goes back to the fork, as far past it as it was past the tip.
        anchor(timeOfHeight(fork) + Math.max(0, c - timeOfHeight(top)));
        await rebuild();
        const again = await requeue(txs === 'mempool' ? [...rolled, ...waiting] : waiting);
        return { tip: tip(), requeued: again.requeued, dropped: [...(txs === 'drop' ? rolled.map((e) => e.hash) : []), ...again.dropped] };
      });
    },
    advance(by) {
      return serial(async () => {
        await rt.inner.ready();
        if ('slots' in by) {
          wholeIn(by.slots, 1, 100_000_000, 'slots');
          anchor(chainNow() + by.slots * rt.state.genesis.slotLengthMs);
        } else if (by.toNextEpoch === true) {
          const blocksPerEpoch = rt.inner.params.blocksPerEpoch;
          const next = (Math.floor(rt.inner.tipHeight() / blocksPerEpoch) + 1) * blocksPerEpoch;
          anchor(timeOfHeight(next));
        } else throw new DevnetRefusal('advance takes { slots } or { toNextEpoch: true }.');
        return tip();
      });
    },
    async fund(address, lovelace, assets = []) {
      const payment = await faucet({ address, lovelace, assets });
      return { txHash: payment.txHash, height: payment.height, policyId: rt.inner.faucetInfo().policyId };
    },
    snapshot() {
      return serial(async () => {
        await rt.inner.ready();
        const at = chainNow();
        const taken = { ...rt.state, clock: { ...rt.state.clock, wallAt: wall(), chainAt: at } };
        return devnetSnapshotSchema.parse({ state: taken, tip: rt.inner.tipHeight(), entries: await entries() });
      });
    },
    restore(s) {
      return serial(async () => {
        const parsed = devnetSnapshotSchema.safeParse(s);
        if (!parsed.success) throw new DevnetRefusal(`Not a devnet snapshot: ${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message}`);
        const snap = parsed.data;
        if (snap.state.seed !== rt.state.seed) throw new DevnetRefusal('The snapshot is of another devnet.');
        const kept = snap.state.forks.filter((f) => f.height < snap.tip);
        if (kept.length >= MAX_FORKS) throw new DevnetRefusal(`The snapshot's chain holds ${MAX_FORKS} forks: it cannot be restored.`);
        await store.replace(key, snap.entries);
        const n1 = Math.max(rt.state.branches, snap.state.branches) + 1;
        rt.state = {
          ...snap.state,
          clock: { ...snap.state.clock, wallAt: wall() },
          // What grows above the snapshot's tip is a new branch: the blocks made after the snapshot are abandoned.
          forks: [...kept, { height: snap.tip, n: n1 }],
          branches: n1,
        };
        await rebuild();
        return tip();
      });
    },
    reload(next) {
      return serial(async () => {
        const parsed = devnetStateSchema.safeParse(next);
        if (!parsed.success) throw new DevnetRefusal(`Not a devnet state: ${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message}`);
        if (parsed.data.seed !== rt.state.seed) throw new DevnetRefusal('The rt.state is of another devnet.');
        rt.state = parsed.data;
        await rebuild();
        return tip();
      });
    },
    reset() {
      return serial(async () => {
        await store.replace(key, []);
        const now = wall();
        const genesisTime = now - (now % rt.state.genesis.slotLengthMs);
        const n1 = rt.state.branches + 1;
        // Every block, block 0 too, is on a new branch: the new chain shares no block hash with the old one.
        rt.state = { ...rt.state, genesisTime, clock: { wallAt: now, chainAt: now, blockIntervalMs: rt.state.genesis.blockIntervalMs, paused: false }, forks: [{ height: -1, n: n1 }], branches: n1 };
        await rebuild();
        return tip();
      });
    },
  };
  return control;
}

// The gateway's push hub: per network, who subscribed to blocks and to which addresses, and the
// watcher that announces each block once to this gateway. A sandbox network's watcher wakes when its
// next block is due (the chain is made by the clock); an upstream network's reads the upstream's tip
// on a fixed rhythm, one read per gateway whatever the number of connections. Each block is made into
// one websocket frame per subscription id and those same bytes are written to every subscriber.
import type { Logger } from '../../logger';
import type { ChainSource } from '../../blockfrost/chain';
import type { Block, TxDetails } from '../../../shared/chain';
import { messageFrame, textFrame, type MessageId } from './protocol';
import type { WriterThread } from './writer-thread';

/** What the hub sends to: a websocket session. */
export interface Subscriber {
  /** Writes a websocket frame (header and payload) to the connection: made for it, or shared by many. */
  write(frame: Buffer): void;
  /** The id of the message that subscribed to blocks; undefined: not subscribed. */
  blockSubscription: MessageId | undefined;
  /** The id of the message that subscribed to addresses; undefined: not subscribed. */
  addressSubscription: MessageId | undefined;
  /** The number of the last block announcement written to it (its feed counts them), so none is written twice. */
  blockSent: number;
  /** Lends the connection's descriptor to the writer thread for one frame (-1: not now); see FrameWriter.lend. */
  lend?(): number;
  /** Takes it back once the writer thread wrote `written` bytes of `frame` (-1: failed). */
  settle?(written: number, frame: Buffer): void;
}

/** The chain a network's watcher reads, and when it looks next. */
export interface WatchedChain {
  source: Pick<ChainSource, 'tipHeight' | 'blockAt' | 'blockTxDetails'>;
  /** When to read the tip next (UNIX ms): when the next block is due, or the reading rhythm. */
  nextLook(now: number): number;
}

/** The feed (and watcher) name of a project's own chain on a network of a chain per project. */
const projectFeedKey = (network: string, projectId: number): string => `${network}/${projectId}`;

/** Blocks remembered for finding a fork after a rollback, with the notifications they sent. */
const REMEMBERED_BLOCKS = 50;
/** After a long stall the watcher announces at most this many of the blocks it missed. */
const MAX_CATCH_UP = 20;
/** A look that failed is tried again after this long. */
const RETRY_MS = 1000;
/**
 * How long the fan-out writes before it lets the event loop run (messages, keep-alives, the address
 * notifications of the same block): each write is a system call of its own, and ten thousand of
 * them in one stretch would hold the gateway for the whole of it. A turn as long as a sliced
 * answer's (sandbox/chain/budget.ts): while one is computing, the two take turns of the same length,
 * and the fan-out, which ten thousand connections wait for, hands the loop over a few times per
 * block rather than every few hundred sockets.
 */
const FAN_OUT_TURN_MS = 10;
/** Subscribers written to between two readings of the clock. */
const CLOCK_EVERY = 64;
/**
 * From this many block subscribers on, a feed with a writer thread lends it about half: below,
 * the fan-out takes a few milliseconds, less than handing it over is worth.
 */
export const SHARED_FAN_OUT_FROM = 256;
/**
 * The writer thread takes LEND_THESE of every LEND_OF_EVERY subscribers, a little over half: lending
 * one costs this thread about a tenth of writing it, and this thread also serves the event loop's
 * other work between its turns, so with half each the thread finished first.
 */
const LEND_OF_EVERY = 20;
const LEND_THESE = 11;
/** Subscribers lent to the writer thread in one message: it starts writing after the first few hundred, not after all. */
const LEND_BATCH = 256;

interface Announced {
  height: number;
  hash: string;
  /** Each subscribed address's notifications (JSON data) sent for this block. */
  notifications: Map<string, string[]> | null;
}

/** A block being written to its subscribers: its number among the feed's announcements, its JSON and its frame per subscription id. */
interface BlockAnnouncement {
  seq: number;
  json: string;
  frames: Map<MessageId, Buffer>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The announcement's frame for a subscription id, made on first use. */
function frameOf(a: BlockAnnouncement, id: MessageId): Buffer {
  let frame = a.frames.get(id);
  if (!frame) a.frames.set(id, (frame = textFrame(messageFrame(id, a.json))));
  return frame;
}

/** One network's subscribers. */
export class NetworkFeed {
  constructor(
    /** The thread that writes about half of a large fan-out (writer-thread.ts); null: this thread writes all. */
    private readonly writer: WriterThread | null = null,
    private readonly sharedFrom = SHARED_FAN_OUT_FROM,
  ) {}

  readonly blockSubscribers = new Set<Subscriber>();
  readonly addressSubscribers = new Map<string, Set<Subscriber>>();
  /** Called on every subscription: the hub starts the network's watcher on the first. */
  onSubscribe: () => void = () => undefined;
  /** Called when the last subscriber left: a devnet's feed stops its watcher then. */
  onEmpty: () => void = () => undefined;

  subscribeBlocks(s: Subscriber): void {
    this.blockSubscribers.add(s);
    this.onSubscribe();
  }

  unsubscribeBlocks(s: Subscriber): void {
    if (this.blockSubscribers.delete(s)) this.emptied();
  }

  private emptied(): void {
    if (this.blockSubscribers.size === 0 && this.addressSubscribers.size === 0) this.onEmpty();
  }

  /** Replaces the subscriber's addresses (`before`) with `after`. */
  setAddresses(s: Subscriber, before: Iterable<string>, after: Iterable<string>): void {
    for (const a of before) {
      const set = this.addressSubscribers.get(a);
      if (!set) continue;
      set.delete(s);
      if (set.size === 0) this.addressSubscribers.delete(a);
    }
    let added = false;
    for (const a of after) {
      let set = this.addressSubscribers.get(a);
      if (!set) this.addressSubscribers.set(a, (set = new Set()));
      set.add(s);
      added = true;
    }
    if (added) this.onSubscribe();
    else this.emptied();
  }

  private announcements = 0;
  /** The latest block announced: an address notification of it goes after it on the same connection. */
  private current: BlockAnnouncement | null = null;

  /**
   * Writes the block to its subscribers: its JSON made once and its frame once per subscription id
   * (clients of one library use the same ids), so ten thousand subscribers cost ten thousand socket
   * writes of one buffer, not ten thousand encodings. Written in turns of FAN_OUT_TURN_MS with the
   * event loop free between them, and by the writer thread too for a large feed; resolves when every
   * subscriber has it.
   */
  async announceBlock(block: Block): Promise<void> {
    const a: BlockAnnouncement = { seq: ++this.announcements, json: JSON.stringify(block), frames: new Map() };
    this.current = a;
    const lent = this.writer && this.blockSubscribers.size >= this.sharedFrom ? this.lendShare(this.writer, a) : null;
    let n = 0;
    let turnEnds = performance.now() + FAN_OUT_TURN_MS;
    for (const s of this.blockSubscribers) {
      this.writeBlock(s, a);
      if (++n % CLOCK_EVERY === 0 && performance.now() >= turnEnds) {
        await nextTurn();
        turnEnds = performance.now() + FAN_OUT_TURN_MS;
      }
    }
    await lent;
  }

  /**
   * Hands a little over half of the block subscribers that can be lent to the writer thread, which
   * writes them while this thread writes the rest (they count as written: the fan-out here skips them, and an address
   * notification for one waits in its stream until it is settled, after the block). They go in
   * batches of LEND_BATCH, so the thread starts on the first while the others are lent, and each
   * batch is settled as soon as the thread is done with it. Resolves once all are settled.
   */
  private lendShare(writer: WriterThread, a: BlockAnnouncement): Promise<void> {
    const open = new Map<Buffer, { subscribers: Subscriber[]; fds: Int32Array }>();
    const batches: Promise<void>[] = [];
    const send = (frame: Buffer, subscribers: Subscriber[], fds: Int32Array) =>
      batches.push(
        writer.write(frame, fds).then((written) => {
          subscribers.forEach((s, k) => s.settle!(written ? written[k]! : -1, frame));
        }),
      );
    let i = 0;
    for (const s of this.blockSubscribers) {
      if ((i++ % LEND_OF_EVERY) >= LEND_THESE) continue;
      const id = s.blockSubscription;
      if (id === undefined || s.blockSent >= a.seq || !s.lend) continue;
      const fd = s.lend();
      if (fd < 0) continue;
      s.blockSent = a.seq;
      const frame = frameOf(a, id);
      let batch = open.get(frame);
      if (!batch) open.set(frame, (batch = { subscribers: [], fds: new Int32Array(LEND_BATCH) }));
      batch.fds[batch.subscribers.length] = fd;
      batch.subscribers.push(s);
      if (batch.subscribers.length === LEND_BATCH) {
        send(frame, batch.subscribers, batch.fds);
        open.delete(frame);
      }
    }
    for (const [frame, { subscribers, fds }] of open) send(frame, subscribers, fds.slice(0, subscribers.length));
    return Promise.all(batches).then(() => undefined);
  }

  /** Writes the announcement to one subscriber, unless it has it already. */
  private writeBlock(s: Subscriber, a: BlockAnnouncement): void {
    const id = s.blockSubscription;
    if (id === undefined || s.blockSent >= a.seq) return;
    s.blockSent = a.seq;
    s.write(frameOf(a, id));
  }

  /** The notifications of a block's transactions for the subscribed addresses they touch: {address, txHash, txData, txUtxos, blockInfo}, one per address and transaction. */
  notificationsOf(block: Block, txs: TxDetails[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const blockJson = JSON.stringify(block);
    for (const t of txs) {
      const touched = new Set<string>();
      for (const i of t.inputs) if (this.addressSubscribers.has(i.address)) touched.add(i.address);
      for (const o of t.outputs) if (this.addressSubscribers.has(o.address)) touched.add(o.address);
      if (touched.size === 0) continue;
      const rest = `,"txHash":${JSON.stringify(t.tx.hash)},"txData":${JSON.stringify(t.tx)},"txUtxos":${JSON.stringify({ hash: t.tx.hash, inputs: t.inputs, outputs: t.outputs })},"blockInfo":${blockJson}}`;
      for (const a of touched) {
        const list = out.get(a) ?? [];
        list.push(`{"address":${JSON.stringify(a)}${rest}`);
        out.set(a, list);
      }
    }
    return out;
  }

  /**
   * Writes each address's notifications to that address's subscribers now. With `afterBlock`, they
   * are the latest block's: a subscriber that the block's fan-out has not reached yet gets the block
   * first, so a connection always hears of a block before its transactions.
   */
  announceAddresses(notifications: Map<string, string[]>, afterBlock = false): void {
    const block = afterBlock ? this.current : null;
    for (const [address, list] of notifications) {
      const subs = this.addressSubscribers.get(address);
      if (!subs) continue;
      for (const s of subs) {
        if (s.addressSubscription === undefined) continue;
        if (block) this.writeBlock(s, block);
        for (const data of list) s.write(textFrame(messageFrame(s.addressSubscription, data)));
      }
    }
  }
}

/**
 * Follows one network's tip and announces each block added to its feed: blocks missed between two
 * looks are announced in order; a block whose previous hash is not the last one announced means a
 * rollback: the watcher steps back to the newest block still on the chain, sends the abandoned
 * blocks' address notifications again (those addresses changed), and announces the new blocks up to
 * the new tip.
 */
export class TipWatcher {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private recent: Announced[] = [];
  private looking: Promise<void> = Promise.resolve();
  /** A look is under way; `again`: the chain changed meanwhile, so another follows at once. */
  private busy = false;
  private again = false;

  constructor(
    readonly network: string,
    private readonly chain: WatchedChain,
    private readonly feed: NetworkFeed,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.looking;
  }

  /** Looks now: the chain was changed by a call rather than by its clock (a devnet's steering). */
  wake(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.busy = true;
      this.again = false;
      this.looking = this.look().then(
        () => {
          this.busy = false;
          this.schedule(this.again ? 0 : Math.max(0, this.chain.nextLook(this.now()) - this.now()));
        },
        (err: unknown) => {
          this.busy = false;
          this.logger.warn({ network: this.network, err: { message: (err as Error).message } }, 'push: reading the chain tip failed; trying again');
          this.schedule(RETRY_MS);
        },
      );
    }, delayMs);
    this.timer.unref();
  }

  private get last(): Announced | undefined {
    return this.recent.at(-1);
  }

  /** The block the watcher knows as the tip (announced, or learnt by its first look); undefined before its first look. */
  get known(): { height: number; hash: string } | undefined {
    const b = this.last;
    return b ? { height: b.height, hash: b.hash } : undefined;
  }

  /** One look at the tip: announces what was added since the last one. */
  async look(): Promise<void> {
    const { source } = this.chain;
    const tip = await source.tipHeight();
    const last = this.last;
    if (!last) {
      // The first look only learns where the chain is.
      const block = await source.blockAt(tip);
      if (block) this.remember({ height: block.height ?? tip, hash: block.hash, notifications: null });
      return;
    }
    if (tip === last.height) {
      const same = await source.blockAt(tip);
      if (!same || same.hash === last.hash) return;
      await this.rollBack();
      return this.walk(await source.tipHeight());
    }
    if (tip < last.height) await this.rollBack();
    await this.walk(tip);
  }

  /** Announces the blocks after the last one announced, up to `tip`. */
  private async walk(tip: number): Promise<void> {
    const { source } = this.chain;
    if (!this.last) return;
    let from = this.last.height + 1;
    if (tip - from + 1 > MAX_CATCH_UP) from = tip - MAX_CATCH_UP + 1;
    for (let h = from; h <= tip && !this.stopped; h++) {
      const block = await source.blockAt(h);
      if (!block) return;
      const last = this.last!;
      if (h === last.height + 1 && block.previous_block !== last.hash) {
        await this.rollBack();
        return this.walk(await source.tipHeight());
      }
      // The block goes out first; its address notifications are matched while the fan-out runs and
      // reach their subscribers as soon as they are made (each after the block on its connection).
      const fanOut = this.feed.announceBlock(block);
      let notifications: Map<string, string[]> | null = null;
      try {
        if (this.feed.addressSubscribers.size > 0 && block.tx_count > 0) {
          notifications = this.feed.notificationsOf(block, await source.blockTxDetails(block.hash));
          this.feed.announceAddresses(notifications, true);
        }
      } finally {
        await fanOut;
      }
      this.remember({ height: block.height ?? h, hash: block.hash, notifications });
    }
  }

  /** Steps back to the newest announced block still on the chain; the abandoned blocks' addresses hear of them again. */
  private async rollBack(): Promise<void> {
    const { source } = this.chain;
    const abandoned: Announced[] = [];
    while (this.recent.length > 0) {
      const b = this.last!;
      const onChain = await source.blockAt(b.height);
      if (onChain && onChain.hash === b.hash) break;
      abandoned.push(this.recent.pop()!);
    }
    this.logger.warn({ network: this.network, blocks: abandoned.length, to: this.last?.height ?? null }, 'push: rollback, announcing the new blocks');
    for (const b of abandoned) if (b.notifications) this.feed.announceAddresses(b.notifications);
    const height = await source.tipHeight();
    if (this.recent.length === 0) {
      // Deeper than what is remembered: the new tip is where the chain is now.
      const tip = await source.blockAt(height);
      if (!tip) return;
      await this.feed.announceBlock(tip);
      this.remember({ height: tip.height ?? 0, hash: tip.hash, notifications: null });
    } else if (height === this.last!.height) {
      // Nothing grew on the new branch yet (a devnet rolled back by its steering): the block it went
      // back to is the tip now, and block subscribers hear of it again, as of any new tip.
      const tip = await source.blockAt(height);
      if (tip && tip.hash === this.last!.hash) this.feed.announceBlock(tip);
    }
  }

  private remember(b: Announced): void {
    this.recent.push(b);
    if (this.recent.length > REMEMBERED_BLOCKS) this.recent.shift();
  }
}

/** Every network's feed and watcher on this gateway. */
export class PushHub {
  private readonly feeds = new Map<string, NetworkFeed>();
  private readonly watchers: TipWatcher[] = [];
  /** Networks where each project has a chain of its own (devnets): the chain of a project. */
  private readonly perProject = new Map<string, (projectId: number) => WatchedChain>();

  constructor(
    private readonly logger: Logger,
    /** Writes about half of each large fan-out (writer-thread.ts); null: the main thread writes all. */
    private readonly writer: WriterThread | null = null,
  ) {}

  feed(network: string): NetworkFeed {
    let f = this.feeds.get(network);
    if (!f) this.feeds.set(network, (f = new NetworkFeed(this.writer)));
    return f;
  }

  /**
   * The feed a project's connection subscribes on: its network's, or on a network of a chain per
   * project (watchEach) the project's own, whose watcher runs from its first subscription until its
   * last subscriber leaves (a devnet nobody listens to costs no reads, and its feed is dropped).
   */
  feedOf(network: string, projectId: number): NetworkFeed {
    const chainOf = this.perProject.get(network);
    if (!chainOf) return this.feed(network);
    const key = projectFeedKey(network, projectId);
    const existing = this.feeds.get(key);
    if (existing) return existing;
    const feed = new NetworkFeed(this.writer);
    this.feeds.set(key, feed);
    let watcher: TipWatcher | null = null;
    feed.onSubscribe = () => {
      if (watcher) return;
      watcher = new TipWatcher(key, chainOf(projectId), feed, this.logger);
      this.watchers.push(watcher);
      watcher.start();
    };
    feed.onEmpty = () => {
      if (this.feeds.get(key) === feed) this.feeds.delete(key);
      if (!watcher) return;
      const w = watcher;
      watcher = null;
      this.watchers.splice(this.watchers.indexOf(w), 1);
      void w.stop();
    };
    return feed;
  }

  /** Each project of `network` has a chain of its own (a devnet): its connections hear that chain's blocks alone. */
  watchEach(network: string, chainOf: (projectId: number) => WatchedChain): void {
    this.perProject.set(network, chainOf);
  }

  /** A project's chain changed by a call (a devnet's steering): its watcher, if any, looks now. */
  wake(network: string, projectId: number): void {
    this.watcher(projectFeedKey(network, projectId))?.wake();
  }

  /** Announces the network's blocks from `chain`, from its first subscription on (a network nobody listens to costs no reads). */
  watch(network: string, chain: WatchedChain): void {
    const feed = this.feed(network);
    feed.onSubscribe = () => {
      feed.onSubscribe = () => undefined;
      const w = new TipWatcher(network, chain, feed, this.logger);
      this.watchers.push(w);
      w.start();
    };
  }

  /** The watcher of a network whose announcements have begun (tests and benchmarks wait for its first look). */
  watcher(network: string): TipWatcher | undefined {
    return this.watchers.find((w) => w.network === network);
  }

  async stop(): Promise<void> {
    await Promise.all(this.watchers.map((w) => w.stop()));
    await this.writer?.close();
  }
}

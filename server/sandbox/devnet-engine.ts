// The devnets' chain engine: server/sandbox/chain's createDevnet behind the interface the devnets
// feature declares (server/features/devnets/engine.ts). The composition roots hand it to the feature,
// which imports no simulator.
import { ZodError } from 'zod';
import type { Db } from '../db/index';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { DevnetRegistry, type DevnetChain, type DevnetEngine } from '../features/devnets/index';
import { createDevnet, devnetLedgerKey, DevnetRefusal, memoryLedgerStore, newDevnetState, sandboxRouter, type DevnetSnapshot, type DevnetState, type DevnetTip, type LedgerStore } from './chain/index';
import { dbHistorySumsStore, dbLedgerStore } from './store';
import { DEVNET_NETWORK_MAGIC } from '../../shared/devnet';
import type { DevnetTipDto } from '../../shared/devnets';

/** A refusal of the chain (DevnetRefusal, a snapshot it cannot read, a bad address) as the RangeError the feature answers 400. */
async function refusalsAsRange<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DevnetRefusal) throw new RangeError(err.message);
    if (err instanceof ZodError) throw new RangeError('This snapshot is not one this devnet can restore.');
    throw err;
  }
}

const tipDto = (t: DevnetTip): DevnetTipDto => ({ height: t.height, hash: t.hash, slot: t.slot, epoch: t.epoch, time: t.time });

export function sandboxDevnetEngine(o: { db?: Db; store?: LedgerStore; publicUrl: string; version: string; now?: () => number }): DevnetEngine {
  const store = o.store ?? (o.db ? dbLedgerStore(o.db) : memoryLedgerStore());
  const url = `${o.publicUrl}/cardano-devnet/api/v0`;
  const wall = o.now ?? Date.now;
  return {
    genesisState: (genesis, now) => newDevnetState({ genesis, now }) as unknown as Record<string, unknown>,
    running: (state) => !(state as unknown as DevnetState).clock.paused,
    async open(devnetId, json) {
      const { chain, control } = createDevnet({ id: String(devnetId), state: json as unknown as DevnetState, store, ...(o.db ? { historyStore: dbHistorySumsStore(o.db, devnetId) } : {}), ...(o.now ? { now: o.now } : {}) });
      await chain.ready();
      const router = sandboxRouter(chain, { url, version: o.version });
      const held: DevnetChain = {
        router,
        tip: () => tipDto(control.tip()),
        local: chain,
        waiting: (txHash) => chain.mempoolTx(txHash) !== null,
        facts() {
          const s = control.state();
          return { paused: s.clock.paused, blockIntervalMs: s.clock.blockIntervalMs, slotLengthMs: s.genesis.slotLengthMs, epochLength: s.genesis.epochLength, networkMagic: DEVNET_NETWORK_MAGIC, systemStart: s.genesisTime };
        },
        nextBlockDue() {
          const s = control.state();
          if (s.clock.paused) return null;
          // Chain time runs blockIntervalMs (the genesis') per clock.blockIntervalMs of wall time.
          const ahead = Math.max(0, chain.nextBlockAt() - control.tip().chainTime);
          return wall() + Math.ceil((ahead * s.clock.blockIntervalMs) / s.genesis.blockIntervalMs);
        },
        sync: () => chain.sync(),
        ledgerSeq: () => chain.ledgerSeq(),
        reload: (next) => control.reload(next as unknown as DevnetState).then(() => undefined),
        steering: {
          state: () => control.state() as unknown as Record<string, unknown>,
          produce: (n) => refusalsAsRange(() => control.produce(n)).then(() => undefined),
          pause: () => void control.pause(),
          resume: () => void control.resume(),
          setBlockInterval: (ms) => {
            try {
              control.setBlockInterval(ms);
            } catch (err) {
              if (err instanceof DevnetRefusal) throw new RangeError(err.message);
              throw err;
            }
          },
          rollback: (n, txs) => refusalsAsRange(() => control.rollback(n, txs)).then((r) => ({ requeued: r.requeued, dropped: r.dropped })),
          advance: (by) => refusalsAsRange(() => control.advance('slots' in by ? { slots: by.slots } : { toNextEpoch: true })).then(() => undefined),
          fund: (address, lovelace, assets) => refusalsAsRange(() => control.fund(address, lovelace, assets)),
          reset: () => refusalsAsRange(() => control.reset()).then(() => undefined),
          snapshot: async () => (await control.snapshot()) as unknown as Record<string, unknown>,
          restore: (s) => refusalsAsRange(() => control.restore(s as unknown as DevnetSnapshot)).then(() => undefined),
        },
      };
      return held;
    },
    forget: (devnetId) => store.replace(devnetLedgerKey(String(devnetId)), []),
    ledgerKey: (devnetId) => devnetLedgerKey(String(devnetId)),
  };
}

/** The devnets of a process: their chains from this engine, their ledgers in the database, unloaded after DEVNET_IDLE_MS. */
export function devnetRegistry(config: Config, db: Db, logger: Logger, version: string): DevnetRegistry {
  return new DevnetRegistry({ db, logger, idleMs: config.gateway.devnetIdleMs, maxLoaded: config.gateway.devnetMaxLoaded, engine: sandboxDevnetEngine({ db, publicUrl: config.gateway.publicUrl, version }) });
}

import path from 'node:path';
import { SANDBOX_CHAINS_DIR, type Config, type SandboxSweep } from '../config';
import type { Db } from '../db/index';
import type { Logger } from '../logger';
import { createSandboxChain, type SandboxChain, type SandboxNetwork } from './chain/index';
import { fileHistorySumsStore } from './chain/kept-sums';
import { dbLedgerStore } from './store';
import { sandboxNetworks } from '../../shared/networks';

/**
 * One sandbox chain per Cardano network without a configured upstream, shared by every part of the
 * process. With a database, accepted transactions (faucet, /tx/submit) are kept in it, so they
 * survive restarts and every process sees them; without one they live in memory (tests). `sweep`
 * (a process that serves the gateway): `all`, each chain's sweep worker starts at once (chain/sweep.ts),
 * its chunks kept under $DATA_DIR/sandbox-chains, so every list's deep pages and every background
 * transaction's hash are ready from the start, and from the chunks at a restart; the folders of chains
 * simulated differently (another version) are removed once unused (chain/sweep-folders.ts), each
 * logged. `sums`: each chain's worker sums its epochs and helps cold pages, and sweeps nothing.
 * `keepSums` (a process that serves the gateway), whatever the sweep: each chain's whole epochs' sums
 * are kept there too (epoch-sums-<network>.bin, some 50 bytes an epoch), so a restart's pages of old
 * epochs read them rather than sum their blocks.
 */
export function createSandboxChains(config: Config, db?: Db, opts: { sweep?: SandboxSweep; keepSums?: boolean; logger?: Logger } = {}): Partial<Record<SandboxNetwork, SandboxChain>> {
  const store = db ? dbLedgerStore(db) : undefined;
  const dir = sandboxChainsDir(config);
  const removed = (folder: string, bytes: number): void => opts.logger?.info({ folder, bytes }, `sandbox chain: removed ${folder} under ${dir} (${(bytes / 1e6).toFixed(1)} MB): the sweep of a chain simulated differently, no longer used`);
  const chains: Partial<Record<SandboxNetwork, SandboxChain>> = {};
  for (const { slug, sandbox: network } of sandboxNetworks) {
    if (!config.gateway.upstreams[slug]) {
      chains[network] = createSandboxChain({
        network,
        blockIntervalMs: config.gateway.sandboxBlockIntervalMs,
        devAids: !config.isProduction,
        ...(store ? { store } : {}),
        // Its whole epochs' sums kept between starts (kept-sums.ts): a restart's old pages of epochs read them.
        ...(opts.keepSums ? { historyStore: fileHistorySumsStore(path.join(dir, `epoch-sums-${network}.bin`)) } : {}),
        ...(opts.sweep === 'all' ? { sweep: { dir, removed } } : opts.sweep === 'sums' ? { sweep: { dir: null, sumsOnly: true } } : {}),
      });
    }
  }
  return chains;
}

/** Where the shared chains' sweep workers keep their chunks: one folder per chain's identity inside it. */
export const sandboxChainsDir = (config: Config): string => path.join(config.dataDir, SANDBOX_CHAINS_DIR);


/**
 * Loads every chain's accepted transactions and prepares each once, then keeps reading what other processes accept
 * (every 250 ms, well inside a block interval), each read followed by the chain's prepare(): what
 * answers have warmed (the segments of the blocks near the tip, the UTXO set) kept ahead of the tip
 * in time slices, so the answers and push announcements that need it do not do it in one stretch. A chain's read starts only once its previous one and its
 * preparation have answered: when the database is slow to answer, reads do not pile up behind each
 * other (each one a query waiting for the one SQLite connection). Answers the function that stops
 * the reading.
 */
export async function startSandboxSync(chains: Partial<Record<SandboxNetwork, SandboxChain>>, onError: (err: unknown) => void, intervalMs = 250): Promise<() => void> {
  const list = Object.values(chains);
  await Promise.all(list.map((c) => c.ready()));
  // A first preparation before the process serves: each chain's vote lists counted through its
  // history (some 120–170 ms of CPU for a default chain's 100,000 epochs), so no first deep page does,
  // and its newest page of epochs summed (the first chain's some 600 segments, 0.3–0.5 s of CPU,
  // so that V8 has compiled the summing, its rare turns included, before a page of older epochs needs it).
  for (const c of list) await c.prepare({ start: true });
  const reading = new Set<SandboxChain>();
  const timer = setInterval(() => {
    for (const c of list) {
      if (reading.has(c)) continue;
      reading.add(c);
      c.sync()
        .then(() => c.prepare())
        .catch(onError)
        .finally(() => reading.delete(c));
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

// A devnet's blocks for the push API (/ws): the watcher of a devnet project's feed reads the
// project's own chain through the registry (an open subscription is a use: the chain stays loaded
// while someone listens). It looks when the clock makes the next block, at once after a steering
// call of this process (PushHub.wake), and every second for another process's.
import type { WatchedChain } from '../push/index';
import type { DevnetChain } from './engine';
import type { DevnetRegistry } from './registry';

/** How often a watched devnet is compared with the database, for a change another process made. */
const OTHER_PROCESSES_MS = 1000;

export function devnetWatchedChain(registry: DevnetRegistry, projectId: number): WatchedChain {
  let chain: DevnetChain | null = null;
  const current = async () => (chain ??= (await registry.chainOf(projectId)).chain);
  return {
    source: {
      async tipHeight() {
        chain = (await registry.chainOf(projectId)).chain;
        return chain.local.tipHeight();
      },
      blockAt: async (h) => (await current()).local.blockAt(h),
      blockTxDetails: async (hash) => (await current()).local.blockTxDetails(hash) ?? [],
    },
    nextLook: (now) => Math.min((chain?.nextBlockDue() ?? Infinity) + 2, now + OTHER_PROCESSES_MS),
  };
}

// Work done ahead of the first request that needs it, so no page of a list costs more than its own
// items: every closed epoch's sums (a page of a hundred epochs then reads them instead of simulating
// three thousand blocks), the running vote and proposal counts of the governance lists (their deep
// pages find their epochs by binary search), and the address window's segments and UTXO set (a
// world account's first lists). It runs in time slices with the process left idle between them
// (budget.ts), so requests meanwhile are served as before, only their first deep pages slower.
// What it counts stays counted: new epochs are added by the pages that reach them, one at a time.
import type { SandboxChain } from './api';
import { sliced } from './budget';

export interface IndexAheadOptions {
  /** Stops the work between two of its steps. */
  signal?: AbortSignal;
  /** Milliseconds the process stays idle after each 10 ms slice of work; default 10 (half a core at most). */
  restMs?: number;
}

/** Builds the chain's indexes up to its tip; resolves when done, or soon after `signal` aborts. */
export async function indexAhead(chain: SandboxChain, options: IndexAheadOptions = {}): Promise<void> {
  const steps: Array<() => unknown> = [];
  const current = chain.epochOfHeight(chain.tipHeight());
  for (let page = 1; (page - 1) * 100 < current; page++) steps.push(() => chain.epochPrevious(current, { count: 100, page, order: 'asc' }));
  steps.push(() => chain.governance().countCommitteeAhead(), () => chain.governance().countProposalsAhead());
  // Last, since summing the epochs moves every segment through the cache: the address window's
  // segments and their address indexes, the UTXO set as of the tip, and a world account's lists.
  const stake = chain.catalog().stakeAddresses[0];
  if (stake) steps.push(() => chain.accountUtxos(stake, { count: 1, page: 1, order: 'asc' }), () => chain.accountRewards(stake, { count: 1, page: 1, order: 'asc' }));
  for (const step of steps) {
    if (options.signal?.aborted) return;
    await sliced(step, options.restMs ?? 10);
  }
}

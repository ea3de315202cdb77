// /governance (and /pools/{pool_id}/votes): DReps, the committee, proposals and votes, which
// ../../gov.ts computes.
import type { ChainContext } from '../../context';
import type { Governance } from '../../gov';

/** The chain's queries behind /governance. */
export interface GovernanceQueries {
  /** Conway governance: DReps, the committee, proposals and votes (gov.ts). */
  governance(): Governance;
}

export function governancePaths(ctx: ChainContext): GovernanceQueries {
  const { governance } = ctx;
  return { governance: () => governance };
}

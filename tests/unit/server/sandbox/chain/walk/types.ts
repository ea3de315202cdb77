// The walk of Blockfrost's whole OpenAPI document over the sandbox chain (openapi-walk.test.ts):
// each endpoint group names, for every GET path template it serves, a concrete request that must
// answer 200 in the document's schema.
import type { SandboxChain, SandboxNetwork } from '../../../../../../server/sandbox/chain/index';
import type { TestServer } from '../support';

export interface WalkFixture {
  network: SandboxNetwork;
  chain: SandboxChain;
  /** The chain's clock: add chain.params.blockIntervalMs to make the next block. */
  clock: { now: number };
  http: TestServer;
  /** Values a group's prepare() found or made, for its requests (keys prefixed by the group). */
  made: Record<string, string>;
}

export interface WalkRequest {
  /** The concrete path (with any query string) to GET, below /api/v0. */
  path: (f: WalkFixture) => string;
  /** An empty array is a right answer here (otherwise an array answer must hold at least one item). */
  mayBeEmpty?: true;
}

export interface WalkGroup {
  name: string;
  /** Submits what the group's requests need (transactions, blocks); runs once per network, groups in order. */
  prepare?: (f: WalkFixture) => Promise<void>;
  /** Keyed by the document's path template, e.g. '/txs/{hash}/cbor'. */
  requests: Record<string, WalkRequest>;
}

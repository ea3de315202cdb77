// The shapes of background (simulated) transactions: what simulate.ts makes and sim-cbor.ts
// writes as bytes.

export interface SimOutput {
  address: number;
  lovelace: number;
  /** [unit, quantity] sorted by unit. */
  assets: Array<[string, number]>;
  dataHash: string | null;
  inlineDatum: string | null;
  /** The transaction that spends this output, if any (possibly above the current tip). */
  consumedBy: { height: number; index: number } | null;
}

export interface SimInput {
  /** The hash of the transaction whose output this input spends. */
  txHash: string;
  height: number;
  index: number;
  outputIndex: number;
  output: SimOutput;
}

export interface SimTx {
  height: number;
  index: number;
  hash: string;
  inputs: SimInput[];
  outputs: SimOutput[];
  fee: number;
  deposit: number;
  size: number;
  withdrawals: Array<{ wallet: number; amount: number }>;
  delegations: Array<{ wallet: number; pool: number }>;
  stakeRegistrations: number;
  /** Pool registrations (the genesis transaction registers every pool). */
  poolUpdates: number;
  mints: number;
  redeemers: number;
  invalidBefore: number | null;
  invalidHereafter: number | null;
}

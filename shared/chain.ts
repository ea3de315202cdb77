// Response shapes of the Blockfrost API (as in the @blockfrost/openapi schemas) that the sandbox
// chain serves. Amounts are lovelace (or token quantity) strings, times are UNIX seconds.

import type { LatestBlock } from './landing-sample';

export interface Amount {
  unit: string;
  quantity: string;
}

/** A block as /blocks/{hash_or_number} answers it; the landing page's sample has the same shape. */
export type Block = LatestBlock;

export interface Tx {
  hash: string;
  block: string;
  block_height: number;
  block_time: number;
  slot: number;
  index: number;
  output_amount: Amount[];
  fees: string;
  deposit: string;
  size: number;
  invalid_before: string | null;
  invalid_hereafter: string | null;
  utxo_count: number;
  withdrawal_count: number;
  mir_cert_count: number;
  delegation_count: number;
  stake_cert_count: number;
  pool_update_count: number;
  pool_retire_count: number;
  asset_mint_or_burn_count: number;
  redeemer_count: number;
  valid_contract: boolean;
  treasury_donation: string;
}

export interface TxInput {
  address: string;
  amount: Amount[];
  tx_hash: string;
  output_index: number;
  data_hash: string | null;
  inline_datum: string | null;
  reference_script_hash: string | null;
  collateral: boolean;
  reference: boolean;
}

export interface TxOutput {
  address: string;
  amount: Amount[];
  output_index: number;
  data_hash: string | null;
  inline_datum: string | null;
  collateral: boolean;
  reference_script_hash: string | null;
  consumed_by_tx: string | null;
}

export interface TxUtxos {
  hash: string;
  inputs: TxInput[];
  outputs: TxOutput[];
}

export interface TxDelegation {
  /** Deprecated alias of cert_index, still part of the schema. */
  index: number;
  cert_index: number;
  address: string;
  pool_id: string;
  active_epoch: number;
}

export interface Epoch {
  epoch: number;
  start_time: number;
  end_time: number;
  first_block_time: number;
  last_block_time: number;
  block_count: number;
  tx_count: number;
  output: string;
  fees: string;
  active_stake: string | null;
}

/** The short epoch shape of the webhook epoch payload's current_epoch. */
export interface EpochStart {
  epoch: number;
  start_time: number;
  end_time: number;
}

export interface Network {
  supply: { max: string; total: string; circulating: string; locked: string; treasury: string; reserves: string };
  stake: { live: string; active: string };
}

export interface AddressInfo {
  address: string;
  amount: Amount[];
  stake_address: string | null;
  type: 'byron' | 'shelley';
  script: boolean;
}

export interface AddressTransaction {
  tx_hash: string;
  tx_index: number;
  block_height: number;
  block_time: number;
}

export interface Pool {
  pool_id: string;
  hex: string;
  vrf_key: string;
  blocks_minted: number;
  blocks_epoch: number;
  live_stake: string;
  live_size: number;
  live_saturation: number;
  live_delegators: number;
  active_stake: string;
  active_size: number;
  declared_pledge: string;
  live_pledge: string;
  margin_cost: number;
  fixed_cost: string;
  reward_account: string;
  owners: string[];
  registration: string[];
  retirement: string[];
  calidus_key: null;
}

export interface Asset {
  asset: string;
  policy_id: string;
  asset_name: string | null;
  fingerprint: string;
  quantity: string;
  initial_mint_tx_hash: string;
  mint_or_burn_count: number;
  onchain_metadata: Record<string, unknown> | null;
  onchain_metadata_standard: 'CIP25v1' | 'CIP25v2' | 'CIP68v1' | 'CIP68v2' | 'CIP68v3' | null;
  onchain_metadata_extra: string | null;
  metadata: {
    name: string;
    description: string;
    ticker: string | null;
    url: string | null;
    logo: string | null;
    decimals: number | null;
  } | null;
}

export interface Genesis {
  active_slots_coefficient: number;
  update_quorum: number;
  max_lovelace_supply: string;
  network_magic: number;
  epoch_length: number;
  system_start: number;
  slots_per_kes_period: number;
  slot_length: number;
  max_kes_evolutions: number;
  security_param: number;
}

/** A delegation with its pool object embedded, as in the webhook delegation payload. */
export interface TxDelegationWithPool extends TxDelegation {
  pool: Pool;
}

/** Everything the webhook follower needs about one transaction. */
export interface TxDetails {
  tx: Tx;
  inputs: TxInput[];
  outputs: TxOutput[];
  delegations: TxDelegationWithPool[];
}

export type Order = 'asc' | 'desc';

export interface Pagination {
  count?: number;
  page?: number;
  order?: Order;
}

export interface AddressExtended {
  address: string;
  amount: Array<Amount & { decimals: number | null; has_nft_onchain_metadata: boolean }>;
  stake_address: string | null;
  type: 'byron' | 'shelley';
  script: boolean;
}

export interface AddressUtxo {
  address: string;
  tx_hash: string;
  /** Deprecated alias of output_index, still part of the schema. */
  tx_index: number;
  output_index: number;
  amount: Amount[];
  block: string;
  data_hash: string | null;
  inline_datum: string | null;
  reference_script_hash: string | null;
}

export interface Account {
  stake_address: string;
  active: boolean;
  registered: boolean;
  active_epoch: number | null;
  controlled_amount: string;
  rewards_sum: string;
  withdrawals_sum: string;
  reserves_sum: string;
  treasury_sum: string;
  withdrawable_amount: string;
  pool_id: string | null;
  drep_id: string | null;
}

export interface AssetListItem {
  asset: string;
  quantity: string;
}

export interface AssetHolder {
  address: string;
  quantity: string;
}

export interface PoolExtended {
  pool_id: string;
  hex: string;
  active_stake: string;
  live_stake: string;
  live_saturation: number;
  blocks_minted: number;
  declared_pledge: string;
  margin_cost: number;
  fixed_cost: string;
  metadata: null;
}

export interface MetadataLabel {
  label: string;
  cip10: string | null;
  count: string;
}

// The sandbox chain: a deterministic simulated Cardano chain served in Blockfrost shapes.
export { createSandboxChain } from './chain';
export {
  isAddressOfNetwork,
  isStakeAddressOfNetwork,
  DEFAULT_ADDRESS_WINDOW_BLOCKS,
  DEFAULT_BLOCK_INTERVAL_MS,
  DEFAULT_BLOCKS_PER_EPOCH,
  DEFAULT_GENESIS_TIME,
  DEFAULT_SEED,
  DEFAULT_SEGMENT_LENGTH,
  NETWORK_MAGIC,
} from './api';
export type {
  AddressTxQuery,
  DevWalletInfo,
  FaucetPayment,
  FaucetRequest,
  CatalogAddress,
  CatalogAsset,
  SandboxCatalog,
  SandboxChain,
  SandboxChainOptions,
  SandboxChainParams,
  SandboxNetwork,
} from './api';
export { sandboxRouter, SANDBOX_HEADER, SANDBOX_HEADER_VALUE, NOT_SERVED_MESSAGE } from './router';
export { LedgerRefusal, memoryLedgerStore } from './ledger';
export type { LedgerEntry, LedgerStore } from './ledger';
export type { SandboxRouterOptions } from './router';
export { blockfrostError, parsePagination, BlockfrostHttpError, NOT_FOUND_MESSAGE, INTERNAL_ERROR_MESSAGE } from '../../blockfrost/http';
export type { BlockfrostErrorBody } from '../../blockfrost/http';
export type * from '../../../shared/chain';
export { stakeAddressOf, parseShelleyAddress, parseStakeAddress } from '../../../shared/cardano/address';
export { assetFingerprint } from '../../../shared/cardano/fingerprint';
export type { PageRequest } from '../../blockfrost/http';

// The sandbox chain: a deterministic simulated Cardano chain served in Blockfrost shapes.
export { createSandboxChain } from './chain';
export { createDevnet, devnetLedgerKey, newDevnetState, DevnetRefusal } from './devnet';
export type { DevnetControl, DevnetTip } from './devnet';
export type { DevnetAdvance, DevnetGenesis, DevnetGenesisInput, DevnetSnapshot, DevnetState } from '../../../shared/devnet';
export { isAddressOfNetwork, isStakeAddressOfNetwork } from '../../blockfrost/contract';
export {
  DEFAULT_ADDRESS_WINDOW_BLOCKS,
  DEFAULT_BLOCK_INTERVAL_MS,
  DEFAULT_BLOCKS_PER_EPOCH,
  DEFAULT_GENESIS_TIME,
  DEFAULT_SEED,
  DEFAULT_SEGMENT_LENGTH,
  NETWORK_MAGIC,
} from './params';
export type { ChainFork, DevnetChainOptions, HistorySumsStore, SandboxChainOptions, SandboxChainParams, SandboxNetwork } from './params';
export type { CatalogAddress, CatalogAsset, SandboxCatalog, SandboxChain } from './api';
export type { AddressTxQuery } from './paging';
export type { DevWalletInfo, FaucetPayment, FaucetRequest } from './resources/submit/queries';
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

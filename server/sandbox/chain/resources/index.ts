// The sandbox's resources, one module each: its routes (`<resource>/routes.ts`) and the chain's
// queries behind them (`<resource>/queries.ts`). `paths` is the first segment of every path the
// module registers, which server/sandbox/README.md's table names and a test checks.
import type { Router } from 'express';
import type { SandboxChain } from '../api';
import { mountHealthRoutes } from './health/routes';
import { mountNetworkRoutes } from './network/routes';
import { mountBlockRoutes } from './blocks/routes';
import { mountEpochRoutes } from './epochs/routes';
import { mountTxRoutes } from './txs/routes';
import { mountAddressRoutes } from './addresses/routes';
import { mountAccountRoutes } from './accounts/routes';
import { mountAssetRoutes } from './assets/routes';
import { mountPoolRoutes } from './pools/routes';
import { mountScriptRoutes } from './scripts/routes';
import { mountMetadataRoutes } from './metadata/routes';
import { mountMempoolRoutes } from './mempool/routes';
import { mountSubmitRoutes } from './submit/routes';
import { mountUtilRoutes } from './utils/routes';
import { mountNutlinkRoutes } from './nutlink/routes';
import { mountGovernanceRoutes } from './governance/routes';

export interface Resource {
  /** The folder under resources/. */
  name: string;
  mount(router: Router, chain: SandboxChain, root: { url?: string; version: string }): void;
}

export const RESOURCES: readonly Resource[] = [
  { name: 'health', mount: mountHealthRoutes },
  { name: 'network', mount: mountNetworkRoutes },
  { name: 'blocks', mount: mountBlockRoutes },
  { name: 'epochs', mount: mountEpochRoutes },
  { name: 'txs', mount: mountTxRoutes },
  { name: 'addresses', mount: mountAddressRoutes },
  { name: 'accounts', mount: mountAccountRoutes },
  { name: 'assets', mount: mountAssetRoutes },
  { name: 'pools', mount: mountPoolRoutes },
  { name: 'scripts', mount: mountScriptRoutes },
  { name: 'metadata', mount: mountMetadataRoutes },
  { name: 'mempool', mount: mountMempoolRoutes },
  { name: 'submit', mount: mountSubmitRoutes },
  { name: 'utils', mount: mountUtilRoutes },
  { name: 'nutlink', mount: mountNutlinkRoutes },
  { name: 'governance', mount: mountGovernanceRoutes },
];

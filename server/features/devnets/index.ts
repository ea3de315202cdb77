// The public face of devnets (a cardano-devnet project's own development chain): the registry that
// holds the chains of this process, the service of the steering calls, the gateway's backend and
// extension, and the dashboard's routes. The chain engine comes from the composition root.
export { DevnetRegistry, type DevnetRegistryOptions } from './registry';
export { devnetService, type DevnetService, type SteeringCall } from './service';
export { devnetBackend, devnetExtension, NOT_A_DEVNET_KEY } from './gateway';
export { registerDevnetRoutes } from './routes';
export { devnetWatchedChain } from './push';
export { pruneDevnetLedgers } from './store';
export type { DevnetChain, DevnetEngine, DevnetSteering, DevnetStateJson, DevnetSnapshotJson } from './engine';

// GET /api/status and the public status page (/status): whether each part of this Cairn server
// answers. Nothing here names an address, a key or any other detail of the deployment.

export type ComponentState = 'operational' | 'down' | 'not_available';

interface ServiceStatus {
  name: 'Gateway' | 'Webhook worker' | 'Database' | 'Payment watcher' | 'Shared rate limits';
  state: ComponentState;
  /** Epoch ms since which it has been in this state, where the part says so (the payment watcher, the shared rate limits). */
  since?: number;
}

/** What serves a network: the built-in sandbox chain, the embedded EVM development chain, a configured backend, or nothing. */
export type BackendKind = 'sandbox' | 'development' | 'embedded' | 'upstream' | 'none';

export interface NetworkStatus {
  slug: string;
  label: string;
  backend: BackendKind;
  state: ComponentState;
  /** Seconds since the backend's latest block was made; null when the network has no blocks to show or did not answer. */
  latestBlockAgeSeconds: number | null;
}

export interface StatusReport {
  /** Epoch ms of the check. */
  checkedAt: number;
  overall: 'operational' | 'degraded';
  services: ServiceStatus[];
  networks: NetworkStatus[];
}

/** How often the status page refreshes, and how long the server reuses one check. */
export const STATUS_REFRESH_MS = 10_000;
export const STATUS_CACHE_MS = 5_000;

export const statusLabels: Record<ComponentState, string> = {
  operational: 'Operational',
  down: 'Not answering',
  not_available: 'Not available on this server',
};

export const backendLabels: Record<BackendKind, string> = {
  sandbox: 'Sandbox chain (simulated data)',
  development: 'Development chain (local EVM, a block per transaction)',
  embedded: 'Built-in store',
  upstream: 'Backend',
  none: 'No backend',
};

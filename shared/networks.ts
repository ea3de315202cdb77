// Networks as in spec section 3 and the Blockfrost compatibility contract.
export interface Network {
  value: number;
  label: string;
  /** Project key prefix; null for networks that have no keys of their own. */
  prefix: string | null;
  /** Path/host slug of the gateway. */
  slug: string | null;
  /** Secure Webhooks network id; null when webhooks are not supported. */
  webhookId: number | null;
  disabled: boolean;
  chainId?: string;
}

export const networks: readonly Network[] = [
  { value: 0, label: 'Cardano mainnet', prefix: 'mainnet', slug: 'cardano-mainnet', webhookId: 0, disabled: false },
  { value: 1, label: 'Cardano testnet', prefix: 'testnet', slug: null, webhookId: 1, disabled: true },
  { value: 2, label: 'IPFS', prefix: 'ipfs', slug: 'ipfs', webhookId: null, disabled: false },
  { value: 3, label: 'Milkomeda mainnet', prefix: 'milkmainnet', slug: 'milkomeda-mainnet', webhookId: null, disabled: false, chainId: '0x7D1' },
  { value: 4, label: 'Milkomeda testnet', prefix: 'milktestnet', slug: 'milkomeda-testnet', webhookId: null, disabled: true, chainId: '0x30DA5' },
  { value: 5, label: 'Cardano preview', prefix: 'preview', slug: 'cardano-preview', webhookId: 2, disabled: false },
  { value: 6, label: 'Cardano preprod', prefix: 'preprod', slug: 'cardano-preprod', webhookId: 3, disabled: false },
  { value: 7, label: 'Cardano SanchoNet', prefix: null, slug: null, webhookId: null, disabled: true },
];

export const enabledNetworks = (): Network[] => networks.filter((n) => !n.disabled);

export const findNetwork = (value: number): Network | undefined => networks.find((n) => n.value === value);

/** What the Add Project form says of a network this server cannot serve. */
export const NETWORK_NOT_AVAILABLE = 'Not available on this server';

/**
 * GET /api/networks: the networks a project can be keyed to, each with whether this server can serve
 * it now: not disabled, and with a backend (a configured upstream, an enabled community endpoint, or an
 * embedded one such as the sandbox chain or the EVM development chain).
 */
export interface NetworkOptionDto {
  value: number;
  label: string;
  available: boolean;
}

/** The networks with key prefixes, in the spec's order, marked by the slugs this server has a backend for. */
export const networkOptions = (served: (slug: string) => boolean): NetworkOptionDto[] =>
  networks
    .filter((n) => n.prefix !== null)
    .map((n) => ({ value: n.value, label: n.label, available: !n.disabled && n.slug !== null && served(n.slug) }));

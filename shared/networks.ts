// Networks as in spec section 3 and the Blockfrost compatibility contract: the one table every part
// reads (gateway slugs, key prefixes, sandbox chains, upstream variables, webhook ids): no second map
// of slug to sandbox, variable or address network lives elsewhere. tests/unit/shared/networks.test.ts
// checks each row against itself, the configuration, .env.example and the docs.

/** What kind of backend a network has: a Blockfrost-compatible Cardano API, IPFS, or an EVM JSON-RPC. */
type NetworkFamily = 'cardano' | 'ipfs' | 'evm';

/** The sandbox chain's own name of a Cardano network (server/sandbox/chain). */
export type SandboxName = 'mainnet' | 'preprod' | 'preview';

export interface Network {
  value: number;
  label: string;
  family: NetworkFamily;
  /** Project key prefix; null for networks that have no keys of their own. */
  prefix: string | null;
  /** Path/host slug of the gateway. */
  slug: string | null;
  /** The simulated chain that serves it when no upstream is configured (Cardano networks). */
  sandbox: SandboxName | null;
  /**
   * Stem of its upstream variables: `${upstreamVar}_URL` (the backend) and `${upstreamVar}_AUTH` (its
   * own credentials), parsed by server/config.ts; null: no backend can be configured.
   */
  upstreamVar: string | null;
  /** Secure Webhooks network id; null when webhooks are not supported. */
  webhookId: number | null;
  /** Cardano: the network id of its addresses (CIP-19) and its network magic. */
  cardano: { addressNetworkId: 0 | 1; networkMagic: number } | null;
  /** Retired by the spec: listed, never offered on any server (an operator turns others off with DISABLED_NETWORKS). */
  disabled: boolean;
  chainId?: string;
  /**
   * A private development chain per project (server/features/devnets): each key reaches its own
   * project's chain, steered under /cairn/v1/devnet; no upstream, no shared sandbox.
   */
  devnet?: true;
}

const NETWORK_TABLE = [
  { value: 0, label: 'Cardano mainnet', family: 'cardano', prefix: 'mainnet', slug: 'cardano-mainnet', sandbox: 'mainnet', upstreamVar: 'UPSTREAM_CARDANO_MAINNET', webhookId: 0, cardano: { addressNetworkId: 1, networkMagic: 764824073 }, disabled: false },
  { value: 1, label: 'Cardano testnet', family: 'cardano', prefix: 'testnet', slug: null, sandbox: null, upstreamVar: null, webhookId: 1, cardano: { addressNetworkId: 0, networkMagic: 1097911063 }, disabled: true },
  { value: 2, label: 'IPFS', family: 'ipfs', prefix: 'ipfs', slug: 'ipfs', sandbox: null, upstreamVar: 'UPSTREAM_IPFS', webhookId: null, cardano: null, disabled: false },
  { value: 3, label: 'Milkomeda mainnet', family: 'evm', prefix: 'milkmainnet', slug: 'milkomeda-mainnet', sandbox: null, upstreamVar: 'UPSTREAM_MILKOMEDA_MAINNET', webhookId: null, cardano: null, disabled: false, chainId: '0x7D1' },
  { value: 4, label: 'Milkomeda testnet', family: 'evm', prefix: 'milktestnet', slug: 'milkomeda-testnet', sandbox: null, upstreamVar: null, webhookId: null, cardano: null, disabled: true, chainId: '0x30DA5' },
  { value: 5, label: 'Cardano preview', family: 'cardano', prefix: 'preview', slug: 'cardano-preview', sandbox: 'preview', upstreamVar: 'UPSTREAM_CARDANO_PREVIEW', webhookId: 2, cardano: { addressNetworkId: 0, networkMagic: 2 }, disabled: false },
  { value: 6, label: 'Cardano preprod', family: 'cardano', prefix: 'preprod', slug: 'cardano-preprod', sandbox: 'preprod', upstreamVar: 'UPSTREAM_CARDANO_PREPROD', webhookId: 3, cardano: { addressNetworkId: 0, networkMagic: 1 }, disabled: false },
  { value: 7, label: 'Cardano SanchoNet', family: 'cardano', prefix: null, slug: null, sandbox: null, upstreamVar: null, webhookId: null, cardano: null, disabled: true },
  // A devnet webhook names the project whose devnet it follows (a devnet is one project's, a webhook a workspace's).
  { value: 8, label: 'Cardano devnet', family: 'cardano', prefix: 'devnet', slug: 'cardano-devnet', sandbox: null, upstreamVar: null, webhookId: 4, cardano: { addressNetworkId: 0, networkMagic: 42 }, disabled: false, devnet: true },
] as const satisfies readonly Network[];

type Row = (typeof NETWORK_TABLE)[number];
/** A gateway slug of a network this product offers (retired networks have none, or are never served). */
export type NetworkSlug = Extract<Row, { disabled: false }>['slug'];
/** The Cardano networks the sandbox chain can serve. */
export type SandboxSlug = Extract<Row, { sandbox: SandboxName }>['slug'];
/** Networks with a Blockfrost-compatible upstream (UPSTREAM_<NETWORK>_URL): Cardano and IPFS. */
export type UpstreamNetwork = Extract<Row, { upstreamVar: string; family: 'cardano' | 'ipfs' }>['slug'];

export const networks: readonly Network[] = NETWORK_TABLE;

const offered = NETWORK_TABLE.filter((n): n is Extract<Row, { disabled: false }> => !n.disabled);

/** Every slug the gateway answers, in the table's order. */
export const networkSlugs: readonly NetworkSlug[] = offered.map((n) => n.slug);
export const isNetworkSlug = (v: unknown): v is NetworkSlug => typeof v === 'string' && (networkSlugs as readonly string[]).includes(v);

/** Cardano networks with a sandbox chain, by slug, with the sandbox's name. */
export const sandboxNetworks: ReadonlyArray<{ slug: SandboxSlug; sandbox: SandboxName }> = NETWORK_TABLE.filter(
  (n): n is Extract<Row, { sandbox: SandboxName }> => n.sandbox !== null,
).map((n) => ({ slug: n.slug, sandbox: n.sandbox }));
export const sandboxSlugs = sandboxNetworks.map((n) => n.slug) as [SandboxSlug, ...SandboxSlug[]];
export const isSandboxSlug = (v: unknown): v is SandboxSlug => typeof v === 'string' && (sandboxSlugs as readonly string[]).includes(v);
/** The sandbox chain of a slug; undefined for networks it does not serve. */
export const sandboxOf = (slug: string): SandboxName | undefined => sandboxNetworks.find((n) => n.slug === slug)?.sandbox;
/** The slug of a sandbox chain. */
export const slugOfSandbox = (sandbox: SandboxName): SandboxSlug => sandboxNetworks.find((n) => n.sandbox === sandbox)!.slug;

/** Networks whose backend is a Blockfrost-compatible upstream, with the stem of their variables. */
export const upstreamNetworks: ReadonlyArray<{ slug: UpstreamNetwork; upstreamVar: string }> = NETWORK_TABLE.filter(
  (n): n is Extract<Row, { upstreamVar: string; family: 'cardano' | 'ipfs' }> => n.upstreamVar !== null && n.family !== 'evm',
).map((n) => ({ slug: n.slug, upstreamVar: n.upstreamVar }));

/** The Cardano parameters of a sandbox chain's network: its address network id (CIP-19) and its network magic. */
export const cardanoOfSandbox = (sandbox: SandboxName): { addressNetworkId: 0 | 1; networkMagic: number } =>
  networks.find((n) => n.sandbox === sandbox)!.cardano!;

/** The devnet network: each of its projects has a development chain of its own. */
export const devnetNetwork = NETWORK_TABLE.find((n): n is Extract<Row, { devnet: true }> => 'devnet' in n && n.devnet)!;
export type DevnetSlug = (typeof devnetNetwork)['slug'];
export const isDevnetNetwork = (value: number): boolean => value === devnetNetwork.value;

/**
 * The Cardano network whose addresses a slug's chain takes, as address checks name it: a sandbox
 * network's own; a devnet's are test network addresses (network id 0), as preview's.
 */
export const addressNetworkOf = (slug: string): SandboxName | undefined => sandboxOf(slug) ?? (slug === devnetNetwork.slug ? 'preview' : undefined);

/** The IPFS network: projects keyed to it have the IPFS backend. */
export const ipfsNetwork = NETWORK_TABLE.find((n) => n.family === 'ipfs')!;

/** The EVM network (Milkomeda mainnet) and the stem of its upstream variables. */
export const evmNetwork = NETWORK_TABLE.find((n): n is Extract<Row, { family: 'evm'; disabled: false }> => n.family === 'evm' && !n.disabled)!;
/** Every EVM slug, retired ones too: their keys are JSON-RPC keys (basic auth) wherever they come from. */
export const evmSlugs: ReadonlySet<string> = new Set(NETWORK_TABLE.filter((n) => n.family === 'evm' && n.slug).map((n) => n.slug!));

/** Every upstream variable stem (UPSTREAM_CARDANO_MAINNET, …, UPSTREAM_MILKOMEDA_MAINNET). */
export const upstreamVariables: readonly string[] = NETWORK_TABLE.flatMap((n) => (n.upstreamVar ? [n.upstreamVar] : []));

/** The networks a server offers: not retired by the spec, not turned off by its operator (DISABLED_NETWORKS). */
export const offeredNetworks = (turnedOff: readonly string[] = []): Array<Network & { slug: NetworkSlug }> =>
  networks.filter((n): n is Network & { slug: NetworkSlug } => n.slug !== null && !n.disabled && !turnedOff.includes(n.slug));

export const findNetwork = (value: number): Network | undefined => networks.find((n) => n.value === value);
/** A network's name on screen; a value the table does not know (an old row) still shows as 'Network 9'. */
export const networkLabel = (value: number): string => findNetwork(value)?.label ?? `Network ${value}`;
/** The Cardano network a Secure Webhooks network id names, with its address network id (1 mainnet, 0 test networks). */
export const webhookNetworkOf = (webhookId: number): Network | undefined => networks.find((n) => n.webhookId === webhookId);
export const addressNetworkOfWebhook = (webhookId: number): 0 | 1 => webhookNetworkOf(webhookId)?.cardano?.addressNetworkId ?? 1;
export const networkBySlug = (slug: string): Network | undefined => networks.find((n) => n.slug === slug);

/**
 * The order Add Project lists networks in: the test networks a dApp is built on first (a private
 * devnet after the shared ones), then mainnet, IPFS and Milkomeda; a network not named here comes after them in the table's order.
 */
const DEVELOPER_ORDER: readonly number[] = [6, 5, 8, 0, 2, 3];

/** Add Project's choices: only the networks this server serves, those a developer uses first; the first is the default. */
export const projectNetworkChoices = (options: readonly NetworkOptionDto[]): NetworkOptionDto[] => {
  const rank = (value: number) => {
    const i = DEVELOPER_ORDER.indexOf(value);
    return i === -1 ? DEVELOPER_ORDER.length : i;
  };
  return options.filter((n) => n.available).sort((a, b) => rank(a.value) - rank(b.value));
};
/** The 400 of POST /api/workspaces/{id}/projects for such a network. */
export const networkNotAvailableMessage = (label: string) =>
  `${label} is not available on this server: it is turned off here or has no backend. Choose one of the networks offered.`;

/**
 * GET /api/networks: the networks a project can be keyed to, each with whether this server can serve
 * it now: not retired, not turned off by the operator (DISABLED_NETWORKS), and with a backend (a
 * configured upstream, an enabled community endpoint, or an embedded one such as the sandbox chain or
 * the EVM development chain).
 */
export interface NetworkOptionDto {
  value: number;
  label: string;
  available: boolean;
}

/** Every network of the spec's table, in its order (the retired ones too, never available), marked by the slugs this server can serve. */
export const networkOptions = (served: (slug: string) => boolean): NetworkOptionDto[] =>
  networks.map((n) => ({ value: n.value, label: n.label, available: !n.disabled && n.slug !== null && served(n.slug) }));

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evmChainByNetworkId, MILKOMEDA_MAINNET, MILKOMEDA_TESTNET } from '../../../shared/milkomeda';
import { NETWORK_MAGIC } from '../../../server/sandbox/chain/params';
import { networkId } from '../../../shared/cardano/address';
import {
  addressNetworkOfWebhook,
  devnetNetwork,
  evmNetwork,
  isDevnetNetwork,
  ipfsNetwork,
  networkOptions,
  networks,
  networkSlugs,
  offeredNetworks,
  sandboxNetworks,
  sandboxOf,
  slugOfSandbox,
  upstreamNetworks,
  upstreamVariables,
} from '../../../shared/networks';
import { endpointNetworks } from '../../../shared/endpoints';
import { faucetRequestSchema } from '../../../shared/sandbox-faucet';
import { ConfigError, loadConfig } from '../../../server/config';

// One network table (shared/networks.ts) that every part derives from, so adding a network is one row.
// These check that each row is consistent in itself and with what is derived from it.
const root = path.resolve(import.meta.dirname, '../../..');
const unique = <T>(xs: T[]) => new Set(xs).size === xs.length;

describe('the network table', () => {
  it('has unique values, slugs, prefixes, webhook ids and upstream variables', () => {
    expect(unique(networks.map((n) => n.value))).toBe(true);
    const present = <K extends 'slug' | 'prefix' | 'webhookId' | 'upstreamVar'>(k: K) => networks.map((n) => n[k]).filter((v) => v !== null);
    for (const k of ['slug', 'prefix', 'webhookId', 'upstreamVar'] as const) expect(unique(present(k)), k).toBe(true);
  });

  it('spells each slug from its family and its prefix, and each upstream variable from its slug', () => {
    for (const n of networks) {
      if (n.slug === null) continue;
      if (n.family === 'cardano') expect(n.slug).toBe(`cardano-${n.prefix}`);
      if (n.family === 'ipfs') expect(n.slug).toBe(n.prefix);
      if (n.family === 'evm') expect(n.slug).toBe(`milkomeda-${n.prefix!.replace(/^milk/, '')}`);
      if (n.upstreamVar !== null) expect(n.upstreamVar).toBe(`UPSTREAM_${n.slug.toUpperCase().replace(/-/g, '_')}`);
    }
  });

  it('gives every offered network a slug, a prefix and an upstream variable (the devnet none: no upstream serves it); retired ones have no upstream', () => {
    for (const n of networks) {
      if (n.disabled || n.devnet) expect(n.upstreamVar, n.label).toBeNull();
      else {
        expect(n.slug, n.label).not.toBeNull();
        expect(n.prefix, n.label).not.toBeNull();
        expect(n.upstreamVar, n.label).not.toBeNull();
      }
    }
    expect(networkSlugs).toEqual(['cardano-mainnet', 'ipfs', 'milkomeda-mainnet', 'cardano-preview', 'cardano-preprod', 'cardano-devnet']);
  });

  it("has one devnet network: a Cardano test network keyed `devnet`, served by no shared sandbox, its webhooks each following one project's devnet", () => {
    expect(networks.filter((n) => n.devnet)).toEqual([devnetNetwork]);
    expect(devnetNetwork).toMatchObject({ value: 8, label: 'Cardano devnet', family: 'cardano', prefix: 'devnet', slug: 'cardano-devnet', sandbox: null, upstreamVar: null, webhookId: 4, disabled: false });
    expect(devnetNetwork.cardano.addressNetworkId).toBe(0);
    expect(isDevnetNetwork(8)).toBe(true);
    expect(isDevnetNetwork(6)).toBe(false);
    expect(sandboxOf('cardano-devnet')).toBeUndefined();
  });

  it('names a sandbox chain for exactly the offered Cardano networks, the one its slug says', () => {
    for (const n of networks) {
      if (n.family === 'cardano' && !n.disabled && !n.devnet) expect(n.sandbox).toBe(n.prefix);
      else expect(n.sandbox, n.label).toBeNull();
    }
    expect(sandboxNetworks).toEqual([
      { slug: 'cardano-mainnet', sandbox: 'mainnet' },
      { slug: 'cardano-preview', sandbox: 'preview' },
      { slug: 'cardano-preprod', sandbox: 'preprod' },
    ]);
    for (const { slug, sandbox } of sandboxNetworks) {
      expect(sandboxOf(slug)).toBe(sandbox);
      expect(slugOfSandbox(sandbox)).toBe(slug);
    }
    expect(sandboxOf('ipfs')).toBeUndefined();
  });

  it('gives Cardano networks their address network id and magic, mainnet alone on 1', () => {
    for (const n of networks.filter((x) => x.family === 'cardano' && !x.disabled)) {
      expect(n.cardano, n.label).not.toBeNull();
      expect(n.cardano!.addressNetworkId).toBe(n.slug === 'cardano-mainnet' ? 1 : 0);
    }
    expect(endpointNetworks).toEqual({
      'cardano-mainnet': { label: 'Cardano mainnet', addressNetworkId: 1, networkMagic: 764824073 },
      'cardano-preview': { label: 'Cardano preview', addressNetworkId: 0, networkMagic: 2 },
      'cardano-preprod': { label: 'Cardano preprod', addressNetworkId: 0, networkMagic: 1 },
    });
    // Secure Webhooks' network ids: 0 mainnet, 2 preview, 3 preprod.
    expect([0, 2, 3].map(addressNetworkOfWebhook)).toEqual([1, 0, 0]);
  });

  it('has its Blockfrost-compatible upstreams and the EVM one apart', () => {
    expect(upstreamNetworks.map((u) => u.slug)).toEqual(['cardano-mainnet', 'ipfs', 'cardano-preview', 'cardano-preprod']);
    expect(evmNetwork).toMatchObject({ slug: 'milkomeda-mainnet', upstreamVar: 'UPSTREAM_MILKOMEDA_MAINNET', chainId: '0x7D1' });
  });

  it('is where the chain ids, network magics and the IPFS network come from', () => {
    expect([MILKOMEDA_MAINNET.chainId, MILKOMEDA_MAINNET.chainIdNumber, MILKOMEDA_TESTNET.chainIdNumber]).toEqual(['0x7D1', 2001, 200101]);
    expect(Object.keys(evmChainByNetworkId).map(Number)).toEqual(networks.filter((n) => n.family === 'evm').map((n) => n.value));
    expect(NETWORK_MAGIC).toEqual({ mainnet: 764824073, preview: 2, preprod: 1 });
    expect(['mainnet', 'preview', 'preprod'].map((n) => networkId(n as 'mainnet'))).toEqual([1, 0, 0]);
    expect(ipfsNetwork).toMatchObject({ value: 2, slug: 'ipfs' });
  });

  it('is what the configuration reads: each upstream variable configures its own network', () => {
    for (const { slug, upstreamVar } of upstreamNetworks) {
      const c = loadConfig({ [`${upstreamVar}_URL`]: 'http://127.0.0.1:9/api/v0/', [`${upstreamVar}_AUTH`]: 'X-Key: s3cret' });
      expect(Object.keys(c.gateway.upstreams)).toEqual([slug]);
      expect(c.gateway.upstreams[slug]).toEqual({ url: 'http://127.0.0.1:9/api/v0', auth: { name: 'x-key', value: 's3cret' } });
      expect(() => loadConfig({ [`${upstreamVar}_URL`]: 'ftp://x' })).toThrow(new ConfigError(`Invalid configuration: ${upstreamVar}_URL must be an http(s) URL (got "ftp://x")`));
    }
    const evm = loadConfig({ [`${evmNetwork.upstreamVar}_URL`]: 'http://127.0.0.1:9' });
    expect(evm.gateway.milkomeda).toEqual({ url: 'http://127.0.0.1:9', auth: null });
    expect(evm.gateway.upstreams).toEqual({});
  });

  it('is what .env.example and the docs list: every upstream variable, every slug', () => {
    const env = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    // The configuration page is generated from the schema (a test keeps it current); the gateway's page is prose.
    const configuration = fs.readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const gateway = fs.readFileSync(path.join(root, 'docs/gateway.md'), 'utf8');
    const row = (v: string) => configuration.split('\n').find((l) => l.startsWith(`| \`${v}\` |`));
    for (const { slug, upstreamVar } of [...upstreamNetworks, evmNetwork]) {
      const label = networks.find((n) => n.slug === slug)!.label;
      for (const v of [`${upstreamVar}_URL`, `${upstreamVar}_AUTH`]) {
        expect(env, v).toMatch(new RegExp(`^${v}=`, 'm'));
        expect(row(v), v).toBeDefined();
      }
      expect(row(`${upstreamVar}_URL`), upstreamVar).toContain(label);
    }
    expect(upstreamNetworks.length + 1).toBe(upstreamVariables.length);
    expect(env).toMatch(/^DISABLED_NETWORKS=/m);
    for (const slug of networkSlugs) {
      expect(row('DISABLED_NETWORKS'), slug).toContain(slug);
      expect(gateway, slug).toContain(`\`${slug}\``);
    }
  });

  it('derives the faucet networks, the offered networks and the Add Project options', () => {
    expect(faucetRequestSchema.safeParse({ network: 'cardano-preprod', address: 'addr_test1x' }).success).toBe(true);
    expect(faucetRequestSchema.safeParse({ network: 'ipfs', address: 'addr_test1x' }).success).toBe(false);
    expect(offeredNetworks(['ipfs', 'cardano-mainnet']).map((n) => n.slug)).toEqual(['milkomeda-mainnet', 'cardano-preview', 'cardano-preprod', 'cardano-devnet']);
    const options = networkOptions((slug) => slug !== 'ipfs');
    expect(options.map((o) => [o.label, o.available])).toEqual([
      ['Cardano mainnet', true],
      ['Cardano testnet', false],
      ['IPFS', false],
      ['Milkomeda mainnet', true],
      ['Milkomeda testnet', false],
      ['Cardano preview', true],
      ['Cardano preprod', true],
      ['Cardano SanchoNet', false],
      ['Cardano devnet', true],
    ]);
  });
});

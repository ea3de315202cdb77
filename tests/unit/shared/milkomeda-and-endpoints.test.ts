import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addEthereumChainParameters, ALLOWED_EVM_METHODS, rpcUrlWithKey } from '../../../shared/milkomeda';
import { looksLikeShelleyAddress, submitEndpointSchema } from '../../../shared/endpoints';
import { messages } from '../../../shared/messages';
import { enterpriseAddress } from '../../../shared/cardano/address';
import { basicAuthPassword } from '../../../server/gateway/request-key';

describe('Milkomeda chain parameters', () => {
  it("puts the key in the RPC URL's path, and reads it from a basic-auth password", () => {
    expect(rpcUrlWithKey('https://api.cairn.example/', 'milkmainnetABC')).toBe('https://api.cairn.example/milkmainnetABC/milkomeda-mainnet/api/v0/');
    expect(basicAuthPassword(`Basic ${Buffer.from('project:milkmainnetABC').toString('base64')}`)).toBe('milkmainnetABC');
    expect(basicAuthPassword(`Basic ${Buffer.from(':k').toString('base64')}`)).toBe('k');
    expect(basicAuthPassword('Bearer x')).toBeNull();
    expect(basicAuthPassword(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeNull();
  });

  it('builds the wallet_addEthereumChain parameters of the contract', () => {
    expect(addEthereumChainParameters('http://localhost:3001', 'k')).toEqual({
      chainId: '0x7d1',
      chainName: 'Milkomeda C1 Mainnet',
      nativeCurrency: { name: 'milkAda', symbol: 'mADA', decimals: 18 },
      rpcUrls: ['http://localhost:3001/k/milkomeda-mainnet/api/v0/'],
      blockExplorerUrls: ['https://explorer-mainnet-cardano-evm.c1.milkomeda.com'],
    });
  });

  it('allows the read methods and eth_sendRawTransaction only', () => {
    expect(ALLOWED_EVM_METHODS.has('eth_sendRawTransaction')).toBe(true);
    for (const m of ['eth_accounts', 'eth_sign', 'eth_sendTransaction', 'personal_sign', 'admin_peers', 'debug_traceTransaction']) expect(ALLOWED_EVM_METHODS.has(m)).toBe(false);
  });
});

describe('submit-endpoint validation', () => {
  const addr = enterpriseAddress('preview', crypto.randomBytes(28));
  const errors = (input: unknown) => {
    const r = submitEndpointSchema.safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path[0], i.message]));
  };

  it("answers the spec's messages", () => {
    expect(errors({ endpoint: '', paymentAddress: '' })).toEqual({ endpoint: messages.submitEndpoint.endpointEmpty, paymentAddress: messages.submitEndpoint.addressEmpty });
    expect(errors({ endpoint: 'example.com', paymentAddress: 'xyz' })).toEqual({ endpoint: messages.submitEndpoint.urlInvalid, paymentAddress: messages.submitEndpoint.addressInvalid });
    expect(errors({ endpoint: 'https://user:pw@example.com', paymentAddress: addr })).toEqual({ endpoint: messages.submitEndpoint.urlInvalid });
    expect(errors({ endpoint: 'https://bf.example.com/api/v0/', paymentAddress: addr })).toEqual({});
    expect(submitEndpointSchema.parse({ endpoint: ' https://bf.example.com/api/v0/ ', paymentAddress: addr }).endpoint).toBe('https://bf.example.com/api/v0');
  });

  it('decodes bech32 within the 1000-character limit, with an address prefix', () => {
    expect(looksLikeShelleyAddress(addr)).toBe(true);
    expect(looksLikeShelleyAddress(addr.slice(0, -1) + (addr.endsWith('q') ? 'p' : 'q'))).toBe(false); // checksum
    expect(looksLikeShelleyAddress('stake_test1uqfu74w3wh4gfzu8m6e7j987h4lq9r3t7ef5gaw497uu85qsqfy27')).toBe(false);
    expect(looksLikeShelleyAddress('addr_test1' + 'q'.repeat(995))).toBe(false);
  });
});

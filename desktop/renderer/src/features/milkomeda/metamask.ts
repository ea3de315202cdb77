import { addEthereumChainParameters } from '../../../../../shared/milkomeda';

/** The part of an EIP-1193 provider (window.ethereum) the dashboard uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export function injectedProvider(): Eip1193Provider | null {
  const eth = (window as unknown as { ethereum?: Partial<Eip1193Provider> }).ethereum;
  return eth && typeof eth.request === 'function' ? (eth as Eip1193Provider) : null;
}

/** Asks the wallet to add Milkomeda with this gateway (and the project's key) as its RPC. */
export function addMilkomedaToWallet(provider: Eip1193Provider, gatewayUrl: string, key: string): Promise<unknown> {
  return provider.request({ method: 'wallet_addEthereumChain', params: [addEthereumChainParameters(gatewayUrl, key)] });
}

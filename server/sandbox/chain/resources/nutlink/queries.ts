// /nutlink: the metadata oracles of labels 1967 and 1968 (../nutlink.ts reads them from the chain).
import type { ChainContext } from '../../context';
import type { SandboxChain } from '../../api';

/** The chain's methods behind these paths. */
export type NutlinkPaths = Pick<SandboxChain, 'nutlinkAddress' | 'nutlinkTickers' | 'nutlinkAddressTicker' | 'nutlinkTicker'>;

export function nutlinkPaths(ctx: ChainContext): NutlinkPaths {
  const { nutlink } = ctx;
  const paths: NutlinkPaths = {
    nutlinkAddress: (address) => nutlink.address(address),
    nutlinkTickers: (address, page) => nutlink.tickers(address, page),
    nutlinkAddressTicker: (address, ticker, page) => nutlink.addressTicker(address, ticker, page),
    nutlinkTicker: (ticker, page) => nutlink.ticker(ticker, page),
  };
  return paths;
}

// /nutlink: the metadata oracles of labels 1967 and 1968 (../nutlink.ts reads them from the chain).
import type { ChainContext } from '../../context';
import type { Nutlink } from '../../nutlink';
import type { PageRequest } from '../../../../blockfrost/http';

/** The chain's queries behind /nutlink. */
export interface NutlinkQueries {
  nutlinkAddress(address: string): ReturnType<Nutlink['address']>;
  nutlinkTickers(address: string, page: PageRequest): ReturnType<Nutlink['tickers']>;
  nutlinkAddressTicker(address: string, ticker: string, page: PageRequest): ReturnType<Nutlink['addressTicker']>;
  nutlinkTicker(ticker: string, page: PageRequest): ReturnType<Nutlink['ticker']>;
}

export function nutlinkPaths(ctx: ChainContext): NutlinkQueries {
  const { nutlink } = ctx;
  const paths: NutlinkQueries = {
    nutlinkAddress: (address) => nutlink.address(address),
    nutlinkTickers: (address, page) => nutlink.tickers(address, page),
    nutlinkAddressTicker: (address, ticker, page) => nutlink.addressTicker(address, ticker, page),
    nutlinkTicker: (ticker, page) => nutlink.ticker(ticker, page),
  };
  return paths;
}

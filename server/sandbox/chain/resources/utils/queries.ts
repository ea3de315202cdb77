// /utils: addresses from an account's xpub, and /utils/txs/evaluate (the Plutus scripts' budgets).
import type { ChainContext } from '../../context';
import type { Evaluation, ResolvedOutput } from '../../plutus';
import { addressFromXpub } from '../../wallets';

/** The chain's queries behind /utils. */
export interface UtilQueries {
  xpubAddress(xpub: string, role: number, index: number): string;
  /** /utils/txs/evaluate: the Plutus scripts' budgets or failures (throws LedgerRefusal for CBOR that is no transaction). */
  evaluate(cbor: Uint8Array, additional?: ResolvedOutput[]): Promise<Evaluation>;
}

export function utilPaths(ctx: ChainContext): UtilQueries {
  const { network, ledger } = ctx;
  const paths: UtilQueries = {
    xpubAddress(xpub, role, index) {
      return addressFromXpub(xpub, role, index, network);
    },
    async evaluate(cbor, additional) {
      await ledger.ready();
      await ledger.sync();
      return ledger.evaluateTx(cbor, additional);
    },
  };
  return paths;
}

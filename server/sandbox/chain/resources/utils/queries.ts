// /utils: addresses from an account's xpub, and /utils/txs/evaluate (the Plutus scripts' budgets).
import type { ChainContext } from '../../context';
import type { SandboxChain } from '../../api';
import { addressFromXpub } from '../../wallets';

/** The chain's methods behind these paths. */
export type UtilPaths = Pick<SandboxChain, 'xpubAddress' | 'evaluate'>;

export function utilPaths(ctx: ChainContext): UtilPaths {
  const { network, ledger } = ctx;
  const paths: UtilPaths = {
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

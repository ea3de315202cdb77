// /tx/submit and the development aids: the live ledger's store, submissions, the faucet
// (/dev/faucet, pay-as-you-go orders in development) and the development wallets.
import type { ChainContext } from '../../context';
import { blake2bReady } from '../../../../../shared/cardano/blake2b';
import { isAddressOfNetwork } from '../../../../blockfrost/contract';
import { buildFaucetTx, FAUCET_MAX_LOVELACE, type FaucetAsset } from '../../wallets';

/** What the faucet is asked for (the dashboard button, /dev/faucet, pay-as-you-go orders in development). */
export interface FaucetRequest {
  address: string;
  lovelace: bigint | number | string;
  /** Test native assets minted under the faucet's policy: asset name in hex, quantity. */
  assets?: Array<{ assetName: string; quantity: bigint | number | string }>;
}

export interface FaucetPayment {
  txHash: string;
  /** The block the payment goes into (the next one). */
  height: number;
  lovelace: string;
  assets: Array<{ unit: string; quantity: string }>;
}

/** A development wallet: test keys derived from the seed, funded in block 0. */
export interface DevWalletInfo {
  mnemonic: string;
  address: string;
  stakeAddress: string;
}

/** The chain's queries behind /tx/submit, and the live ledger's loading and development aids. */
export interface SubmitQueries {
  /** Loads the accepted transactions of the store (once), and the hash the simulation runs on; call before serving. */
  ready(): Promise<void>;
  /** Reads transactions other processes accepted since the last read. */
  sync(): Promise<void>;
  /** The store's sequence number as of the last read or acceptance here: a larger one in the store means sync() has more to read. */
  ledgerSeq(): number;
  /** Validates a signed transaction (CBOR) and puts it into the next block; answers its hash or throws LedgerRefusal. */
  submit(cbor: Uint8Array): Promise<string>;
  /** Pays test ada (and mints test assets) to an address in the next block; answers the transaction. */
  faucet(request: FaucetRequest): Promise<FaucetPayment>;
  devWallets(): DevWalletInfo[];
  faucetInfo(): { address: string; policyId: string };
}

export function submitPaths(ctx: ChainContext): SubmitQueries {
  const { network, ledger, devAids, wallets, faucetKeys } = ctx;
  const paths: SubmitQueries = {
    ready: async () => {
      await Promise.all([ledger.ready(), blake2bReady()]);
    },
    sync: () => ledger.sync(),
    ledgerSeq: () => ledger.lastSeq(),
    async submit(cbor) {
      return (await ledger.submit(cbor)).hash;
    },
    async faucet(request) {
      if (!devAids) throw new Error('the sandbox faucet does not exist in production');
      const lovelace = BigInt(request.lovelace);
      if (lovelace < 1_000_000n || lovelace > FAUCET_MAX_LOVELACE) throw new RangeError(`lovelace must be between 1000000 and ${FAUCET_MAX_LOVELACE}`);
      if (!isAddressOfNetwork(request.address, network)) throw new RangeError(`address must be a Shelley address of ${network}`);
      const assets: FaucetAsset[] = (request.assets ?? []).map((a) => ({ assetName: a.assetName.toLowerCase(), quantity: BigInt(a.quantity) }));
      for (const a of assets) {
        if (!/^(?:[0-9a-f]{2}){0,32}$/.test(a.assetName)) throw new RangeError('assetName must be 0 to 32 bytes in hex');
        if (a.quantity < 1n || a.quantity > 1_000_000_000_000_000n) throw new RangeError('asset quantity must be between 1 and 10^15');
      }
      if (new Set(assets.map((a) => a.assetName)).size !== assets.length) throw new RangeError('each asset name may appear once');
      const tx = await ledger.submit(() => buildFaucetTx(faucetKeys, ledger.pendingUtxosOf(faucetKeys.address), request.address, lovelace, assets, ctx.params.protocol), 'faucet');
      const paid = tx.outputs[0]!;
      return {
        txHash: tx.hash,
        height: tx.height,
        lovelace: String(paid.lovelace),
        assets: [...paid.assets.entries()].map(([unit, quantity]) => ({ unit, quantity: String(quantity) })),
      };
    },
    devWallets: () => wallets.map((w) => ({ mnemonic: w.mnemonic, address: w.address, stakeAddress: w.stakeAddress })),
    faucetInfo: () => ({ address: faucetKeys.address, policyId: faucetKeys.policyId }),
  };
  return paths;
}

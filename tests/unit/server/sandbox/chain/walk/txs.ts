// The walk's requests for blocks by slot, block addresses and CBOR, transaction redeemers, signers
// and CBOR, address totals, asset histories, scripts, metadata CBOR and the mempool. Its prepare()
// leaves a transaction waiting in the mempool, so it runs after every group that makes blocks.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { ALWAYS_V3, lock, scriptAddress, spend } from '../plutus-builder';
import { keysOf, payment } from '../tx-builder';
import type { WalkFixture, WalkGroup } from './types';

const spendTx = (f: WalkFixture) => f.chain.tx(f.made.txsSpend!)!;
const spendBlock = (f: WalkFixture) => f.chain.blockAt(spendTx(f).block)!;

export const txs: WalkGroup = {
  name: 'txs',
  async prepare(f) {
    const { chain, clock } = f;
    const next = () => {
      clock.now += chain.params.blockIntervalMs;
    };
    const wallet = chain.devWallets()[2]!;
    const keys = keysOf(wallet.mnemonic);
    // The wallet's largest ada-only output (the staking group spends from this wallet too).
    const plain = () =>
      chain
        .addressUtxos(wallet.address)!
        .filter((u) => u.amount.length === 1 && !u.reference_script_hash)
        .sort((a, b) => (BigInt(b.amount[0]!.quantity) > BigInt(a.amount[0]!.quantity) ? 1 : -1))[0]!;
    // Test tokens under the faucet's native-script policy, and an output holding the always-succeeds script.
    await chain.faucet({ address: wallet.address, lovelace: 2_000_000, assets: [{ assetName: Buffer.from('TXS').toString('hex'), quantity: 7 }] });
    await chain.submit(lock(chain, wallet.address, keys.payment, CSL.Address.from_bech32(wallet.address), 20_000_000n, { referenceScript: ALWAYS_V3, from: plain() }));
    next();
    const script = scriptAddress(ALWAYS_V3, f.network === 'mainnet' ? 1 : 0);
    const lockHash = await chain.submit(lock(chain, wallet.address, keys.payment, script, 10_000_000n, { from: plain() }));
    next();
    const locked = chain.addressUtxos(script.to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    f.made.txsSpend = await chain.submit(spend(chain, wallet.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n }, exUnits: { mem: 500n, steps: 64_100n } }));
    next();
    const to = chain.devWallets()[1]!.address;
    await chain.submit(payment({ inputs: [plain()], to, lovelace: 2_000_000n, change: wallet.address, signers: [keys.payment], metadata: { label: 674, json: { msg: ['walk'] } } }));
    next();
    // Accepted for the next block: in the mempool until that block exists.
    f.made.txsWaiting = await chain.submit(payment({ inputs: [plain()], to, lovelace: 2_000_000n, change: wallet.address, signers: [keys.payment] }));
    f.made.txsAddress = wallet.address;
  },
  requests: {
    '/blocks/slot/{slot_number}': { path: (f) => `/blocks/slot/${spendTx(f).slot}` },
    '/blocks/epoch/{epoch_number}/slot/{slot_number}': { path: (f) => `/blocks/epoch/${spendBlock(f).epoch}/slot/${spendBlock(f).epoch_slot}` },
    '/blocks/{hash_or_number}/addresses': { path: (f) => `/blocks/${spendTx(f).block}/addresses` },
    '/blocks/{hash_or_number}/txs/cbor': { path: (f) => `/blocks/${spendTx(f).block_height}/txs/cbor` },
    '/blocks/latest/txs/cbor': { path: () => '/blocks/latest/txs/cbor' },
    '/txs/{hash}/redeemers': { path: (f) => `/txs/${f.made.txsSpend}/redeemers` },
    '/txs/{hash}/required_signers': { path: (f) => `/txs/${f.made.txsSpend}/required_signers` },
    '/txs/{hash}/cbor': { path: (f) => `/txs/${f.made.txsSpend}/cbor` },
    '/addresses/{address}/total': { path: (f) => `/addresses/${f.made.txsAddress}/total` },
    '/addresses/{address}/txs': { path: (f) => `/addresses/${f.made.txsAddress}/txs?order=desc` },
    '/assets/{asset}/history': { path: (f) => `/assets/${f.chain.catalog().assets[0]!.unit}/history?order=desc&count=5` },
    '/assets/{asset}/txs': { path: (f) => `/assets/${f.chain.catalog().assets[0]!.unit}/txs?count=5` },
    '/assets/{asset}/transactions': { path: (f) => `/assets/${f.chain.catalog().assets[0]!.unit}/transactions?order=desc` },
    '/assets/{asset}/utxos': { path: (f) => `/assets/${f.chain.catalog().assets[0]!.unit}/utxos` },
    '/scripts': { path: () => '/scripts' },
    '/scripts/{script_hash}/json': { path: (f) => `/scripts/${f.chain.faucetInfo().policyId}/json` },
    '/scripts/{script_hash}/redeemers': { path: () => `/scripts/${ALWAYS_V3.hash().to_hex()}/redeemers` },
    '/scripts/{script_hash}/utxos': { path: () => `/scripts/${ALWAYS_V3.hash().to_hex()}/utxos` },
    '/metadata/txs/labels/{label}/cbor': { path: () => '/metadata/txs/labels/674/cbor' },
    '/mempool': { path: () => '/mempool' },
    '/mempool/{hash}': { path: (f) => `/mempool/${f.made.txsWaiting}` },
    '/mempool/addresses/{address}': { path: (f) => `/mempool/addresses/${f.made.txsAddress}` },
  },
};

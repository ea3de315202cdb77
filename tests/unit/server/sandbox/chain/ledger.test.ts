import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { describe, expect, it } from 'vitest';
import { enterpriseAddress } from '../../../../../shared/cardano/address';
import { LedgerRefusal, memoryLedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { keysOf, payment, withForeignSignature } from './tx-builder';
import { testChain } from './support';

const lovelaceOf = (amount: Array<{ unit: string; quantity: string }>) => BigInt(amount.find((a) => a.unit === 'lovelace')!.quantity);

function setup(store = memoryLedgerStore()) {
  const t = testChain({ store });
  const [alice, bob] = t.chain.devWallets();
  const next = () => {
    t.clock.now += t.chain.params.blockIntervalMs;
  };
  return { ...t, alice: alice!, bob: bob!, aliceKeys: keysOf(alice!.mnemonic), bobKeys: keysOf(bob!.mnemonic), next, store };
}

async function refusal(chain: SandboxChain, cbor: Uint8Array): Promise<string> {
  const err = await chain.submit(cbor).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LedgerRefusal);
  return (err as Error).message;
}

/** Sums of an address's utxos against its /addresses amount. */
function expectConsistent(chain: SandboxChain, address: string) {
  const info = chain.address(address)!;
  const utxos = chain.addressUtxos(address)!;
  const sum = new Map<string, bigint>();
  for (const u of utxos) for (const a of u.amount) sum.set(a.unit, (sum.get(a.unit) ?? 0n) + BigInt(a.quantity));
  for (const a of info.amount) expect(sum.get(a.unit) ?? 0n).toBe(BigInt(a.quantity));
}

describe('the sandbox ledger', () => {
  it('funds the development wallets in block 0, and their utxos sum to their amount', () => {
    const { chain, alice } = setup();
    const utxos = chain.addressUtxos(alice.address)!;
    expect(utxos.map((u) => lovelaceOf(u.amount))).toEqual([10_000_000_000n, 1_000_000_000n]);
    expect(chain.tx(utxos[0]!.tx_hash)!.block_height).toBe(0);
    expectConsistent(chain, alice.address);
    // Background addresses obey the same rule.
    for (const a of chain.catalog().addresses.slice(0, 40)) if (chain.address(a.address)) expectConsistent(chain, a.address);
  });

  it('accepts a signed payment into the next block, after which its outputs are utxos and its input is spent', async () => {
    const { chain, alice, bob, aliceKeys, next } = setup();
    const input = chain.addressUtxos(alice.address)![1]!;
    const cbor = payment({ inputs: [input], to: bob.address, lovelace: 25_000_000n, change: alice.address, signers: [aliceKeys.payment] });
    const hash = await chain.submit(cbor);
    expect(hash).toBe(CSL.FixedTransaction.from_bytes(cbor).transaction_hash().to_hex());
    const height = chain.tipHeight() + 1;
    expect(chain.tx(hash)).toBeNull(); // not before its block exists
    next();
    const tx = chain.tx(hash)!;
    expect(tx.block_height).toBe(height);
    expect(chain.blockTxs(height)).toContain(hash);
    expect(chain.blockTxDetails(height)!.map((d) => d.tx.hash)).toContain(hash); // what the webhook follower reads
    expect(chain.txUtxos(input.tx_hash)!.outputs[input.output_index]!.consumed_by_tx).toBe(hash);
    const bobs = chain.addressUtxos(bob.address)!;
    expect(bobs.some((u) => u.tx_hash === hash && lovelaceOf(u.amount) === 25_000_000n)).toBe(true);
    expect(chain.addressUtxos(alice.address)!.some((u) => u.tx_hash === input.tx_hash && u.output_index === input.output_index)).toBe(false);
    expect(chain.addressTransactions(bob.address)!.map((t) => t.tx_hash)).toContain(hash);
    expectConsistent(chain, alice.address);
    expectConsistent(chain, bob.address);
    expect(chain.blockAt(height)!.tx_count).toBe(chain.blockTxs(height)!.length);
  });

  it('refuses a double spend, naming the transaction that spent the input', async () => {
    const { chain, alice, bob, aliceKeys } = setup();
    const input = chain.addressUtxos(alice.address)![1]!;
    const first = await chain.submit(payment({ inputs: [input], to: bob.address, lovelace: 5_000_000n, change: alice.address, signers: [aliceKeys.payment] }));
    const again = payment({ inputs: [input], to: bob.address, lovelace: 6_000_000n, change: alice.address, signers: [aliceKeys.payment] });
    expect(await refusal(chain, again)).toBe(`Input ${input.tx_hash}#${input.output_index} has already been spent by transaction ${first} (double spend).`);
  });

  it('refuses a bad witness, a missing witness, a low fee, broken value, dust, expiry and garbage, changing nothing', async () => {
    const { chain, alice, bob, aliceKeys, bobKeys } = setup();
    const input = chain.addressUtxos(alice.address)![1]!;
    const base = { inputs: [input], to: bob.address, lovelace: 5_000_000n, change: alice.address, signers: [aliceKeys.payment] };
    const slot = BigInt(chain.params.firstSlot + chain.params.slotsPerBlock * (chain.tipHeight() + 1));
    expect(await refusal(chain, withForeignSignature(payment(base), aliceKeys.payment))).toMatch(/^Key witness 0 \(key hash [0-9a-f]{56}\) does not verify/);
    expect(await refusal(chain, payment({ ...base, signers: [bobKeys.payment] }))).toMatch(/^Missing key witness for [0-9a-f]{56} \(input /);
    expect(await refusal(chain, payment({ ...base, fee: 160_000n }))).toMatch(/^The fee is too low: 160000 lovelace, the minimum for \d+ bytes is \d+ \(44 × size \+ 155381\)\.$/);
    expect(await refusal(chain, payment({ ...base, extraChange: 1n }))).toMatch(/^Value is not preserved: .* hold \d+ lovelace, outputs \+ fee \+ deposits \d+\.$/);
    expect(await refusal(chain, payment({ ...base, lovelace: 500_000n }))).toMatch(/^Output 0 holds 500000 lovelace, below the minimum of \d+ for its size\.$/);
    expect(await refusal(chain, payment({ ...base, ttl: slot }))).toMatch(/^The transaction has expired: it is valid until slot/);
    expect(await refusal(chain, payment({ ...base, validFrom: slot + 100n, ttl: slot + 1000n }))).toMatch(/^The transaction is not valid yet/);
    expect(await refusal(chain, new Uint8Array([0x84, 0x01]))).toMatch(/^The transaction could not be decoded/);
    const unknown = { ...input, tx_hash: 'ab'.repeat(32) };
    expect(await refusal(chain, payment({ ...base, inputs: [unknown] }))).toMatch(/does not exist: no transaction of this ledger made that output\.$/);
    // None of it changed the ledger: the input is still unspent and spendable.
    expect(await chain.submit(payment({ ...base, ttl: slot + 1000n }))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses to spend a script-locked output without its script', async () => {
    const { chain, alice, aliceKeys, next } = setup();
    const script = enterpriseAddress('preprod', new Uint8Array(28).fill(7), true);
    const paid = await chain.faucet({ address: script, lovelace: 3_000_000 });
    next();
    const locked = chain.addressUtxos(script)!.find((u) => u.tx_hash === paid.txHash)!;
    const cbor = payment({ inputs: [locked], to: alice.address, lovelace: 1_500_000n, change: alice.address, signers: [aliceKeys.payment] });
    expect(await refusal(chain, cbor)).toMatch(new RegExp(`^Script ${'07'.repeat(28)} \\(input ${locked.tx_hash}#${locked.output_index}\\) is neither in the witness set nor a reference script`));
  });

  it('pays faucet ada and minted test assets in the next block; the assets show in /assets and their holders', async () => {
    const { chain, bob, next } = setup();
    const paid = await chain.faucet({ address: bob.address, lovelace: 7_000_000, assets: [{ assetName: Buffer.from('TEST').toString('hex'), quantity: 500 }] });
    const unit = `${chain.faucetInfo().policyId}${Buffer.from('TEST').toString('hex')}`;
    expect(paid.assets).toEqual([{ unit, quantity: '500' }]);
    expect(chain.asset(unit)).toBeNull();
    next();
    expect(chain.asset(unit)).toMatchObject({ quantity: '500', initial_mint_tx_hash: paid.txHash, mint_or_burn_count: 1 });
    expect(chain.assetAddresses(unit)).toEqual([{ address: bob.address, quantity: '500' }]);
    expect(chain.assetsOfPolicy(chain.faucetInfo().policyId)).toEqual([{ asset: unit, quantity: '500' }]);
    expect(chain.assets({ count: 100, page: 1, order: 'asc' }).map((a) => a.asset)).toContain(unit);
    expect(chain.script(chain.faucetInfo().policyId)).toEqual({ script_hash: chain.faucetInfo().policyId, type: 'timelock', serialised_size: null });
    expect(chain.addressUtxos(bob.address, undefined, unit)!.map((u) => u.tx_hash)).toEqual([paid.txHash]);
    expectConsistent(chain, bob.address);
  });

  it('registers and delegates a stake key: the account and the pool show it', async () => {
    const { chain, alice, aliceKeys, next } = setup();
    const pool = chain.catalog().pools[3]!;
    const before = chain.pool(pool)!.live_delegators;
    const stakeCred = CSL.Credential.from_keyhash(aliceKeys.stake.to_public().hash());
    const certs = CSL.Certificates.new();
    certs.add(CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new(stakeCred)));
    certs.add(CSL.Certificate.new_stake_delegation(CSL.StakeDelegation.new(stakeCred, CSL.Ed25519KeyHash.from_bech32(pool))));
    const input = chain.addressUtxos(alice.address)![0]!;
    const hash = await chain.submit(payment({
      inputs: [input], to: alice.address, lovelace: 5_000_000n, change: alice.address, signers: [aliceKeys.payment, aliceKeys.stake], certs, deposit: 2_000_000n,
      metadata: { label: 674, json: { msg: ['delegating'] } },
    }));
    next();
    expect(chain.tx(hash)).toMatchObject({ deposit: '2000000', delegation_count: 1, stake_cert_count: 1 });
    expect(chain.txDelegations(hash)).toEqual([expect.objectContaining({ address: alice.stakeAddress, pool_id: pool })]);
    expect(chain.account(alice.stakeAddress)).toMatchObject({ registered: true, active: true, pool_id: pool });
    expect(chain.pool(pool)!.live_delegators).toBe(before + 1);
    expect(chain.txMetadata(hash)).toEqual([{ label: '674', json_metadata: { msg: ['delegating'] } }]);
    // The world's nut.link oracle publishes under 1967 and 1968 (nutlink.ts); 674 is this transaction's alone.
    expect(chain.metadataLabels().filter((l) => !['1967', '1968'].includes(l.label))).toEqual([{ label: '674', cip10: 'Message (CIP-20)', count: '1' }]);
    const controlled = BigInt(chain.account(alice.stakeAddress)!.controlled_amount);
    expect(controlled).toBe(lovelaceOf(chain.address(alice.address)!.amount));
  });

  it('replays accepted transactions from its store after a restart', async () => {
    const first = setup();
    const input = first.chain.addressUtxos(first.alice.address)![1]!;
    const hash = await first.chain.submit(payment({ inputs: [input], to: first.bob.address, lovelace: 9_000_000n, change: first.alice.address, signers: [first.aliceKeys.payment] }));
    await first.chain.faucet({ address: first.bob.address, lovelace: 2_000_000 });
    first.next();
    const restarted = testChain({ store: first.store, now: () => first.clock.now }).chain;
    await restarted.ready();
    expect(restarted.tx(hash)).toEqual(first.chain.tx(hash));
    expect(restarted.addressUtxos(first.bob.address)).toEqual(first.chain.addressUtxos(first.bob.address));
    // The replayed ledger still refuses the spent input.
    expect(await refusal(restarted, payment({ inputs: [input], to: first.bob.address, lovelace: 3_000_000n, change: first.alice.address, signers: [first.aliceKeys.payment] }))).toMatch(/double spend/);
  });

  it('does not show the next block while a payment for it is still being stored: a block, once read, never gains a transaction', async () => {
    const inner = memoryLedgerStore();
    let release: () => void = () => undefined;
    const stored = new Promise<void>((r) => (release = r));
    // A store slow to take the entry (a busy database), while the block the payment was given comes due.
    const store = { ...inner, append: async (...args: Parameters<typeof inner.append>) => (await stored, inner.append(...args)) };
    const { chain, alice, bob, aliceKeys, next } = setup(store);
    await chain.ready();
    const tip = chain.tipHeight();
    const input = chain.addressUtxos(alice.address)![1]!;
    const submitted = chain.submit(payment({ inputs: [input], to: bob.address, lovelace: 4_000_000n, change: alice.address, signers: [aliceKeys.payment] }));
    await new Promise((r) => setTimeout(r, 10));
    next();
    next();
    // Block tip + 1 is late, as a block on the real network may be: nothing reads it without the payment.
    expect(chain.tipHeight()).toBe(tip);
    expect(chain.blockAt(tip + 1)).toBeNull();
    release();
    const hash = await submitted;
    expect(chain.tipHeight()).toBe(tip + 2);
    expect(chain.tx(hash)!.block_height).toBe(tip + 1);
    expect(chain.blockTxs(tip + 1)).toContain(hash);
  });

  it('has no development wallets and no faucet without dev aids (production)', async () => {
    const { chain } = testChain({ devAids: false });
    expect(chain.devWallets()).toEqual([]);
    expect(chain.blockTxs(0)).toEqual(testChain().chain.blockTxs(0)!.slice(0, -1));
    await expect(chain.faucet({ address: testChain().chain.devWallets()[0]!.address, lovelace: 2_000_000 })).rejects.toThrow(/does not exist in production/);
  });
});

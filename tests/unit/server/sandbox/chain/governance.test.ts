// Governance, /network/eras and nut.link on the sandbox chain: the world moves with the epochs,
// every endpoint agrees with the others, and submitted Conway transactions take effect or are
// refused with the ledger's reasons.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBech32 } from '../../../../../shared/cardano/bech32';
import { LedgerRefusal } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain, type TestServer } from './support';
import { cert, drepVote, govKeysOf, govTx, proposal } from './gov-builder';

const DREP_DEPOSIT = 500_000_000n;
const GOV_DEPOSIT = 100_000_000_000n;
const KEY_DEPOSIT = 2_000_000n;

describe('sandbox governance', () => {
  const { chain, clock } = testChain();
  let http: TestServer;
  const ok = async (path: string, template: string) => {
    const res = await http.get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    assertSchema(template, res.body);
    return res.body;
  };
  const nextBlock = () => {
    clock.now += chain.params.blockIntervalMs;
  };
  const nextEpoch = () => {
    clock.now += chain.params.blockIntervalMs * chain.params.blocksPerEpoch;
  };

  beforeAll(async () => {
    http = await serve(chain);
  });
  afterAll(async () => {
    await http.close();
  });

  it('moves with the epochs: new proposals appear and each is ratified and enacted, dropped or expired, never changing its past', async () => {
    const before = await ok('/governance/proposals?order=desc&count=100', '/governance/proposals');
    const watched = before.slice(0, 20);
    const statuses = await Promise.all(watched.map((p: { id: string }) => ok(`/governance/proposals/${p.id}`, '/governance/proposals/{gov_action_id}')));
    for (let i = 0; i < 8; i++) nextEpoch();
    const after = await ok('/governance/proposals?order=desc&count=100', '/governance/proposals');
    expect(after.length).toBe(100);
    expect(after[0].id).not.toBe(before[0].id);
    const ids = after.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining(watched.map((p: { id: string }) => p.id).filter((id: string) => ids.includes(id))));
    const epoch = chain.latestEpoch().epoch;
    const outcomes = new Set<string>();
    for (const old of statuses) {
      const now = await ok(`/governance/proposals/${old.tx_hash}/${old.cert_index}`, '/governance/proposals/{tx_hash}/{cert_index}');
      // What had happened stays; by now every watched proposal is resolved.
      for (const k of ['ratified_epoch', 'enacted_epoch', 'dropped_epoch', 'expired_epoch']) if (old[k] !== null) expect(now[k]).toBe(old[k]);
      expect(now.expiration).toBe(old.expiration);
      const resolved = [now.enacted_epoch, now.dropped_epoch, now.expired_epoch].filter((x) => x !== null);
      expect(resolved.length, JSON.stringify(now)).toBe(1);
      expect(resolved[0]).toBeLessThanOrEqual(epoch);
      if (now.enacted_epoch !== null) {
        expect(now.ratified_epoch).toBe(now.enacted_epoch - 1);
        expect(now.governance_type).not.toBe('info_action');
        outcomes.add('enacted');
      } else outcomes.add(now.dropped_epoch !== null ? 'dropped' : 'expired');
      if (now.expired_epoch !== null) expect(now.expired_epoch).toBe(now.expiration + 1);
      expect(now.deposit).toBe(String(GOV_DEPOSIT));
      expect(chain.account(now.return_address)).not.toBeNull();
    }
    expect(outcomes.has('expired')).toBe(true);
    // Over a few hundred epochs the world enacts, drops (a competitor of the same purpose went first) and lets expire.
    const older = await ok('/governance/proposals?order=desc&count=100&page=3', '/governance/proposals');
    const seen = new Set<string>();
    for (const p of older) {
      const s = chain.governance().proposal(p.tx_hash, p.cert_index)!;
      seen.add(s.enacted_epoch !== null ? 'enacted' : s.dropped_epoch !== null ? 'dropped' : 'expired');
    }
    expect([...seen].sort()).toEqual(['dropped', 'enacted', 'expired']);
  });

  it('agrees between proposals, DReps, pools and the committee on every vote; only the latest vote of a voter counts', { timeout: 60_000 }, async () => {
    const proposals = await ok('/governance/proposals?order=desc&count=40', '/governance/proposals');
    let checked = 0;
    for (const p of proposals.slice(10, 22)) {
      const votes = await ok(`/governance/proposals/${p.id}/votes`, '/governance/proposals/{gov_action_id}/votes');
      expect(await ok(`/governance/proposals/${p.tx_hash}/${p.cert_index}/votes`, '/governance/proposals/{tx_hash}/{cert_index}/votes')).toEqual(votes);
      const latest = new Map<string, number>();
      votes.forEach((v: { voter: string }, i: number) => latest.set(v.voter, i));
      votes.forEach((v: { voter: string; counted: boolean; voter_role: string }, i: number) => {
        if (latest.get(v.voter) !== i) expect(v.counted).toBe(false);
      });
      for (const v of votes.slice(0, 6)) {
        if (v.voter_role === 'drep') {
          const mine = await ok(`/governance/dreps/${v.voter}/votes?count=100&order=desc`, '/governance/dreps/{drep_id}/votes');
          expect(mine).toContainEqual({ tx_hash: v.tx_hash, cert_index: v.cert_index, proposal_id: p.id, proposal_tx_hash: p.tx_hash, proposal_cert_index: p.cert_index, vote: v.vote });
        } else if (v.voter_role === 'spo') {
          const mine = await ok(`/pools/${v.voter}/votes?count=100&order=desc`, '/pools/{pool_id}/votes');
          expect(mine).toContainEqual({ tx_hash: v.tx_hash, cert_index: v.cert_index, vote: v.vote });
        } else {
          const mine = await ok(`/governance/committee/${v.voter}/votes?count=100&order=desc`, '/governance/committee/{cc_id}/votes');
          expect(mine).toContainEqual(expect.objectContaining({ tx_hash: v.tx_hash, voter_hot_id: v.voter, proposal_id: p.id, governance_type: p.governance_type, vote: v.vote }));
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('seats the committee: members with hot keys and expirations, votes paged newest first, a cold key answering for its hot keys', async () => {
    const committee = await ok('/governance/committee', '/governance/committee');
    expect(committee.members).toHaveLength(7);
    expect(committee.members.filter((m: { status: string }) => m.status === 'authorized').length).toBeGreaterThanOrEqual(5);
    for (const m of committee.members) expect(m.expiration_epoch).toBeGreaterThan(chain.latestEpoch().epoch);
    const first = await ok('/governance/committee/votes?order=desc&count=10', '/governance/committee/votes');
    const second = await ok('/governance/committee/votes?order=desc&count=10&page=2', '/governance/committee/votes');
    const heights = [...first, ...second].map((v: { block_height: number }) => v.block_height);
    expect(heights).toEqual([...heights].sort((a, b) => b - a));
    for (const v of first) expect(v.block_time).toBe(chain.blockAt(v.block_height)!.time);
    const member = committee.members.find((m: { status: string }) => m.status === 'authorized');
    const byHot = await ok(`/governance/committee/${member.cc_hot_id}/votes?order=desc&count=5`, '/governance/committee/{cc_id}/votes');
    const byCold = await ok(`/governance/committee/${member.cc_cold_id}/votes?order=desc&count=5`, '/governance/committee/{cc_id}/votes');
    expect(byCold).toEqual(byHot);
    expect((await http.get('/governance/committee/cc_hot1notreal/votes')).status).toBe(400);
  });

  it("lists DReps with the predefined ones, their voting power the sum of their delegators' controlled amounts", async () => {
    const dreps = await ok('/governance/dreps?count=100', '/governance/dreps');
    expect(dreps.slice(0, 2).map((d: { drep_id: string }) => d.drep_id)).toEqual(['drep_always_abstain', 'drep_always_no_confidence']);
    const active = dreps.filter((d: { retired: boolean; amount: string }) => !d.retired && d.amount !== '0');
    expect(active.length).toBeGreaterThan(0);
    expect(dreps.some((d: { retired: boolean }) => d.retired)).toBe(true);
    for (const d of [...active.slice(0, 3), dreps[0]]) {
      const delegators = await ok(`/governance/dreps/${d.drep_id}/delegators`, '/governance/dreps/{drep_id}/delegators');
      expect(delegators.reduce((n: bigint, x: { amount: string }) => n + BigInt(x.amount), 0n)).toBe(BigInt(d.amount));
      for (const x of delegators.slice(0, 3)) {
        const account = chain.account(x.address)!;
        expect(account.controlled_amount).toBe(x.amount);
        expect(account.drep_id).toBe(d.drep_id);
      }
      const one = await ok(`/governance/dreps/${d.drep_id}`, '/governance/dreps/{drep_id}');
      expect(one).toMatchObject({ drep_id: d.drep_id, amount: d.amount, retired: d.retired, expired: d.expired, last_active_epoch: d.last_active_epoch });
      if (d.hex) expect(await ok(`/governance/dreps/${d.hex}`, '/governance/dreps/{drep_id}')).toEqual(one);
    }
    const anchored = active.find((d: { metadata: unknown }) => d.metadata !== null);
    const metadata = await ok(`/governance/dreps/${anchored.drep_id}/metadata`, '/governance/dreps/{drep_id}/metadata');
    expect(metadata).toMatchObject({ drep_id: anchored.drep_id, url: anchored.metadata.url, hash: anchored.metadata.hash });
    // The anchor's hash is blake2b-256 of the bytes served.
    const bytes = Buffer.from(metadata.bytes.slice(2), 'hex');
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(metadata.json_metadata);
    expect(CSL.AnchorDataHash.from_hex(metadata.hash).to_hex()).toBe(metadata.hash);
    const updates = await ok(`/governance/dreps/${anchored.drep_id}/updates`, '/governance/dreps/{drep_id}/updates');
    expect(updates[0]).toMatchObject({ action: 'registered', deposit: String(DREP_DEPOSIT) });
    const byAmount = await ok('/governance/dreps?order_by=amount&order=desc&count=20', '/governance/dreps');
    const amounts = byAmount.map((d: { amount: string }) => BigInt(d.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const retired = await ok('/governance/dreps?retired=true', '/governance/dreps');
    expect(retired.every((d: { retired: boolean }) => d.retired)).toBe(true);
  });

  it('answers 400 for malformed ids and parameters, 404 for unknown ones', async () => {
    const bad = async (path: string, status: number) => {
      const res = await http.get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'status_code']);
    };
    await bad('/governance/dreps/notadrep', 400);
    await bad(`/governance/dreps/${'ab'.repeat(28)}`, 404);
    await bad(`/governance/dreps/${'ab'.repeat(28)}/delegators`, 404);
    await bad('/governance/dreps?retired=maybe', 400);
    await bad('/governance/dreps?order_by=name', 400);
    await bad('/governance/dreps?count=0', 400);
    await bad('/governance/proposals?page=0', 400);
    await bad('/governance/proposals/gov_action1xyz', 400);
    await bad(`/governance/proposals/${'ab'.repeat(32)}/0`, 404);
    await bad(`/governance/proposals/${'ab'.repeat(32)}/x`, 400);
    await bad('/governance/proposals/nothex/0/votes', 400);
    await bad('/pools/pool1nope/votes', 400);
    await bad(`/pools/${'ab'.repeat(28)}/votes`, 404);
    await bad('/nutlink/addr_test1nope', 400);
    await bad(`/nutlink/${chain.devWallets()[0]!.address}`, 404);
    await bad('/nutlink/tickers/NOSUCHTICKER', 404);
    const info = (await http.get('/governance/proposals?count=100')).body.find((p: { governance_type: string }) => p.governance_type === 'info_action');
    await bad(`/governance/proposals/${info.id}/parameters`, 404);
    await bad(`/governance/proposals/${info.id}/withdrawals`, 404);
  });

  it('serves /network/eras consistent with /genesis and the tip', async () => {
    const eras = await ok('/network/eras', '/network/eras');
    const genesis = chain.genesis();
    expect(eras).toHaveLength(7);
    const conway = eras[6];
    expect(conway.parameters).toEqual({ epoch_length: genesis.epoch_length, slot_length: genesis.slot_length, safe_zone: 3 * genesis.security_param / genesis.active_slots_coefficient });
    // The sandbox's era begins at its first block; the real network's history comes before it.
    const first = chain.blockAt(0)!;
    expect(conway.start).toEqual({ time: first.time - genesis.system_start, slot: first.slot, epoch: 0 });
    for (let i = 1; i < eras.length; i++) expect(eras[i].start).toEqual(eras[i - 1].end);
    expect(conway.end.slot).toBeGreaterThanOrEqual(chain.latestBlock().slot + conway.parameters.safe_zone);
    expect((conway.end.slot - conway.start.slot) % genesis.epoch_length).toBe(0);
    expect(conway.end.epoch).toBe((conway.end.slot - conway.start.slot) / genesis.epoch_length);
    expect(conway.end.time - conway.start.time).toBe((conway.end.slot - conway.start.slot) * genesis.slot_length);
    nextEpoch();
    expect((await ok('/network/eras', '/network/eras'))[6].end.epoch).toBe(conway.end.epoch + 1);
  });

  it('publishes the world oracle every segment and shows a submitted data point', async () => {
    const records = await ok('/nutlink/tickers/ADAUSD?order=desc&count=2', '/nutlink/tickers/{ticker}');
    const oracle = records[0].address;
    const registry = await ok(`/nutlink/${oracle}`, '/nutlink/{address}');
    expect(registry.metadata_url).toMatch(/^https:\/\//);
    const tickers = await ok(`/nutlink/${oracle}/tickers`, '/nutlink/{address}/tickers');
    const usd = tickers.find((t: { name: string }) => t.name === 'ADAUSD');
    expect(usd.latest_block).toBe(records[0].block_height);
    // Each record is a real transaction of the chain, whose metadata carries it.
    expect(chain.txMetadata(records[0].tx_hash)).toEqual([{ label: '1968', json_metadata: expect.objectContaining({ ADAUSD: records[0].payload }) }]);
    expect(chain.txUtxos(records[0].tx_hash)!.outputs.some((o) => o.address === oracle)).toBe(true);
    expect(chain.tx(records[0].tx_hash)!.block_height).toBe(records[0].block_height);
    const labels = chain.metadataLabels();
    expect(labels.find((l) => l.label === '1968')!.count).toBe(String(usd.count));

    const wallet = chain.devWallets()[0]!;
    const keys = govKeysOf(wallet.mnemonic);
    const hash = await chain.submit(govTx({ inputs: chain.addressUtxos(wallet.address)!.filter((u) => u.amount.length === 1).slice(0, 1), change: wallet.address, signers: [keys.payment], metadata: { label: 1968, json: { CAIRNUSD: [{ value: '1.5' }] } } }));
    nextBlock();
    expect(await ok('/nutlink/tickers/CAIRNUSD', '/nutlink/tickers/{ticker}')).toEqual([{ address: wallet.address, tx_hash: hash, block_height: chain.tipHeight(), tx_index: chain.tx(hash)!.index, payload: [{ value: '1.5' }] }]);
    expect(await ok(`/nutlink/${wallet.address}/tickers`, '/nutlink/{address}/tickers')).toContainEqual({ name: 'CAIRNUSD', count: 1, latest_block: chain.tipHeight() });
    expect(await ok(`/nutlink/${wallet.address}/tickers/CAIRNUSD`, '/nutlink/{address}/tickers/{ticker}')).toHaveLength(1);
    // Without a 1967 registration the address is no oracle of its own.
    expect((await http.get(`/nutlink/${wallet.address}`)).status).toBe(404);
    await chain.submit(govTx({ inputs: chain.addressUtxos(wallet.address)!.filter((u) => u.amount.length === 1).slice(0, 1), change: wallet.address, signers: [keys.payment], metadata: { label: 1967, json: { metadata: 'https://example.invalid/oracle.json', hash: 'ab'.repeat(32) } } }));
    nextBlock();
    expect(await ok(`/nutlink/${wallet.address}`, '/nutlink/{address}')).toEqual({ address: wallet.address, metadata_url: 'https://example.invalid/oracle.json', metadata_hash: 'ab'.repeat(32), metadata: null });
  });

  describe('submitted governance', () => {
    const wallet = chain.devWallets()[2]!;
    const keys = govKeysOf(wallet.mnemonic);
    // Blockfrost names a key DRep by CIP-105 bech32 of its key hash.
    const drepId = () => encodeBech32('drep', keys.drep.to_public().hash().to_bytes());
    const inputs = () => chain.addressUtxos(wallet.address)!;
    const refused = async (cbor: Uint8Array, reason: RegExp) => {
      await expect(chain.submit(cbor)).rejects.toThrow(LedgerRefusal);
      await expect(chain.submit(cbor)).rejects.toThrow(reason);
    };

    it('refuses what the ledger refuses: wrong deposits, missing signatures, unknown DReps and actions', async () => {
      await chain.faucet({ address: wallet.address, lovelace: 100_000_000_000n });
      nextBlock();
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], certs: [cert.drepRegistration(keys.drep, 1_000_000n)], deposit: 1_000_000n }), /DRep deposit is 500000000/);
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment], certs: [cert.drepRegistration(keys.drep, DREP_DEPOSIT)], deposit: DREP_DEPOSIT }), /Missing key witness/);
      await refused(
        govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.stake], certs: [cert.stakeRegistration(keys.stake), cert.voteDelegation(keys.stake, CSL.DRep.new_key_hash(keys.drep.to_public().hash()))], deposit: KEY_DEPOSIT }),
        /is not registered/,
      );
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], certs: [cert.drepRetirement(keys.drep, DREP_DEPOSIT)], deposit: -DREP_DEPOSIT }), /is not registered/);
      await refused(
        govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.stake], certs: [cert.stakeRegistration(keys.stake)], proposals: [proposal(CSL.GovernanceAction.new_info_action(CSL.InfoAction.new()), wallet.stakeAddress, 1_000_000n)], deposit: KEY_DEPOSIT + 1_000_000n }),
        /deposit is 100000000000/,
      );
      await refused(
        govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment], proposals: [proposal(CSL.GovernanceAction.new_info_action(CSL.InfoAction.new()), wallet.stakeAddress, GOV_DEPOSIT)], deposit: GOV_DEPOSIT }),
        /return address .* is not a registered stake address/,
      );
      await refused(
        govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], certs: [cert.drepRegistration(keys.drep, DREP_DEPOSIT)], votes: drepVote(CSL.VotingProcedures.new(), keys.drep, 'ab'.repeat(32), 0, CSL.VoteKind.Yes), deposit: DREP_DEPOSIT }),
        /governance action gov_action1.* does not exist/,
      );
    });

    it('registers a DRep, delegates to it, proposes and votes; the endpoints and the account show it', async () => {
      const registered = await chain.submit(govTx({
        inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.stake, keys.drep],
        certs: [cert.stakeRegistration(keys.stake), cert.drepRegistration(keys.drep, DREP_DEPOSIT, 'https://example.invalid/drep.jsonld'), cert.voteDelegation(keys.stake, CSL.DRep.new_key_hash(keys.drep.to_public().hash()))],
        proposals: [proposal(CSL.GovernanceAction.new_info_action(CSL.InfoAction.new()), wallet.stakeAddress, GOV_DEPOSIT)],
        deposit: KEY_DEPOSIT + DREP_DEPOSIT + GOV_DEPOSIT,
      }));
      nextBlock();
      expect(chain.tx(registered)!.deposit).toBe(String(KEY_DEPOSIT + DREP_DEPOSIT + GOV_DEPOSIT));
      const id = drepId();
      const drep = await ok(`/governance/dreps/${id}`, '/governance/dreps/{drep_id}');
      const account = chain.account(wallet.stakeAddress)!;
      expect(account.drep_id).toBe(id);
      expect(drep).toMatchObject({ drep_id: id, active: true, retired: false, expired: false, active_epoch: chain.latestEpoch().epoch, last_active_epoch: chain.latestEpoch().epoch, amount: account.controlled_amount });
      expect(await ok(`/governance/dreps/${id}/delegators`, '/governance/dreps/{drep_id}/delegators')).toEqual([{ address: wallet.stakeAddress, amount: account.controlled_amount }]);
      expect(await ok(`/governance/dreps/${id}/updates`, '/governance/dreps/{drep_id}/updates')).toEqual([{ tx_hash: registered, cert_index: 1, action: 'registered', deposit: String(DREP_DEPOSIT) }]);
      // The sandbox does not fetch off-chain documents: the anchor is named with the error Blockfrost gives.
      expect(await ok(`/governance/dreps/${id}/metadata`, '/governance/dreps/{drep_id}/metadata')).toMatchObject({ url: 'https://example.invalid/drep.jsonld', json_metadata: null, error: { code: 'CONNECTION_ERROR' } });
      const listed = await ok('/governance/proposals?order=desc&count=5', '/governance/proposals');
      expect(listed[0]).toMatchObject({ tx_hash: registered, cert_index: 0, governance_type: 'info_action' });
      expect(await ok(`/governance/proposals/${listed[0].id}`, '/governance/proposals/{gov_action_id}')).toMatchObject({
        deposit: String(GOV_DEPOSIT), return_address: wallet.stakeAddress, ratified_epoch: null, enacted_epoch: null, expiration: chain.latestEpoch().epoch + 6,
      });

      // Vote on its own proposal and on an open world proposal, then change its mind on the first.
      const open = (await ok('/governance/proposals?order=desc&count=10', '/governance/proposals')).find((p: { tx_hash: string }) => p.tx_hash !== registered);
      const voted = await chain.submit(govTx({
        inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep],
        votes: drepVote(drepVote(CSL.VotingProcedures.new(), keys.drep, registered, 0, CSL.VoteKind.Yes), keys.drep, open.tx_hash, open.cert_index, CSL.VoteKind.No),
      }));
      nextBlock();
      const changed = await chain.submit(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], votes: drepVote(CSL.VotingProcedures.new(), keys.drep, registered, 0, CSL.VoteKind.Abstain) }));
      nextBlock();
      expect(await ok(`/governance/proposals/${registered}/0/votes`, '/governance/proposals/{tx_hash}/{cert_index}/votes')).toEqual([
        { tx_hash: voted, cert_index: expect.any(Number), voter_role: 'drep', voter: id, vote: 'yes', counted: false },
        { tx_hash: changed, cert_index: 0, voter_role: 'drep', voter: id, vote: 'abstain', counted: true },
      ]);
      expect((await ok(`/governance/proposals/${open.id}/votes`, '/governance/proposals/{gov_action_id}/votes')).filter((v: { voter: string }) => v.voter === id)).toEqual([
        expect.objectContaining({ tx_hash: voted, vote: 'no', counted: true }),
      ]);
      expect(await ok(`/governance/dreps/${id}/votes`, '/governance/dreps/{drep_id}/votes')).toHaveLength(3);

      // An update, then the retirement with the deposit back: the delegation ends with it.
      const updated = await chain.submit(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], certs: [cert.drepUpdate(keys.drep, 'https://example.invalid/drep-2.jsonld')] }));
      nextBlock();
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], certs: [cert.drepRetirement(keys.drep, 1n)], deposit: -1n }), /refund .* must be its deposit, 500000000/);
      const retired = await chain.submit(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], certs: [cert.drepRetirement(keys.drep, DREP_DEPOSIT)], deposit: -DREP_DEPOSIT }));
      nextBlock();
      expect((await ok(`/governance/dreps/${id}/updates`, '/governance/dreps/{drep_id}/updates')).map((u: { tx_hash: string; action: string }) => [u.tx_hash, u.action])).toEqual([
        [registered, 'registered'], [updated, 'updated'], [retired, 'deregistered'],
      ]);
      expect(await ok(`/governance/dreps/${id}`, '/governance/dreps/{drep_id}')).toMatchObject({ active: false, retired: true, amount: '0' });
      expect(chain.account(wallet.stakeAddress)!.drep_id).toBeNull();
      expect(await ok(`/governance/dreps/${id}/delegators`, '/governance/dreps/{drep_id}/delegators')).toEqual([]);
      // A retired DRep's votes on a proposal still open stop counting.
      expect((await ok(`/governance/proposals/${registered}/0/votes`, '/governance/proposals/{tx_hash}/{cert_index}/votes')).every((v: { counted: boolean }) => !v.counted)).toBe(true);
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.drep], votes: drepVote(CSL.VotingProcedures.new(), keys.drep, registered, 0, CSL.VoteKind.Yes) }), /DRep .* is not registered/);

      // The live proposal expires after gov_action_lifetime epochs, and then takes no votes.
      for (let i = 0; i < 8; i++) nextEpoch();
      const expired = await ok(`/governance/proposals/${registered}/0`, '/governance/proposals/{tx_hash}/{cert_index}');
      expect(expired.expired_epoch).toBe(expired.expiration + 1);
    });

    it('refuses votes the voter may not cast: pools need their cold key, committee keys their member', async () => {
      const pool = chain.catalog().pools[0]!;
      const open = (await ok('/governance/proposals?order=desc&count=10', '/governance/proposals'))[3];
      const votes = CSL.VotingProcedures.new();
      votes.insert(CSL.Voter.new_stake_pool_key_hash(CSL.Ed25519KeyHash.from_bech32(pool)), CSL.GovernanceActionId.new(CSL.TransactionHash.from_hex(open.tx_hash), open.cert_index), CSL.VotingProcedure.new(CSL.VoteKind.Yes));
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment], votes }), /Missing key witness/);
      const hot = CSL.Certificate.new_committee_hot_auth(CSL.CommitteeHotAuth.new(CSL.Credential.from_keyhash(keys.stake.to_public().hash()), CSL.Credential.from_keyhash(keys.drep.to_public().hash())));
      await refused(govTx({ inputs: inputs(), change: wallet.address, signers: [keys.payment, keys.stake], certs: [hot] }), /is not a member of the constitutional committee/);
    });
  });
});

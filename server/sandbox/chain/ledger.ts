// The live ledger of the sandbox chain: every transaction that is not background traffic (the
// development wallets' genesis funding, faucet payments and transactions sent to /tx/submit), as
// real Cardano transactions in CBOR, checked with cardano-serialization-lib and applied to one
// UTXO set. Each accepted transaction is assigned to the next block (tip + 1) and becomes visible
// when that block exists. Accepted transactions are appended to a store (the database), so a
// restart replays them, and every process of a deployment reads the same sequence.
//
// The background traffic (simulate.ts) only spends outputs of its own world addresses, whose keys
// nobody holds, so the two UTXO sets never share an output and each stays consistent.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { PROTOCOL, type Protocol } from './protocol';
import { costModels, evaluate, exUnitsFee, MAX_TX_EX_MEM, MAX_TX_EX_STEPS, purposeOfTag, versionOf, type Evaluation, type PlutusVersion, type Purpose, type ResolvedOutput, type ScriptFailure, type SlotConfig } from './plutus';
import { cardanoOfSandbox, type SandboxName } from '../../../shared/networks';
import { metadatumJson } from '../../blockfrost/onchain-metadata';

export type LedgerOrigin = 'genesis' | 'faucet' | 'submit';

/** One accepted transaction as stored. */
export interface LedgerEntry {
  seq: number;
  height: number;
  hash: string;
  /** The signed transaction's CBOR in hex, exactly as submitted. */
  cbor: string;
  origin: LedgerOrigin;
}

/** Where accepted transactions are kept; the database in Cairn, memory in unit tests. */
export interface LedgerStore {
  /** Entries of a network with seq > after, in seq order. */
  entriesAfter(network: string, after: number): Promise<LedgerEntry[]>;
  /** Appends an entry; false when its seq is already taken (another process appended first). */
  append(network: string, entry: LedgerEntry): Promise<boolean>;
  /** Removes the entries of a network with seq >= fromSeq (a devnet's rollback). */
  truncate(network: string, fromSeq: number): Promise<void>;
  /** Replaces every entry of a network with these (a devnet's restore and reset), at once. */
  replace(network: string, entries: LedgerEntry[]): Promise<void>;
}

export function memoryLedgerStore(): LedgerStore {
  const rows = new Map<string, LedgerEntry[]>();
  return {
    async entriesAfter(network, after) {
      return (rows.get(network) ?? []).filter((e) => e.seq > after);
    },
    async append(network, entry) {
      const list = rows.get(network) ?? [];
      if (list.some((e) => e.seq === entry.seq)) return false;
      list.push(entry);
      rows.set(network, list);
      return true;
    },
    async truncate(network, fromSeq) {
      rows.set(network, (rows.get(network) ?? []).filter((e) => e.seq < fromSeq));
    },
    async replace(network, entries) {
      rows.set(network, [...entries].sort((a, b) => a.seq - b.seq).map((e) => ({ ...e })));
    },
  };
}

/** A refusal of /tx/submit; the message is the reason, answered in the Blockfrost 400 body. */
export class LedgerRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerRefusal';
  }
}

/** A refusal because a Plutus script failed (phase 2): the failing redeemers with their error and trace. */
export class ScriptRefusal extends LedgerRefusal {
  constructor(readonly failures: ScriptFailure[]) {
    super(
      `A script failed: ${failures.map((f) => `${f.purpose}:${f.index} ${f.error}${f.traces.length ? ` (trace: ${f.traces.join(' | ')})` : ''}`).join('; ')}. ` +
        'Mark the transaction invalid (is_valid = false) to have its collateral taken instead.',
    );
    this.name = 'ScriptRefusal';
  }
}

export interface LiveOutput {
  address: string;
  lovelace: bigint;
  /** unit → quantity, sorted by unit. */
  assets: Map<string, bigint>;
  dataHash: string | null;
  inlineDatum: string | null;
  referenceScriptHash: string | null;
  /** The output as it was serialised (what Plutus evaluation and reference scripts read). */
  cbor: string;
}

export interface LiveUtxo {
  txHash: string;
  outputIndex: number;
  height: number;
  output: LiveOutput;
  spentBy: { hash: string; height: number } | null;
}

export interface LiveCert {
  kind: 'registration' | 'deregistration' | 'delegation';
  stakeAddress: string;
  /** Bech32 pool id of a delegation. */
  pool?: string;
  certIndex: number;
}

/** A DRep credential, or one of the two predefined DReps a stake key may delegate its vote to. */
export type DrepTarget = { hex: string; script: boolean } | 'abstain' | 'no_confidence';

export type GovActionType = 'hard_fork_initiation' | 'new_committee' | 'new_constitution' | 'info_action' | 'no_confidence' | 'parameter_change' | 'treasury_withdrawals';
export type VoteValue = 'yes' | 'no' | 'abstain';
export type VoterRole = 'constitutional_committee' | 'drep' | 'spo';

/** A Conway certificate of governance: DRep registration, update, retirement, vote delegation, committee keys. */
export interface LiveGovCert {
  kind: 'drep_registration' | 'drep_update' | 'drep_deregistration' | 'vote_delegation' | 'committee_hot_auth' | 'committee_resignation';
  certIndex: number;
  /** The DRep registered, updated or retired, or the target of a vote delegation. */
  drep?: DrepTarget;
  /** The stake address delegating its vote. */
  stakeAddress?: string;
  /** Deposit paid (registration) or refund claimed (retirement), in lovelace. */
  deposit?: bigint;
  anchor?: { url: string; hash: string } | null;
  /** A committee member's cold credential (hex). */
  coldHex?: string;
  /** The hot credential a committee member authorizes (hex). */
  hotHex?: string;
}

/** One voting procedure: a voter's vote on a governance action. */
export interface LiveVote {
  /** Position among the transaction's votes. */
  index: number;
  role: VoterRole;
  voterHex: string;
  actionTx: string;
  actionIndex: number;
  vote: VoteValue;
  anchor: { url: string; hash: string } | null;
}

/** One proposal procedure. */
export interface LiveProposal {
  index: number;
  type: GovActionType;
  deposit: bigint;
  returnAddress: string;
  anchor: { url: string; hash: string };
  /** The action as cardano-serialization-lib reads it (JSON). */
  description: unknown;
  /** Parameter changes in Blockfrost's names (parameter_change only). */
  parameters: Record<string, unknown> | null;
  withdrawals: Array<{ stakeAddress: string; amount: bigint }>;
}

export interface LiveScript {
  hash: string;
  type: 'timelock' | PlutusVersion;
  cbor: string;
  /** A native script's JSON; null for Plutus scripts. */
  json: unknown;
}

export interface LiveRedeemer {
  purpose: Purpose;
  index: number;
  memory: bigint;
  steps: bigint;
  dataHash: string;
  dataCbor: string;
  /** The script the redeemer runs (filled by validation). */
  scriptHash: string | null;
}

export interface LiveTx {
  seq: number;
  hash: string;
  height: number;
  /** Position among the block's live transactions (the chain adds the background count). */
  order: number;
  origin: LedgerOrigin;
  cbor: string;
  size: number;
  fee: bigint;
  deposit: bigint;
  inputs: Array<{ txHash: string; outputIndex: number }>;
  referenceInputs: Array<{ txHash: string; outputIndex: number }>;
  outputs: LiveOutput[];
  withdrawals: Array<{ stakeAddress: string; amount: bigint }>;
  certs: LiveCert[];
  govCerts: LiveGovCert[];
  votes: LiveVote[];
  proposals: LiveProposal[];
  mint: Map<string, bigint>;
  metadata: Array<{ label: string; json: unknown; cbor: string }>;
  scripts: LiveScript[];
  datums: Array<{ hash: string; cbor: string }>;
  invalidBefore: bigint | null;
  invalidHereafter: bigint | null;
  redeemers: LiveRedeemer[];
  /** False for a transaction marked invalid whose scripts failed: only its collateral was taken. */
  validContract: boolean;
  /** Output index of outputs[0]: 0, or for an invalid transaction the collateral return's index (after the body's outputs). */
  outputOffset: number;
  collateral: Array<{ txHash: string; outputIndex: number }>;
}

export interface LedgerOptions {
  network: SandboxName;
  /** The key of the chain's entries in the store; the network by default (a devnet's is `devnet:<id>`). */
  storeKey?: string;
  /** The protocol parameters enforced; the sandbox's (protocol.ts) by default. */
  protocol?: Readonly<Protocol>;
  store?: LedgerStore;
  /** The last block the chain's clock has made due (tip() holds it back while a submission is stored). */
  tip: () => number;
  slotOf: (height: number) => number;
  /** Whether a bech32 pool id is a pool of the chain. */
  isPool: (poolId: string) => boolean;
  /** Called once, before anything else, with the entries every chain of this seed starts with. */
  genesis: () => Array<Pick<LedgerEntry, 'hash' | 'cbor'>>;
  /** Slot ↔ time, for the validity interval Plutus scripts see. */
  slots?: SlotConfig;
  /**
   * A stake address's reward balance as of a block (rewards credited by then, less the withdrawals
   * of transactions accepted into that block or earlier); 0 when absent.
   */
  rewardBalance?: (stakeAddress: string, height: number) => bigint;
  /**
   * The governance rules that need the chain's state (DReps, proposals, the committee): answers the
   * reason to refuse a transaction's governance certificates, votes and proposals, or null.
   * `accepted` holds every earlier accepted transaction, including those for the next block.
   */
  governance?: (tx: LiveTx, accepted: readonly LiveTx[], height: number) => string | null;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const key = (txHash: string, index: number): string => `${txHash}#${index}`;

function addTo(map: Map<string, bigint>, unit: string, q: bigint): void {
  const next = (map.get(unit) ?? 0n) + q;
  if (next === 0n) map.delete(unit);
  else map.set(unit, next);
}

const sortUnits = (map: Map<string, bigint>): Map<string, bigint> => new Map([...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));

function multiAssetInto(ma: CSL.MultiAsset | undefined, into: Map<string, bigint>, sign = 1n): void {
  if (!ma) return;
  const policies = ma.keys();
  for (let i = 0; i < policies.len(); i++) {
    const policy = policies.get(i);
    const assets = ma.get(policy)!;
    const names = assets.keys();
    for (let j = 0; j < names.len(); j++) {
      const name = names.get(j);
      addTo(into, policy.to_hex() + hex(name.name()), sign * BigInt(assets.get(name)!.to_str()));
    }
  }
}

function mintOf(body: CSL.TransactionBody): Map<string, bigint> {
  const out = new Map<string, bigint>();
  const mint = body.mint();
  if (!mint) return out;
  const policies = mint.keys();
  for (let i = 0; i < policies.len(); i++) {
    const policy = policies.get(i);
    const all = mint.get(policy);
    if (!all) continue;
    for (let k = 0; k < all.len(); k++) {
      const assets = all.get(k)!;
      const names = assets.keys();
      for (let j = 0; j < names.len(); j++) {
        const name = names.get(j);
        addTo(out, policy.to_hex() + hex(name.name()), BigInt(assets.get(name)!.to_str()));
      }
    }
  }
  return out;
}

/** An output's address as Blockfrost writes it: bech32, or base58 for a Byron address. */
function bech32Of(address: CSL.Address): string {
  const byron = CSL.ByronAddress.from_address(address);
  if (byron) return byron.to_base58();
  return address.to_bech32(undefined);
}

/** The payment credential of an output's address; a Byron address has none (it is spent with a bootstrap witness). */
function paymentCredOf(address: string, what: string): CSL.Credential | undefined {
  if (!address.startsWith('addr')) throw new LedgerRefusal(`${what} is at a Byron address: spending it needs a bootstrap witness, which the sandbox does not support.`);
  return CSL.Address.from_bech32(address).payment_cred();
}

function outputOf(o: CSL.TransactionOutput): LiveOutput {
  const assets = new Map<string, bigint>();
  multiAssetInto(o.amount().multiasset(), assets);
  const ref = o.script_ref();
  let referenceScriptHash: string | null = null;
  if (ref) referenceScriptHash = ref.is_native_script() ? ref.native_script()!.hash().to_hex() : ref.plutus_script()!.hash().to_hex();
  return {
    address: bech32Of(o.address()),
    lovelace: BigInt(o.amount().coin().to_str()),
    assets: sortUnits(assets),
    dataHash: o.data_hash()?.to_hex() ?? null,
    inlineDatum: o.plutus_data()?.to_hex() ?? null,
    referenceScriptHash,
    cbor: o.to_hex(),
  };
}

function inputsOf(list: CSL.TransactionInputs | undefined): Array<{ txHash: string; outputIndex: number }> {
  const out: Array<{ txHash: string; outputIndex: number }> = [];
  if (!list) return out;
  for (let i = 0; i < list.len(); i++) out.push({ txHash: list.get(i).transaction_id().to_hex(), outputIndex: list.get(i).index() });
  return out;
}

const ACTION_TYPES: Record<number, GovActionType> = {
  [CSL.GovernanceActionKind.ParameterChangeAction]: 'parameter_change',
  [CSL.GovernanceActionKind.HardForkInitiationAction]: 'hard_fork_initiation',
  [CSL.GovernanceActionKind.TreasuryWithdrawalsAction]: 'treasury_withdrawals',
  [CSL.GovernanceActionKind.NoConfidenceAction]: 'no_confidence',
  [CSL.GovernanceActionKind.UpdateCommitteeAction]: 'new_committee',
  [CSL.GovernanceActionKind.NewConstitutionAction]: 'new_constitution',
  [CSL.GovernanceActionKind.InfoAction]: 'info_action',
};

function anchorOf(anchor: CSL.Anchor | undefined): { url: string; hash: string } | null {
  return anchor ? { url: anchor.url().url(), hash: anchor.anchor_data_hash().to_hex() } : null;
}

function credentialTarget(cred: CSL.Credential): { hex: string; script: boolean } {
  const kh = cred.to_keyhash();
  return kh ? { hex: kh.to_hex(), script: false } : { hex: cred.to_scripthash()!.to_hex(), script: true };
}

function drepTarget(drep: CSL.DRep): DrepTarget {
  switch (drep.kind()) {
    case CSL.DRepKind.KeyHash:
      return { hex: drep.to_key_hash()!.to_hex(), script: false };
    case CSL.DRepKind.ScriptHash:
      return { hex: drep.to_script_hash()!.to_hex(), script: true };
    case CSL.DRepKind.AlwaysAbstain:
      return 'abstain';
    default:
      return 'no_confidence';
  }
}

/** A parameter update in Blockfrost's names (/epochs/{n}/parameters), with only the fields it changes. */
function parameterNames(u: CSL.ProtocolParamUpdate): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const num = (v: CSL.BigNum | number | undefined): number | undefined => (v === undefined ? undefined : Number(typeof v === 'number' ? v : v.to_str()));
  const str = (v: CSL.BigNum | undefined): string | undefined => v?.to_str();
  const text = (v: number | undefined): string | undefined => (v === undefined ? undefined : String(v));
  const ratio = (v: CSL.UnitInterval | undefined): number | undefined => (v ? Number(v.numerator().to_str()) / Number(v.denominator().to_str()) : undefined);
  const fields: Array<[string, unknown]> = [
    ['min_fee_a', num(u.minfee_a())], ['min_fee_b', num(u.minfee_b())], ['max_block_size', num(u.max_block_body_size())], ['max_tx_size', num(u.max_tx_size())],
    ['max_block_header_size', num(u.max_block_header_size())], ['key_deposit', str(u.key_deposit())], ['pool_deposit', str(u.pool_deposit())], ['e_max', num(u.max_epoch())],
    ['n_opt', num(u.n_opt())], ['a0', ratio(u.pool_pledge_influence())], ['rho', ratio(u.expansion_rate())], ['tau', ratio(u.treasury_growth_rate())],
    ['min_pool_cost', str(u.min_pool_cost())], ['coins_per_utxo_size', str(u.ada_per_utxo_byte())], ['max_val_size', text(u.max_value_size())],
    ['collateral_percent', num(u.collateral_percentage())], ['max_collateral_inputs', num(u.max_collateral_inputs())],
    ['committee_min_size', text(u.min_committee_size())],
    ['committee_max_term_length', text(u.committee_term_limit())],
    ['gov_action_lifetime', text(u.governance_action_validity_period())],
    ['gov_action_deposit', str(u.governance_action_deposit())], ['drep_deposit', str(u.drep_deposit())],
    ['drep_activity', text(u.drep_inactivity_period())],
    ['min_fee_ref_script_cost_per_byte', ratio(u.ref_script_coins_per_byte())],
  ];
  for (const [name, value] of fields) if (value !== undefined) out[name] = value;
  const mem = u.max_tx_ex_units();
  if (mem) Object.assign(out, { max_tx_ex_mem: mem.mem().to_str(), max_tx_ex_steps: mem.steps().to_str() });
  const block = u.max_block_ex_units();
  if (block) Object.assign(out, { max_block_ex_mem: block.mem().to_str(), max_block_ex_steps: block.steps().to_str() });
  const prices = u.execution_costs();
  if (prices) Object.assign(out, { price_mem: ratio(prices.mem_price()), price_step: ratio(prices.step_price()) });
  return out;
}

interface Decoded {
  /** What the ledger records: the transaction, or for one marked invalid only its collateral's effect. */
  tx: LiveTx;
  /** The transaction as if valid (what phase-1 checks read). */
  intended: LiveTx;
  fixed: CSL.FixedTransaction;
  body: CSL.TransactionBody;
  /** Key hashes whose signatures a refusal-free transaction must carry, with why. */
  stakeKeysToSign: Array<{ keyHash: string; why: string }>;
  /** Script hashes that must allow a certificate or withdrawal, with why. */
  stakeScripts: Array<{ scriptHash: string; why: string }>;
}

/** Records that a credential must sign (a key hash) or allow (a script hash) a certificate or withdrawal. */
type KeyOf = (cred: CSL.Credential, why: string) => void;

/** The body's certificates: staking ones, governance ones, and the deposits they pay (refunds negative). */
function decodeCertificates(body: CSL.TransactionBody, stakeAddressOf: (cred: CSL.Credential) => string, keyOf: KeyOf, protocol: Readonly<Protocol>): { certs: LiveCert[]; govCerts: LiveGovCert[]; deposit: bigint } {
  const certs: LiveCert[] = [];
  const govCerts: LiveGovCert[] = [];
  let deposit = 0n;
  const list = body.certs();
  for (let i = 0; list && i < list.len(); i++) {
    const cert = list.get(i);
    const kind = cert.kind();
    if (kind === CSL.CertificateKind.StakeRegistration) {
      const c = cert.as_stake_registration()!;
      const coin = c.coin();
      if (coin && BigInt(coin.to_str()) !== protocol.keyDeposit) throw new LedgerRefusal(`Certificate ${i}: the stake key deposit is ${protocol.keyDeposit} lovelace.`);
      if (coin) keyOf(c.stake_credential(), `certificate ${i}`);
      certs.push({ kind: 'registration', stakeAddress: stakeAddressOf(c.stake_credential()), certIndex: i });
      deposit += protocol.keyDeposit;
    } else if (kind === CSL.CertificateKind.StakeDeregistration) {
      const c = cert.as_stake_deregistration()!;
      keyOf(c.stake_credential(), `certificate ${i}`);
      certs.push({ kind: 'deregistration', stakeAddress: stakeAddressOf(c.stake_credential()), certIndex: i });
      deposit -= protocol.keyDeposit;
    } else if (kind === CSL.CertificateKind.StakeDelegation) {
      const c = cert.as_stake_delegation()!;
      keyOf(c.stake_credential(), `certificate ${i}`);
      certs.push({ kind: 'delegation', stakeAddress: stakeAddressOf(c.stake_credential()), pool: c.pool_keyhash().to_bech32('pool'), certIndex: i });
    } else if (kind === CSL.CertificateKind.StakeRegistrationAndDelegation) {
      const c = cert.as_stake_registration_and_delegation()!;
      keyOf(c.stake_credential(), `certificate ${i}`);
      if (BigInt(c.coin().to_str()) !== protocol.keyDeposit) throw new LedgerRefusal(`Certificate ${i}: the stake key deposit is ${protocol.keyDeposit} lovelace.`);
      const stakeAddress = stakeAddressOf(c.stake_credential());
      certs.push({ kind: 'registration', stakeAddress, certIndex: i });
      certs.push({ kind: 'delegation', stakeAddress, pool: c.pool_keyhash().to_bech32('pool'), certIndex: i });
      deposit += protocol.keyDeposit;
    } else if (kind === CSL.CertificateKind.DRepRegistration) {
      const c = cert.as_drep_registration()!;
      const coin = BigInt(c.coin().to_str());
      if (coin !== protocol.drepDeposit) throw new LedgerRefusal(`Certificate ${i}: the DRep deposit is ${protocol.drepDeposit} lovelace (drep_deposit), not ${coin}.`);
      keyOf(c.voting_credential(), `certificate ${i}`);
      govCerts.push({ kind: 'drep_registration', certIndex: i, drep: credentialTarget(c.voting_credential()), deposit: coin, anchor: anchorOf(c.anchor()) });
      deposit += coin;
    } else if (kind === CSL.CertificateKind.DRepUpdate) {
      const c = cert.as_drep_update()!;
      keyOf(c.voting_credential(), `certificate ${i}`);
      govCerts.push({ kind: 'drep_update', certIndex: i, drep: credentialTarget(c.voting_credential()), anchor: anchorOf(c.anchor()) });
    } else if (kind === CSL.CertificateKind.DRepDeregistration) {
      const c = cert.as_drep_deregistration()!;
      const coin = BigInt(c.coin().to_str());
      keyOf(c.voting_credential(), `certificate ${i}`);
      govCerts.push({ kind: 'drep_deregistration', certIndex: i, drep: credentialTarget(c.voting_credential()), deposit: coin });
      deposit -= coin;
    } else if (kind === CSL.CertificateKind.VoteDelegation) {
      const c = cert.as_vote_delegation()!;
      keyOf(c.stake_credential(), `certificate ${i}`);
      govCerts.push({ kind: 'vote_delegation', certIndex: i, stakeAddress: stakeAddressOf(c.stake_credential()), drep: drepTarget(c.drep()) });
    } else if (kind === CSL.CertificateKind.StakeAndVoteDelegation) {
      const c = cert.as_stake_and_vote_delegation()!;
      keyOf(c.stake_credential(), `certificate ${i}`);
      const stakeAddress = stakeAddressOf(c.stake_credential());
      certs.push({ kind: 'delegation', stakeAddress, pool: c.pool_keyhash().to_bech32('pool'), certIndex: i });
      govCerts.push({ kind: 'vote_delegation', certIndex: i, stakeAddress, drep: drepTarget(c.drep()) });
    } else if (kind === CSL.CertificateKind.VoteRegistrationAndDelegation || kind === CSL.CertificateKind.StakeVoteRegistrationAndDelegation) {
      const both = kind === CSL.CertificateKind.StakeVoteRegistrationAndDelegation;
      const c = both ? cert.as_stake_vote_registration_and_delegation()! : cert.as_vote_registration_and_delegation()!;
      keyOf(c.stake_credential(), `certificate ${i}`);
      if (BigInt(c.coin().to_str()) !== protocol.keyDeposit) throw new LedgerRefusal(`Certificate ${i}: the stake key deposit is ${protocol.keyDeposit} lovelace.`);
      const stakeAddress = stakeAddressOf(c.stake_credential());
      certs.push({ kind: 'registration', stakeAddress, certIndex: i });
      if (both) certs.push({ kind: 'delegation', stakeAddress, pool: (c as CSL.StakeVoteRegistrationAndDelegation).pool_keyhash().to_bech32('pool'), certIndex: i });
      govCerts.push({ kind: 'vote_delegation', certIndex: i, stakeAddress, drep: drepTarget(c.drep()) });
      deposit += protocol.keyDeposit;
    } else if (kind === CSL.CertificateKind.CommitteeHotAuth || kind === CSL.CertificateKind.CommitteeColdResign) {
      const cold = kind === CSL.CertificateKind.CommitteeHotAuth ? cert.as_committee_hot_auth()!.committee_cold_credential() : cert.as_committee_cold_resign()!.committee_cold_credential();
      keyOf(cold, `certificate ${i}`);
      const hot = kind === CSL.CertificateKind.CommitteeHotAuth ? credentialTarget(cert.as_committee_hot_auth()!.committee_hot_credential()).hex : undefined;
      govCerts.push({ kind: kind === CSL.CertificateKind.CommitteeHotAuth ? 'committee_hot_auth' : 'committee_resignation', certIndex: i, coldHex: credentialTarget(cold).hex, ...(hot ? { hotHex: hot } : {}) });
    } else {
      throw new LedgerRefusal(`Certificate ${i} is of a kind the sandbox does not support (pool registration and retirement, genesis delegation and MIR certificates are not).`);
    }
  }
  return { certs, govCerts, deposit };
}

/** The body's voting procedures; each voter's key joins the keys that must sign. */
function decodeVotes(body: CSL.TransactionBody, stakeKeysToSign: Decoded['stakeKeysToSign']): LiveVote[] {
  const votes: LiveVote[] = [];
  const procedures = body.voting_procedures();
  if (procedures) {
    const voters = procedures.get_voters();
    for (let v = 0; v < voters.len(); v++) {
      const voter = voters.get(v)!;
      let role: LiveVote['role'];
      let voterHex: string;
      const cc = voter.to_constitutional_committee_hot_credential();
      const drep = voter.to_drep_credential();
      const pool = voter.to_stake_pool_key_hash();
      if (voter.has_script_credentials()) throw new LedgerRefusal(`Voter ${v}: voters with script credentials are not supported by the sandbox.`);
      if (cc) [role, voterHex] = ['constitutional_committee', cc.to_keyhash()!.to_hex()];
      else if (drep) [role, voterHex] = ['drep', drep.to_keyhash()!.to_hex()];
      else [role, voterHex] = ['spo', pool!.to_hex()];
      stakeKeysToSign.push({ keyHash: voterHex, why: `voter ${v}` });
      const actions = procedures.get_governance_action_ids_by_voter(voter);
      for (let a = 0; a < actions.len(); a++) {
        const id = actions.get(a)!;
        const procedure = procedures.get(voter, id)!;
        const kindOfVote = procedure.vote_kind();
        votes.push({
          index: votes.length,
          role,
          voterHex,
          actionTx: id.transaction_id().to_hex(),
          actionIndex: id.index(),
          vote: kindOfVote === CSL.VoteKind.Yes ? 'yes' : kindOfVote === CSL.VoteKind.No ? 'no' : 'abstain',
          anchor: anchorOf(procedure.anchor()),
        });
      }
    }
  }
  return votes;
}

/** The body's proposal procedures and the deposits they pay. */
function decodeProposals(body: CSL.TransactionBody, networkId: number): { proposals: LiveProposal[]; deposit: bigint } {
  let deposit = 0n;
  const proposals: LiveProposal[] = [];
  const proposed = body.voting_proposals();
  for (let i = 0; proposed && i < proposed.len(); i++) {
    const p = proposed.get(i);
    const returnAccount = p.reward_account();
    if (returnAccount.to_address().network_id() !== networkId) throw new LedgerRefusal(`Proposal ${i}: its return address is of another network.`);
    const action = p.governance_action();
    const withdrawalsOf: LiveProposal['withdrawals'] = [];
    const tw = action.as_treasury_withdrawals_action()?.withdrawals();
    if (tw) {
      const keys = tw.keys();
      for (let k = 0; k < keys.len(); k++) {
        const ra = keys.get(k);
        if (ra.to_address().network_id() !== networkId) throw new LedgerRefusal(`Proposal ${i}: withdrawal ${k} pays a stake address of another network.`);
        withdrawalsOf.push({ stakeAddress: ra.to_address().to_bech32(undefined), amount: BigInt(tw.get(ra)!.to_str()) });
      }
    }
    const coin = BigInt(p.deposit().to_str());
    proposals.push({
      index: i,
      type: ACTION_TYPES[action.kind()]!,
      deposit: coin,
      returnAddress: returnAccount.to_address().to_bech32(undefined),
      anchor: anchorOf(p.anchor())!,
      description: JSON.parse(action.to_json()) as unknown,
      parameters: action.as_parameter_change_action() ? parameterNames(action.as_parameter_change_action()!.protocol_param_updates()) : null,
      withdrawals: withdrawalsOf,
    });
    deposit += coin;
  }
  return { proposals, deposit };
}

function decodeWithdrawals(body: CSL.TransactionBody, keyOf: KeyOf): LiveTx['withdrawals'] {
  const withdrawals: LiveTx['withdrawals'] = [];
  const w = body.withdrawals();
  if (w) {
    const keys = w.keys();
    for (let i = 0; i < keys.len(); i++) {
      const ra = keys.get(i);
      keyOf(ra.payment_cred(), `withdrawal ${i}`);
      withdrawals.push({ stakeAddress: ra.to_address().to_bech32(undefined), amount: BigInt(w.get(ra)!.to_str()) });
    }
  }
  return withdrawals;
}

function decodeOutputs(body: CSL.TransactionBody, networkId: number): LiveOutput[] {
  const outputs: LiveOutput[] = [];
  const outs = body.outputs();
  for (let i = 0; i < outs.len(); i++) {
    const o = outs.get(i);
    let outputNetwork: number | null;
    try {
      outputNetwork = o.address().network_id();
    } catch {
      outputNetwork = null; // a Byron address of a protocol magic CSL does not know
    }
    if (outputNetwork !== networkId) throw new LedgerRefusal(`Output ${i} pays an address of another network.`);
    outputs.push(outputOf(o));
  }
  return outputs;
}

/** The auxiliary data's general metadata, by label. */
function decodeMetadata(fixed: CSL.FixedTransaction): LiveTx['metadata'] {
  const metadata: LiveTx['metadata'] = [];
  const aux = fixed.auxiliary_data();
  const general = aux?.metadata();
  if (general) {
    const labels = general.keys();
    for (let i = 0; i < labels.len(); i++) {
      const label = labels.get(i);
      const datum = general.get(label)!;
      metadata.push({ label: label.to_str(), json: metadatumJson(datum.to_hex()), cbor: datum.to_hex() });
    }
    metadata.sort((a, b) => Number(BigInt(a.label) - BigInt(b.label)));
  }
  return metadata;
}

/** The witness set's scripts, redeemers and datums (with the outputs' inline datums). */
function decodeWitnesses(fixed: CSL.FixedTransaction, outputs: LiveOutput[]): Pick<LiveTx, 'scripts' | 'redeemers' | 'datums'> {
  const witnesses = fixed.witness_set();
  const scripts: LiveScript[] = [];
  const natives = witnesses.native_scripts();
  for (let i = 0; natives && i < natives.len(); i++) {
    const ns = natives.get(i);
    scripts.push({ hash: ns.hash().to_hex(), type: 'timelock', cbor: ns.to_hex(), json: JSON.parse(ns.to_json()) });
  }
  const plutus = witnesses.plutus_scripts();
  for (let i = 0; plutus && i < plutus.len(); i++) {
    const ps = plutus.get(i);
    scripts.push({ hash: ps.hash().to_hex(), type: versionOf(ps), cbor: ps.to_hex(), json: null });
  }
  const redeemers: LiveRedeemer[] = [];
  const reds = witnesses.redeemers();
  for (let i = 0; reds && i < reds.len(); i++) {
    const r = reds.get(i);
    redeemers.push({
      purpose: purposeOfTag(r.tag()),
      index: Number(r.index().to_str()),
      memory: BigInt(r.ex_units().mem().to_str()),
      steps: BigInt(r.ex_units().steps().to_str()),
      dataHash: CSL.hash_plutus_data(r.data()).to_hex(),
      dataCbor: r.data().to_hex(),
      scriptHash: null,
    });
  }
  const datums: LiveTx['datums'] = [];
  const data = witnesses.plutus_data();
  for (let i = 0; data && i < data.len(); i++) datums.push({ hash: CSL.hash_plutus_data(data.get(i)).to_hex(), cbor: data.get(i).to_hex() });
  for (const o of outputs) if (o.inlineDatum) datums.push({ hash: CSL.hash_plutus_data(CSL.PlutusData.from_hex(o.inlineDatum)).to_hex(), cbor: o.inlineDatum });
  return { scripts, redeemers, datums };
}

/** Decodes a signed transaction into the ledger's terms; throws LedgerRefusal when it cannot. */
function decode(bytes: Uint8Array, networkId: number, origin: LedgerOrigin, protocol: Readonly<Protocol>): Decoded {
  let fixed: CSL.FixedTransaction;
  try {
    fixed = CSL.FixedTransaction.from_bytes(bytes);
  } catch (err) {
    throw new LedgerRefusal(`The transaction could not be decoded: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  }
  const body = fixed.body();
  const stakeAddressOf = (cred: CSL.Credential): string => CSL.RewardAddress.new(networkId, cred).to_address().to_bech32(undefined);
  const stakeKeysToSign: Decoded['stakeKeysToSign'] = [];
  const stakeScripts: Decoded['stakeScripts'] = [];
  const keyOf: KeyOf = (cred, why) => {
    const kh = cred.to_keyhash();
    if (kh) stakeKeysToSign.push({ keyHash: kh.to_hex(), why });
    else stakeScripts.push({ scriptHash: cred.to_scripthash()!.to_hex(), why });
  };

  const { certs, govCerts, deposit: certDeposit } = decodeCertificates(body, stakeAddressOf, keyOf, protocol);
  // Voting procedures: each voter's key must sign.
  const votes = decodeVotes(body, stakeKeysToSign);
  // Proposal procedures: their deposits are paid by the transaction.
  const { proposals, deposit: proposalDeposit } = decodeProposals(body, networkId);
  const deposit = certDeposit + proposalDeposit;
  const withdrawals = decodeWithdrawals(body, keyOf);
  const outputs = decodeOutputs(body, networkId);
  const metadata = decodeMetadata(fixed);
  const { scripts, redeemers, datums } = decodeWitnesses(fixed, outputs);

  const tx: LiveTx = {
    seq: 0,
    hash: fixed.transaction_hash().to_hex(),
    height: 0,
    order: 0,
    origin,
    cbor: hex(bytes),
    size: bytes.length,
    fee: BigInt(body.fee().to_str()),
    deposit,
    inputs: inputsOf(body.inputs()),
    referenceInputs: inputsOf(body.reference_inputs()),
    outputs,
    withdrawals,
    certs,
    govCerts,
    votes,
    proposals,
    mint: sortUnits(mintOf(body)),
    metadata,
    scripts,
    datums,
    invalidBefore: body.validity_start_interval_bignum() ? BigInt(body.validity_start_interval_bignum()!.to_str()) : null,
    invalidHereafter: body.ttl_bignum() ? BigInt(body.ttl_bignum()!.to_str()) : null,
    redeemers,
    validContract: true,
    outputOffset: 0,
    collateral: inputsOf(body.collateral()),
  };
  return { tx: fixed.is_valid() ? tx : collateralOnly(tx, body), intended: tx, fixed, body, stakeKeysToSign, stakeScripts };
}

/**
 * What a transaction marked invalid does: its collateral inputs are spent, the collateral return
 * (if any) is its one output, at the index after the body's outputs, and the rest is the fee.
 */
function collateralOnly(tx: LiveTx, body: CSL.TransactionBody): LiveTx {
  const ret = body.collateral_return();
  const outputs = ret ? [outputOf(ret)] : [];
  const total = body.total_collateral();
  return {
    ...tx,
    inputs: tx.collateral,
    outputs,
    outputOffset: body.outputs().len(),
    fee: total ? BigInt(total.to_str()) : tx.fee,
    deposit: 0n,
    withdrawals: [],
    certs: [],
    govCerts: [],
    votes: [],
    proposals: [],
    mint: new Map(),
    datums: tx.datums.filter((d) => outputs.some((o) => o.inlineDatum === d.cbor)),
    validContract: false,
  };
}

/** Whether a native script is satisfied by these signers within the transaction's validity interval. */
function nativeScriptHolds(ns: CSL.NativeScript, signers: Set<string>, tx: LiveTx): boolean {
  const all = (list: CSL.NativeScripts): boolean[] => Array.from({ length: list.len() }, (_, i) => nativeScriptHolds(list.get(i), signers, tx));
  switch (ns.kind()) {
    case CSL.NativeScriptKind.ScriptPubkey:
      return signers.has(ns.as_script_pubkey()!.addr_keyhash().to_hex());
    case CSL.NativeScriptKind.ScriptAll:
      return all(ns.as_script_all()!.native_scripts()).every(Boolean);
    case CSL.NativeScriptKind.ScriptAny:
      return all(ns.as_script_any()!.native_scripts()).some(Boolean);
    case CSL.NativeScriptKind.ScriptNOfK: {
      const s = ns.as_script_n_of_k()!;
      return all(s.native_scripts()).filter(Boolean).length >= s.n();
    }
    case CSL.NativeScriptKind.TimelockStart:
      return tx.invalidBefore !== null && tx.invalidBefore >= BigInt(ns.as_timelock_start()!.slot_bignum().to_str());
    case CSL.NativeScriptKind.TimelockExpiry:
      return tx.invalidHereafter !== null && tx.invalidHereafter <= BigInt(ns.as_timelock_expiry()!.slot_bignum().to_str());
    default:
      return false;
  }
}

/** A script a transaction can run: from its witness set or a reference script. */
type AvailableScript = { native: CSL.NativeScript } | { plutus: PlutusVersion };
/** Something a script must allow: an input, a minting policy, a certificate or a withdrawal. */
type ScriptCheck = { scriptHash: string; why: string; purpose: Purpose; index: number };

const describeUnit = (unit: string): string => (unit === 'lovelace' ? 'lovelace' : `of ${unit}`);

export class LiveLedger {
  readonly networkId: number;
  private readonly txs = new Map<string, LiveTx>();
  /** Every transaction in chain order (height, then order). */
  private readonly ordered: LiveTx[] = [];
  private readonly byHeight = new Map<number, LiveTx[]>();
  private readonly utxos = new Map<string, LiveUtxo>();
  private readonly utxosByAddress = new Map<string, LiveUtxo[]>();
  private readonly txsByAddress = new Map<string, LiveTx[]>();
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** The height of the block a submission is being stored for (null: none): the chain shows no block from it until then. */
  private storing: number | null = null;
  private started: Promise<void> | null = null;

  private readonly protocol: Readonly<Protocol>;
  /** The key of the store's entries: the network, or a devnet's own. */
  private readonly storeKey: string;

  constructor(private readonly options: LedgerOptions) {
    this.protocol = options.protocol ?? PROTOCOL;
    this.storeKey = options.storeKey ?? options.network;
    this.networkId = cardanoOfSandbox(options.network).addressNetworkId;
    for (const g of options.genesis()) this.apply(decode(Buffer.from(g.cbor, 'hex'), this.networkId, 'genesis', this.protocol).tx, 0, 0);
  }

  // ---- reading ----

  /**
   * The chain's tip: the last block its clock has made due, except that the block a submission is
   * being stored for, and any after it, waits until it is stored (as a late block does).
   */
  tip(): number {
    const due = this.options.tip();
    return this.storing !== null && due >= this.storing ? this.storing - 1 : due;
  }

  private visible = (height: number): boolean => height <= this.tip();

  tx(hash: string): LiveTx | null {
    const tx = this.txs.get(hash.toLowerCase());
    return tx && this.visible(tx.height) ? tx : null;
  }
  /** Live transactions of a block (they follow the block's background transactions). */
  txsAt(height: number): LiveTx[] {
    return this.visible(height) ? (this.byHeight.get(height) ?? []) : [];
  }
  /** Visible transactions in chain order. */
  all(): LiveTx[] {
    const tip = this.tip();
    let end = this.ordered.length;
    while (end > 0 && this.ordered[end - 1]!.height > tip) end--;
    return this.ordered.slice(0, end);
  }
  /** Accepted transactions up to a height, visible or not (the next block's included), in chain order. */
  through(height: number): LiveTx[] {
    let end = this.ordered.length;
    while (end > 0 && this.ordered[end - 1]!.height > height) end--;
    return this.ordered.slice(0, end);
  }
  /** How many transactions have been accepted: changes whenever the ledger does. */
  get size(): number {
    return this.ordered.length;
  }
  /** Accepted transactions still waiting for their block (above the tip), in the order they were accepted. */
  pending(): LiveTx[] {
    const tip = this.tip();
    let start = this.ordered.length;
    while (start > 0 && this.ordered[start - 1]!.height > tip) start--;
    return this.ordered.slice(start);
  }
  /** The output a transaction's input spends (visible or not: the transaction itself is). */
  outputOf(txHash: string, outputIndex: number): LiveOutput | null {
    return this.utxos.get(key(txHash, outputIndex))?.output ?? null;
  }
  spentBy(txHash: string, outputIndex: number): string | null {
    const u = this.utxos.get(key(txHash, outputIndex));
    return u?.spentBy && this.visible(u.spentBy.height) ? u.spentBy.hash : null;
  }
  knows(address: string): boolean {
    return (this.txsByAddress.get(address) ?? []).some((t) => this.visible(t.height));
  }
  txsOf(address: string): LiveTx[] {
    return (this.txsByAddress.get(address) ?? []).filter((t) => this.visible(t.height));
  }
  /** Unspent outputs at an address as of the tip, in chain order. */
  utxosOf(address: string): LiveUtxo[] {
    return (this.utxosByAddress.get(address) ?? []).filter((u) => this.visible(u.height) && !(u.spentBy && this.visible(u.spentBy.height)));
  }
  /** Every unspent output as of the tip, in chain order. */
  unspent(): LiveUtxo[] {
    const out: LiveUtxo[] = [];
    for (const tx of this.all()) {
      tx.outputs.forEach((_, i) => {
        const u = this.utxos.get(key(tx.hash, tx.outputOffset + i))!;
        if (!(u.spentBy && this.visible(u.spentBy.height))) out.push(u);
      });
    }
    return out;
  }

  // ---- writing ----

  private apply(tx: LiveTx, seq: number, height: number): void {
    tx.seq = seq;
    tx.height = height;
    const block = this.byHeight.get(height) ?? [];
    tx.order = block.length;
    block.push(tx);
    this.byHeight.set(height, block);
    this.txs.set(tx.hash, tx);
    this.ordered.push(tx);
    const touched = new Set<string>();
    let collateralIn = 0n;
    for (const i of tx.inputs) {
      const u = this.utxos.get(key(i.txHash, i.outputIndex));
      if (u) {
        u.spentBy = { hash: tx.hash, height };
        touched.add(u.output.address);
        collateralIn += u.output.lovelace;
      }
    }
    // A transaction marked invalid pays with its collateral: what is not returned is the fee.
    if (!tx.validContract) tx.fee = collateralIn - tx.outputs.reduce((n, o) => n + o.lovelace, 0n);
    tx.outputs.forEach((output, i) => {
      const outputIndex = tx.outputOffset + i;
      const u: LiveUtxo = { txHash: tx.hash, outputIndex, height, output, spentBy: null };
      this.utxos.set(key(tx.hash, outputIndex), u);
      const list = this.utxosByAddress.get(output.address) ?? [];
      list.push(u);
      this.utxosByAddress.set(output.address, list);
      touched.add(output.address);
    });
    for (const a of touched) {
      const list = this.txsByAddress.get(a) ?? [];
      list.push(tx);
      this.txsByAddress.set(a, list);
    }
  }

  /** Reads what other processes appended since the last read. */
  async sync(): Promise<void> {
    if (!this.options.store) return;
    const entries = await this.options.store.entriesAfter(this.storeKey, this.seq);
    for (const e of entries) {
      if (e.seq !== this.seq + 1) break;
      if (!this.txs.has(e.hash)) this.apply(decode(Buffer.from(e.cbor, 'hex'), this.networkId, e.origin, this.protocol).tx, e.seq, e.height);
      this.seq = e.seq;
    }
  }

  /** The sequence number of the last stored entry read or appended (0: none). */
  lastSeq(): number {
    return this.seq;
  }

  /** Loads the stored transactions once (later calls wait for the same load). */
  ready(): Promise<void> {
    this.started ??= this.sync();
    return this.started;
  }

  /** Stake accounts' state as of the tip: registration, pool, withdrawals. */
  accounts(): Map<string, { registered: boolean; pool: string | null; activeHeight: number; withdrawals: bigint }> {
    const out = new Map<string, { registered: boolean; pool: string | null; activeHeight: number; withdrawals: bigint }>();
    for (const tx of this.all()) {
      for (const c of tx.certs) {
        const a = out.get(c.stakeAddress) ?? { registered: false, pool: null, activeHeight: tx.height, withdrawals: 0n };
        if (c.kind === 'registration') a.registered = true;
        if (c.kind === 'deregistration') Object.assign(a, { registered: false, pool: null });
        if (c.kind === 'delegation') a.pool = c.pool!;
        a.activeHeight = tx.height;
        out.set(c.stakeAddress, a);
      }
      for (const w of tx.withdrawals) {
        const a = out.get(w.stakeAddress);
        if (a) a.withdrawals += w.amount;
      }
    }
    return out;
  }

  /**
   * Checks a signed transaction against the ledger (including transactions accepted for the next
   * block) for inclusion at `height`; answers the decoded transaction or throws LedgerRefusal.
   */
  validate(bytes: Uint8Array, height: number, origin: LedgerOrigin = 'submit'): LiveTx {
    const decoded = decode(bytes, this.networkId, origin, this.protocol);
    const { intended: tx, fixed, body, stakeKeysToSign, stakeScripts } = decoded;
    if (this.txs.has(tx.hash)) throw new LedgerRefusal(`Transaction ${tx.hash} has already been accepted.`);
    if (bytes.length > this.protocol.maxTxSize) throw new LedgerRefusal(`The transaction is ${bytes.length} bytes; the maximum is ${this.protocol.maxTxSize}.`);
    const witnesses = fixed.witness_set();
    if ((witnesses.bootstraps()?.len() ?? 0) > 0) throw new LedgerRefusal('Byron (bootstrap) witnesses are not supported by the sandbox.');
    if (tx.inputs.length === 0) throw new LedgerRefusal('The transaction has no inputs.');

    // Validity interval against the slot of the block it would go into.
    const slot = BigInt(this.options.slotOf(height));
    if (tx.invalidBefore !== null && slot < tx.invalidBefore) throw new LedgerRefusal(`The transaction is not valid yet: its validity starts at slot ${tx.invalidBefore}, the next block's slot is ${slot}.`);
    if (tx.invalidHereafter !== null && slot >= tx.invalidHereafter) throw new LedgerRefusal(`The transaction has expired: it is valid until slot ${tx.invalidHereafter}, the next block's slot is ${slot}.`);

    const { scripts, resolved, mustSign, consumed, scriptChecks } = this.resolveInputs(tx, witnesses);
    const signers = this.checkSignatures(tx, fixed, body, witnesses, mustSign, stakeKeysToSign);
    const plutusRuns = this.checkScripts(tx, scripts, scriptChecks, stakeScripts, signers);
    this.checkAccounts(tx, height);
    this.checkValue(tx, consumed);
    const { declaredMem, declaredSteps } = this.checkFeeAndOutputs(tx, bytes, body, resolved);

    if (tx.redeemers.length === 0) {
      if (!fixed.is_valid()) throw new LedgerRefusal('The transaction is marked invalid (is_valid = false) but runs no Plutus script: nothing could fail, so the ledger refuses it.');
      return decoded.tx;
    }
    this.checkCollateral(tx, body, signers);
    if (declaredMem > MAX_TX_EX_MEM || declaredSteps > MAX_TX_EX_STEPS) {
      throw new LedgerRefusal(`The redeemers declare ${declaredMem} memory and ${declaredSteps} steps; a transaction may use at most ${MAX_TX_EX_MEM} and ${MAX_TX_EX_STEPS}.`);
    }
    this.checkScriptDataHash(body, witnesses, plutusRuns.map((r) => (scripts.get(r.scriptHash) as { plutus: PlutusVersion }).plutus));

    return this.runScripts(decoded, bytes, resolved);
  }

  /** The scripts the transaction can run, its inputs and reference inputs resolved, and what they require. */
  private resolveInputs(tx: LiveTx, witnesses: CSL.TransactionWitnessSet) {
    // The scripts the transaction can run: its witness set's, and the reference scripts of what it spends or references.
    const scripts = new Map<string, AvailableScript>();
    const natives = witnesses.native_scripts();
    for (let i = 0; natives && i < natives.len(); i++) scripts.set(natives.get(i).hash().to_hex(), { native: natives.get(i) });
    for (const sc of tx.scripts) if (sc.type !== 'timelock') scripts.set(sc.hash, { plutus: sc.type });
    const referenceScriptOf = (u: LiveUtxo): void => {
      if (!u.output.referenceScriptHash) return;
      const ref = CSL.TransactionOutput.from_hex(u.output.cbor).script_ref()!;
      if (ref.is_native_script()) scripts.set(u.output.referenceScriptHash, { native: ref.native_script()! });
      else scripts.set(u.output.referenceScriptHash, { plutus: versionOf(ref.plutus_script()!) });
    };
    const resolved: LiveUtxo[] = [];
    for (const r of tx.referenceInputs) {
      const u = this.utxos.get(key(r.txHash, r.outputIndex));
      if (!u || u.spentBy) throw new LedgerRefusal(`Reference input ${key(r.txHash, r.outputIndex)} is not an unspent output of this ledger.`);
      resolved.push(u);
      referenceScriptOf(u);
    }

    // Inputs exist, are unspent, and are locked by keys (whose hashes must sign) or by scripts that allow them.
    const mustSign = new Map<string, string>();
    const consumed = new Map<string, bigint>();
    const seen = new Set<string>();
    const scriptChecks: ScriptCheck[] = [];
    const sortedInputs = [...tx.inputs].sort((a, b) => (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : a.outputIndex - b.outputIndex));
    for (const input of tx.inputs) {
      const k = key(input.txHash, input.outputIndex);
      if (seen.has(k)) throw new LedgerRefusal(`Input ${k} appears twice.`);
      seen.add(k);
      const u = this.utxos.get(k);
      if (!u) throw new LedgerRefusal(`Input ${k} does not exist: no transaction of this ledger made that output.`);
      if (u.spentBy) throw new LedgerRefusal(`Input ${k} has already been spent by transaction ${u.spentBy.hash} (double spend).`);
      resolved.push(u);
      referenceScriptOf(u);
      const cred = paymentCredOf(u.output.address, `Input ${k}`);
      const kh = cred?.to_keyhash();
      if (kh) mustSign.set(kh.to_hex(), `input ${k}`);
      else if (cred?.to_scripthash()) scriptChecks.push({ scriptHash: cred.to_scripthash()!.to_hex(), why: `input ${k}`, purpose: 'spend', index: sortedInputs.indexOf(input) });
      else throw new LedgerRefusal(`Input ${k} has an address with no payment credential.`);
      addTo(consumed, 'lovelace', u.output.lovelace);
      for (const [unit, q] of u.output.assets) addTo(consumed, unit, q);
    }
    return { scripts, resolved, mustSign, consumed, scriptChecks };
  }

  /** Key witnesses verify, and cover every key that must sign; answers the signers' key hashes. */
  private checkSignatures(tx: LiveTx, fixed: CSL.FixedTransaction, body: CSL.TransactionBody, witnesses: CSL.TransactionWitnessSet, mustSign: Map<string, string>, stakeKeysToSign: Decoded['stakeKeysToSign']): Set<string> {
    const required = body.required_signers();
    for (let i = 0; required && i < required.len(); i++) mustSign.set(required.get(i).to_hex(), `required signer ${i}`);
    for (const s of stakeKeysToSign) mustSign.set(s.keyHash, s.why);

    // Key witnesses verify over the body hash.
    const bodyHash = fixed.transaction_hash().to_bytes();
    const signers = new Set<string>();
    const vkeys = witnesses.vkeys();
    for (let i = 0; vkeys && i < vkeys.len(); i++) {
      const w = vkeys.get(i);
      const pub = w.vkey().public_key();
      if (!pub.verify(bodyHash, w.signature())) throw new LedgerRefusal(`Key witness ${i} (key hash ${pub.hash().to_hex()}) does not verify: its signature is not over this transaction's body.`);
      signers.add(pub.hash().to_hex());
    }
    for (const [kh, why] of mustSign) if (!signers.has(kh)) throw new LedgerRefusal(`Missing key witness for ${kh} (${why}).`);
    return signers;
  }

  /** Every script check finds its script, native scripts hold, Plutus scripts have redeemers; answers the Plutus ones. */
  private checkScripts(tx: LiveTx, scripts: Map<string, AvailableScript>, scriptChecks: ScriptCheck[], stakeScripts: Decoded['stakeScripts'], signers: Set<string>): ScriptCheck[] {
    // Minting policies, certificates and withdrawals by script: native scripts must hold, Plutus scripts run below.
    const policies = [...new Set([...tx.mint.keys()].map((unit) => unit.slice(0, 56)))].sort();
    policies.forEach((policy, index) => scriptChecks.push({ scriptHash: policy, why: `minting policy ${policy}`, purpose: 'mint', index }));
    for (const sc of stakeScripts) {
      const cert = /^certificate (\d+)$/.exec(sc.why);
      const withdrawal = /^withdrawal (\d+)$/.exec(sc.why);
      scriptChecks.push({ ...sc, purpose: cert ? 'certificate' : 'withdrawal', index: Number((cert ?? withdrawal)![1]) });
    }
    const plutusRuns: ScriptCheck[] = [];
    for (const check of scriptChecks) {
      const script = scripts.get(check.scriptHash);
      if (!script) throw new LedgerRefusal(`Script ${check.scriptHash} (${check.why}) is neither in the witness set nor a reference script of an input or reference input.`);
      if ('native' in script) {
        if (!nativeScriptHolds(script.native, signers, tx)) throw new LedgerRefusal(`The native script ${check.scriptHash} (${check.why}) is not satisfied by the transaction's signatures and validity interval.`);
        continue;
      }
      const redeemer = tx.redeemers.find((r) => r.purpose === check.purpose && r.index === check.index);
      if (!redeemer) throw new LedgerRefusal(`Missing redeemer ${check.purpose}:${check.index} for the Plutus script ${check.scriptHash} (${check.why}).`);
      redeemer.scriptHash = check.scriptHash;
      plutusRuns.push(check);
    }
    for (const r of tx.redeemers) if (!r.scriptHash) throw new LedgerRefusal(`Redeemer ${r.purpose}:${r.index} points at nothing a Plutus script guards.`);
    return plutusRuns;
  }

  /** Certificates, proposals, submitted governance and withdrawals against the accounts. */
  private checkAccounts(tx: LiveTx, height: number): void {
    const accounts = this.pendingAccounts();
    for (const c of tx.certs) {
      const a = accounts.get(c.stakeAddress) ?? { registered: false };
      if (c.kind === 'registration' && a.registered) throw new LedgerRefusal(`Certificate ${c.certIndex}: ${c.stakeAddress} is already registered.`);
      if (c.kind !== 'registration' && !a.registered) throw new LedgerRefusal(`Certificate ${c.certIndex}: ${c.stakeAddress} is not registered.`);
      if (c.kind === 'delegation' && !this.options.isPool(c.pool!)) throw new LedgerRefusal(`Certificate ${c.certIndex}: pool ${c.pool} is not registered on this chain.`);
      a.registered = c.kind !== 'deregistration';
      accounts.set(c.stakeAddress, a);
    }
    for (const c of tx.govCerts) {
      if (c.kind === 'vote_delegation' && !accounts.get(c.stakeAddress!)?.registered) throw new LedgerRefusal(`Certificate ${c.certIndex}: ${c.stakeAddress} is not registered.`);
    }
    for (const p of tx.proposals) {
      if (p.deposit !== this.protocol.govActionDeposit) throw new LedgerRefusal(`Proposal ${p.index}: the deposit is ${this.protocol.govActionDeposit} lovelace (gov_action_deposit), not ${p.deposit}.`);
      if (!accounts.get(p.returnAddress)?.registered) throw new LedgerRefusal(`Proposal ${p.index}: its return address ${p.returnAddress} is not a registered stake address.`);
      for (const w of p.withdrawals) if (!accounts.get(w.stakeAddress)?.registered) throw new LedgerRefusal(`Proposal ${p.index}: the treasury withdrawal to ${w.stakeAddress} goes to a stake address that is not registered.`);
    }
    if (this.options.governance && (tx.govCerts.length || tx.votes.length || tx.proposals.length)) {
      const reason = this.options.governance(tx, this.ordered, height);
      if (reason) throw new LedgerRefusal(reason);
    }
    // Withdrawals take the whole reward balance, as the ledger requires; they apply before the
    // certificates, so a deregistration may withdraw the balance in the same transaction.
    const pendingAccounts = this.pendingAccounts();
    const withdrawn = new Map<string, bigint>();
    for (const w of tx.withdrawals) {
      if (!pendingAccounts.get(w.stakeAddress)?.registered) throw new LedgerRefusal(`Withdrawal from ${w.stakeAddress}: the stake address is not registered.`);
      const balance = this.rewardBalance(w.stakeAddress, height);
      if (w.amount !== balance) throw new LedgerRefusal(`Withdrawal from ${w.stakeAddress}: its reward balance is ${balance} lovelace, not ${w.amount}; a withdrawal takes the whole balance.`);
      withdrawn.set(w.stakeAddress, w.amount);
    }
    for (const c of tx.certs) {
      if (c.kind !== 'deregistration') continue;
      const left = this.rewardBalance(c.stakeAddress, height) - (withdrawn.get(c.stakeAddress) ?? 0n);
      if (left !== 0n) throw new LedgerRefusal(`Certificate ${c.certIndex}: ${c.stakeAddress} still holds ${left} lovelace of rewards; withdraw them (in this transaction or before) to deregister.`);
    }
  }

  /** Value is preserved: inputs + withdrawals + refunds + mint = outputs + fee + deposits. */
  private checkValue(tx: LiveTx, consumed: Map<string, bigint>): void {
    for (const w of tx.withdrawals) addTo(consumed, 'lovelace', w.amount);
    if (tx.deposit < 0n) addTo(consumed, 'lovelace', -tx.deposit);
    for (const [unit, q] of tx.mint) addTo(consumed, unit, q);
    const produced = new Map<string, bigint>();
    for (const o of tx.outputs) {
      addTo(produced, 'lovelace', o.lovelace);
      for (const [unit, q] of o.assets) addTo(produced, unit, q);
    }
    addTo(produced, 'lovelace', tx.fee);
    if (tx.deposit > 0n) addTo(produced, 'lovelace', tx.deposit);
    for (const unit of new Set([...consumed.keys(), ...produced.keys()])) {
      const c = consumed.get(unit) ?? 0n;
      const p = produced.get(unit) ?? 0n;
      if (c !== p) {
        throw new LedgerRefusal(
          `Value is not preserved: inputs + withdrawals + refunds + mint hold ${c} ${describeUnit(unit)}, outputs + fee + deposits ${p}.`,
        );
      }
    }
  }

  /** Fee (size, execution units, reference scripts) and each output's minimum ada; answers the declared units. */
  private checkFeeAndOutputs(tx: LiveTx, bytes: Uint8Array, body: CSL.TransactionBody, resolved: LiveUtxo[]): { declaredMem: bigint; declaredSteps: bigint } {
    const declaredMem = tx.redeemers.reduce((n, r) => n + r.memory, 0n);
    const declaredSteps = tx.redeemers.reduce((n, r) => n + r.steps, 0n);
    const refScriptBytes = resolved.reduce((n, u) => n + (u.output.referenceScriptHash ? BigInt(CSL.TransactionOutput.from_hex(u.output.cbor).script_ref()!.to_bytes().length) : 0n), 0n);
    const sizeFee = BigInt(this.protocol.minFeeA) * BigInt(bytes.length) + BigInt(this.protocol.minFeeB);
    const minFee = sizeFee + exUnitsFee(declaredMem, declaredSteps, this.protocol) + refScriptBytes * BigInt(this.protocol.minFeeRefScriptCostPerByte);
    if (tx.fee < minFee) {
      const parts = [`${this.protocol.minFeeA} × size + ${this.protocol.minFeeB}`];
      if (declaredMem || declaredSteps) parts.push(`${exUnitsFee(declaredMem, declaredSteps, this.protocol)} for execution units`);
      if (refScriptBytes) parts.push(`${refScriptBytes * BigInt(this.protocol.minFeeRefScriptCostPerByte)} for ${refScriptBytes} bytes of reference scripts`);
      throw new LedgerRefusal(`The fee is too low: ${tx.fee} lovelace, the minimum for ${bytes.length} bytes is ${minFee} (${parts.join(' + ')}).`);
    }
    const outs = body.outputs();
    const dataCost = CSL.DataCost.new_coins_per_byte(CSL.BigNum.from_str(String(this.protocol.coinsPerUtxoByte)));
    for (let i = 0; i < outs.len(); i++) {
      const min = BigInt(CSL.min_ada_for_output(outs.get(i), dataCost).to_str());
      if (tx.outputs[i]!.lovelace < min) throw new LedgerRefusal(`Output ${i} holds ${tx.outputs[i]!.lovelace} lovelace, below the minimum of ${min} for its size.`);
    }
    return { declaredMem, declaredSteps };
  }

  /** Phase 2: the Plutus scripts run; each needs no more than its redeemer declares. */
  private runScripts(decoded: Decoded, bytes: Uint8Array, resolved: LiveUtxo[]): LiveTx {
    const { intended: tx, fixed } = decoded;
    const evaluation = evaluate(bytes, resolved.map((u) => ({ input: CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.txHash), u.outputIndex), output: CSL.TransactionOutput.from_hex(u.output.cbor) })), this.slots, this.protocol.costModels);
    let failures: ScriptFailure[] = [];
    if (!evaluation.ok) failures = evaluation.failures.length ? evaluation.failures : [{ purpose: 'spend', index: 0, error: evaluation.general ?? 'the scripts could not be evaluated', traces: [] }];
    else {
      for (const used of evaluation.redeemers) {
        const r = tx.redeemers.find((d) => d.purpose === used.purpose && d.index === used.index)!;
        if (BigInt(used.memory) > r.memory || BigInt(used.steps) > r.steps) {
          failures.push({ purpose: used.purpose, index: used.index, error: `the script needs ${used.memory} memory and ${used.steps} steps, the redeemer declares ${r.memory} and ${r.steps}`, traces: [] });
        }
      }
    }
    if (fixed.is_valid()) {
      if (failures.length) throw new ScriptRefusal(failures);
      return decoded.tx;
    }
    if (!failures.length) throw new LedgerRefusal('The transaction is marked invalid (is_valid = false) but its scripts succeed: the ledger refuses it (submit it as valid).');
    return decoded.tx;
  }

  private rewardBalance(stakeAddress: string, height: number): bigint {
    return this.options.rewardBalance ? this.options.rewardBalance(stakeAddress, height) : 0n;
  }

  private get slots(): SlotConfig {
    return this.options.slots ?? { zeroTime: 0, zeroSlot: 0, slotLength: 1000 };
  }

  /** Collateral: key-locked unspent outputs, few enough, worth at least collateral_percent of the fee in ada, any tokens returned. */
  private checkCollateral(tx: LiveTx, body: CSL.TransactionBody, signers: Set<string>): void {
    if (tx.collateral.length === 0) throw new LedgerRefusal('The transaction runs Plutus scripts but has no collateral inputs.');
    if (tx.collateral.length > this.protocol.maxCollateralInputs) throw new LedgerRefusal(`The transaction has ${tx.collateral.length} collateral inputs; at most ${this.protocol.maxCollateralInputs} are allowed.`);
    const value = new Map<string, bigint>();
    for (const c of tx.collateral) {
      const k = key(c.txHash, c.outputIndex);
      const u = this.utxos.get(k);
      if (!u || u.spentBy) throw new LedgerRefusal(`Collateral input ${k} is not an unspent output of this ledger.`);
      const kh = paymentCredOf(u.output.address, `Collateral input ${k}`)?.to_keyhash();
      if (!kh) throw new LedgerRefusal(`Collateral input ${k} is locked by a script: collateral must be locked by a key.`);
      if (!signers.has(kh.to_hex())) throw new LedgerRefusal(`Missing key witness for ${kh.to_hex()} (collateral input ${k}).`);
      addTo(value, 'lovelace', u.output.lovelace);
      for (const [unit, q] of u.output.assets) addTo(value, unit, q);
    }
    const ret = body.collateral_return();
    if (ret) {
      const o = outputOf(ret);
      addTo(value, 'lovelace', -o.lovelace);
      for (const [unit, q] of o.assets) addTo(value, unit, -q);
    }
    for (const [unit, q] of value) if (unit !== 'lovelace' && q !== 0n) throw new LedgerRefusal(`The collateral holds ${q} ${describeUnit(unit)} that the collateral return does not give back: collateral is ada only.`);
    const net = value.get('lovelace') ?? 0n;
    const needed = (tx.fee * BigInt(this.protocol.collateralPercent) + 99n) / 100n;
    if (net < needed) throw new LedgerRefusal(`The collateral is ${net} lovelace (after its return); ${this.protocol.collateralPercent} % of the fee is ${needed}.`);
    const total = body.total_collateral();
    if (total && BigInt(total.to_str()) !== net) throw new LedgerRefusal(`total_collateral says ${total.to_str()} lovelace, but the collateral inputs less the return hold ${net}.`);
  }

  /** script_data_hash commits to the redeemers, the datums and the cost models of the languages used. */
  private checkScriptDataHash(body: CSL.TransactionBody, witnesses: CSL.TransactionWitnessSet, languages: PlutusVersion[]): void {
    const expected = CSL.hash_script_data(witnesses.redeemers()!, costModels(new Set(languages), this.protocol.costModels), witnesses.plutus_data());
    const declared = body.script_data_hash();
    if (!declared) throw new LedgerRefusal(`The transaction runs Plutus scripts but has no script_data_hash (expected ${expected.to_hex()}).`);
    if (declared.to_hex() !== expected.to_hex()) {
      throw new LedgerRefusal(`script_data_hash is ${declared.to_hex()}, expected ${expected.to_hex()} (over the redeemers, the datums and the cost models of /epochs/latest/parameters for the languages used).`);
    }
  }

  /** Registration state including transactions accepted for the next block. */
  private pendingAccounts(): Map<string, { registered: boolean }> {
    const out = new Map<string, { registered: boolean }>();
    for (const tx of this.ordered) for (const c of tx.certs) out.set(c.stakeAddress, { registered: c.kind !== 'deregistration' });
    return out;
  }

  /**
   * Validates a signed transaction and appends it for the next block. Submissions are serialised
   * within the process; across processes the store's sequence decides, and a lost race re-reads
   * and re-validates.
   */
  submit(transaction: Uint8Array | (() => Uint8Array), origin: LedgerOrigin = 'submit'): Promise<LiveTx> {
    const run = async (): Promise<LiveTx> => {
      await this.ready();
      for (let attempt = 0; attempt < 5; attempt++) {
        await this.sync();
        const height = this.tip() + 1;
        // A builder (the faucet) is called here, in turn, so it sees every earlier acceptance.
        const bytes = typeof transaction === 'function' ? transaction() : transaction;
        const tx = this.validate(bytes, height, origin);
        const seq = this.seq + 1;
        // Block `height` may come due while the store takes the entry: it shows only once the entry
        // is stored and applied (the chain's tip waits, as a late block does), so whoever reads a
        // block never sees it gain a transaction afterwards.
        this.storing = height;
        try {
          if (this.options.store && !(await this.options.store.append(this.storeKey, { seq, height, hash: tx.hash, cbor: tx.cbor, origin }))) continue;
          this.apply(tx, seq, height);
        } finally {
          this.storing = null;
        }
        this.seq = seq;
        return tx;
      }
      throw new Error('the sandbox ledger is busy: too many concurrent submissions');
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * /utils/txs/evaluate: runs the transaction's Plutus scripts over the outputs it spends and
   * references (this ledger's, including those accepted for the next block, and `additional`), with
   * no signature, fee or budget check; answers each redeemer's measured budget or the failures.
   */
  evaluateTx(bytes: Uint8Array, additional: ResolvedOutput[] = []): Evaluation {
    let fixed: CSL.FixedTransaction;
    try {
      fixed = CSL.FixedTransaction.from_bytes(bytes);
    } catch (err) {
      throw new LedgerRefusal(`The transaction could not be decoded: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
    }
    // Without redeemers no script runs and no input is looked up: the node answers an empty result,
    // which is what builders that evaluate every transaction (payments, native mints) expect.
    const reds = fixed.witness_set().redeemers();
    if (!reds || reds.len() === 0) return { ok: true, redeemers: [] };
    const body = fixed.body();
    const supplied = new Map(additional.map((u) => [key(u.input.transaction_id().to_hex(), u.input.index()), u]));
    const known = new Map<string, ResolvedOutput>();
    const missing: string[] = [];
    for (const list of [body.inputs(), body.reference_inputs()]) {
      for (const i of inputsOf(list)) {
        const k = key(i.txHash, i.outputIndex);
        // The ledger's own unspent output wins over a supplied one (builders send every input, often
        // without its reference script); a supplied output stands in for one the ledger does not have.
        const u = this.utxos.get(k);
        if (u && !u.spentBy) known.set(k, { input: CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.txHash), u.outputIndex), output: CSL.TransactionOutput.from_hex(u.output.cbor) });
        else if (supplied.has(k)) known.set(k, supplied.get(k)!);
        else missing.push(k);
      }
    }
    if (missing.length) {
      // The node cannot build the script context: every redeemer reports the first unknown input (the ledger's order).
      const reason = `Unknown transaction input (missing from UTxO set): ${missing.sort()[0]}`;
      const context = Array.from({ length: reds.len() }, (_, n) => {
        const r = reds.get(n);
        return { purpose: purposeOfTag(r.tag()), index: Number(r.index().to_str()), reason };
      });
      return { ok: false, failures: [], general: null, context };
    }
    return evaluate(bytes, [...known.values()], this.slots, this.protocol.costModels);
  }

  /** Unspent outputs at an address including those of transactions accepted for the next block. */
  pendingUtxosOf(address: string): LiveUtxo[] {
    return (this.utxosByAddress.get(address) ?? []).filter((u) => !u.spentBy);
  }
}

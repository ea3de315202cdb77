// Builds signed Conway governance transactions with cardano-serialization-lib from a development
// wallet's mnemonic: DRep certificates, vote delegations, votes and proposals.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { AddressUtxo } from '../../../../../server/sandbox/chain/index';

const harden = (n: number) => 0x8000_0000 + n;
const big = (n: bigint | number) => CSL.BigNum.from_str(String(n));

export interface GovKeys {
  payment: CSL.PrivateKey;
  stake: CSL.PrivateKey;
  /** The CIP-105 DRep key (role 3). */
  drep: CSL.PrivateKey;
}

export function govKeysOf(mnemonic: string): GovKeys {
  const root = CSL.Bip32PrivateKey.from_bip39_entropy(mnemonicToEntropy(mnemonic, wordlist), new Uint8Array());
  const account = root.derive(harden(1852)).derive(harden(1815)).derive(harden(0));
  return { payment: account.derive(0).derive(0).to_raw_key(), stake: account.derive(2).derive(0).to_raw_key(), drep: account.derive(3).derive(0).to_raw_key() };
}

export const credentialOf = (key: CSL.PrivateKey): CSL.Credential => CSL.Credential.from_keyhash(key.to_public().hash());
export const keyHashOf = (key: CSL.PrivateKey): string => key.to_public().hash().to_hex();
export const anchor = (url: string, hash = '00'.repeat(32)): CSL.Anchor => CSL.Anchor.new(CSL.URL.new(url), CSL.AnchorDataHash.from_hex(hash));

export const cert = {
  stakeRegistration: (stake: CSL.PrivateKey) => CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new(credentialOf(stake))),
  drepRegistration: (drep: CSL.PrivateKey, deposit: bigint, url?: string) =>
    CSL.Certificate.new_drep_registration(url ? CSL.DRepRegistration.new_with_anchor(credentialOf(drep), big(deposit), anchor(url)) : CSL.DRepRegistration.new(credentialOf(drep), big(deposit))),
  drepUpdate: (drep: CSL.PrivateKey, url: string) => CSL.Certificate.new_drep_update(CSL.DRepUpdate.new_with_anchor(credentialOf(drep), anchor(url))),
  drepRetirement: (drep: CSL.PrivateKey, refund: bigint) => CSL.Certificate.new_drep_deregistration(CSL.DRepDeregistration.new(credentialOf(drep), big(refund))),
  voteDelegation: (stake: CSL.PrivateKey, drep: CSL.DRep) => CSL.Certificate.new_vote_delegation(CSL.VoteDelegation.new(credentialOf(stake), drep)),
};

export function drepVote(votes: CSL.VotingProcedures, drep: CSL.PrivateKey, txHash: string, index: number, vote: CSL.VoteKind): CSL.VotingProcedures {
  votes.insert(CSL.Voter.new_drep_credential(credentialOf(drep)), CSL.GovernanceActionId.new(CSL.TransactionHash.from_hex(txHash), index), CSL.VotingProcedure.new(vote));
  return votes;
}

export function proposal(action: CSL.GovernanceAction, returnAddress: string, deposit: bigint, url = 'https://example.invalid/proposal.jsonld'): CSL.VotingProposal {
  return CSL.VotingProposal.new(action, anchor(url), CSL.RewardAddress.from_address(CSL.Address.from_bech32(returnAddress))!, big(deposit));
}

export interface GovTxOptions {
  inputs: AddressUtxo[];
  change: string;
  signers: CSL.PrivateKey[];
  certs?: CSL.Certificate[];
  votes?: CSL.VotingProcedures;
  proposals?: CSL.VotingProposal[];
  /** Deposits paid less refunds claimed, in lovelace. */
  deposit?: bigint;
  metadata?: { label: number; json: unknown };
}

/** A signed transaction spending `inputs` (lovelace only) into one change output, with the minimum fee. */
export function govTx(o: GovTxOptions): Uint8Array {
  const total = o.inputs.reduce((n, u) => n + BigInt(u.amount.find((a) => a.unit === 'lovelace')!.quantity), 0n);
  const build = (fee: bigint): Uint8Array => {
    const inputs = CSL.TransactionInputs.new();
    for (const u of o.inputs) inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.tx_hash), u.output_index));
    const outputs = CSL.TransactionOutputs.new();
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(o.change), CSL.Value.new(big(total - fee - (o.deposit ?? 0n)))));
    const body = CSL.TransactionBody.new_tx_body(inputs, outputs, big(fee));
    if (o.certs?.length) {
      const certs = CSL.Certificates.new();
      for (const c of o.certs) certs.add(c);
      body.set_certs(certs);
    }
    if (o.votes) body.set_voting_procedures(o.votes);
    if (o.proposals?.length) {
      const list = CSL.VotingProposals.new();
      for (const p of o.proposals) list.add(p);
      body.set_voting_proposals(list);
    }
    let aux: CSL.AuxiliaryData | undefined;
    if (o.metadata) {
      aux = CSL.AuxiliaryData.new();
      const md = CSL.GeneralTransactionMetadata.new();
      md.insert(big(o.metadata.label), CSL.encode_json_str_to_metadatum(JSON.stringify(o.metadata.json), CSL.MetadataJsonSchema.NoConversions));
      aux.set_metadata(md);
      body.set_auxiliary_data_hash(CSL.hash_auxiliary_data(aux));
    }
    const tx = aux
      ? CSL.FixedTransaction.new_with_auxiliary(body.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), aux.to_bytes(), true)
      : CSL.FixedTransaction.new(body.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
    for (const key of o.signers) tx.sign_and_add_vkey_signature(key);
    return tx.to_bytes();
  };
  let fee = 0n;
  for (let i = 0; i < 4; i++) {
    const needed = 44n * BigInt(build(fee).length) + 155_381n;
    if (needed <= fee) break;
    fee = needed;
  }
  return build(fee);
}

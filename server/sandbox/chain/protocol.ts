// Protocol parameters of the sandbox chain: Conway-era values as on preprod and mainnet today. The
// ledger (ledger.ts) checks submitted transactions against the same numbers it serves at
// /epochs/{n}/parameters, so a transaction builder that reads them builds what the ledger accepts.
import costModels from './cost-models.json';

/** A price as the ledger holds it: a fraction (price_mem 0.0577 is 577/10000). */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

export type PlutusLanguage = 'PlutusV1' | 'PlutusV2' | 'PlutusV3';
/** Each Plutus version's cost model in raw list form (cost_models_raw). */
export type CostModelsRaw = Readonly<Record<PlutusLanguage, readonly number[]>>;

export interface Protocol {
  minFeeA: number;
  minFeeB: number;
  maxTxSize: number;
  maxBlockSize: number;
  maxBlockHeaderSize: number;
  keyDeposit: bigint;
  poolDeposit: bigint;
  coinsPerUtxoByte: bigint;
  maxValSize: number;
  collateralPercent: number;
  maxCollateralInputs: number;
  minPoolCost: bigint;
  protocolMajor: number;
  protocolMinor: number;
  minFeeRefScriptCostPerByte: number;
  drepDeposit: bigint;
  govActionDeposit: bigint;
  /** Epochs a governance action stays open (gov_action_lifetime). */
  govActionLifetime: number;
  /** Epochs without activity after which a DRep is expired (drep_activity). */
  drepActivity: number;
  committeeMaxTermLength: number;
  /** Lovelace per unit of memory of the execution units (price_mem). */
  priceMem: Ratio;
  /** Lovelace per step of the execution units (price_step). */
  priceStep: Ratio;
  /** What the Plutus machine charges each operation: what it evaluates with and script_data_hash commits to. */
  costModels: CostModelsRaw;
}

/** The Plutus cost models in raw list form (PlutusV1 166, PlutusV2 175, PlutusV3 297 entries; the defaults Mesh SDK ships). */
export const COST_MODELS_RAW: CostModelsRaw = costModels;

export const PROTOCOL: Readonly<Protocol> = Object.freeze({
  minFeeA: 44,
  minFeeB: 155_381,
  maxTxSize: 16_384,
  maxBlockSize: 90_112,
  maxBlockHeaderSize: 1_100,
  keyDeposit: 2_000_000n,
  poolDeposit: 500_000_000n,
  coinsPerUtxoByte: 4_310n,
  maxValSize: 5_000,
  collateralPercent: 150,
  maxCollateralInputs: 3,
  minPoolCost: 170_000_000n,
  protocolMajor: 10,
  protocolMinor: 0,
  minFeeRefScriptCostPerByte: 15,
  drepDeposit: 500_000_000n,
  govActionDeposit: 100_000_000_000n,
  /** Epochs a governance action stays open (gov_action_lifetime). */
  govActionLifetime: 6,
  /** Epochs without activity after which a DRep is expired (drep_activity). */
  drepActivity: 20,
  committeeMaxTermLength: 146,
  priceMem: { numerator: 577n, denominator: 10_000n },
  priceStep: { numerator: 721n, denominator: 10_000_000n },
  costModels: COST_MODELS_RAW,
});

/** A decimal price (0.0577, or its text) as the fraction it spells; null when it is not a plain decimal. */
export function ratioOfDecimal(value: number | string): Ratio | null {
  let text = typeof value === 'number' ? String(value) : value.trim();
  if (/e/i.test(text)) text = Number(text).toFixed(20).replace(/0+$/, '');
  const m = /^(\d{1,15})(?:\.(\d{0,20}))?$/.exec(text);
  if (!m) return null;
  const fraction = m[2] ?? '';
  const denominator = 10n ** BigInt(fraction.length);
  let numerator = BigInt(m[1]! + fraction);
  let d = denominator;
  // In lowest terms, as the ledger keeps a rational.
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  const g = numerator === 0n ? d : gcd(numerator, d);
  numerator /= g;
  d /= g;
  return { numerator, denominator: d };
}

/** A fraction as Blockfrost prints a price: a JSON number. */
export const ratioNumber = (r: Ratio): number => Number(r.numerator) / Number(r.denominator);

/** The parameters a devnet's genesis may set, by their names in /epochs/{n}/parameters, and the field each sets. */
export const PROTOCOL_OVERRIDES = {
  min_fee_a: 'minFeeA',
  min_fee_b: 'minFeeB',
  max_tx_size: 'maxTxSize',
  max_block_size: 'maxBlockSize',
  key_deposit: 'keyDeposit',
  pool_deposit: 'poolDeposit',
  coins_per_utxo_size: 'coinsPerUtxoByte',
  max_val_size: 'maxValSize',
  collateral_percent: 'collateralPercent',
  max_collateral_inputs: 'maxCollateralInputs',
  min_pool_cost: 'minPoolCost',
  min_fee_ref_script_cost_per_byte: 'minFeeRefScriptCostPerByte',
  drep_deposit: 'drepDeposit',
  gov_action_deposit: 'govActionDeposit',
  gov_action_lifetime: 'govActionLifetime',
  drep_activity: 'drepActivity',
  committee_max_term_length: 'committeeMaxTermLength',
} as const satisfies Record<string, keyof Protocol>;

/** The whole-number parameters a genesis may set, the prices and the cost models (each language's list; those not given stay). */
export type ProtocolOverrides = Partial<Record<keyof typeof PROTOCOL_OVERRIDES, number | string>> & {
  price_mem?: number | string;
  price_step?: number | string;
  cost_models?: Partial<Record<PlutusLanguage, readonly number[]>>;
};

/** The chain's parameters with a devnet genesis' overrides (whole numbers; lovelace amounts as text or number; prices as decimals). */
export function protocolWith(overrides: ProtocolOverrides = {}): Protocol {
  const out: Protocol = { ...PROTOCOL };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (name === 'price_mem' || name === 'price_step') {
      const r = ratioOfDecimal(value as number | string);
      if (!r) throw new Error(`${name} must be a decimal number`);
      out[name === 'price_mem' ? 'priceMem' : 'priceStep'] = r;
      continue;
    }
    if (name === 'cost_models') {
      out.costModels = Object.freeze({ ...PROTOCOL.costModels, ...(value as ProtocolOverrides['cost_models']) }) as CostModelsRaw;
      continue;
    }
    const field = PROTOCOL_OVERRIDES[name as keyof typeof PROTOCOL_OVERRIDES];
    if (!field) throw new Error(`${name} is not a protocol parameter a devnet's genesis sets`);
    const text = String(value);
    if (!/^\d{1,19}$/.test(text)) throw new Error(`${name} must be a whole number`);
    (out as unknown as Record<string, number | bigint>)[field] = typeof PROTOCOL[field] === 'bigint' ? BigInt(text) : Number(text);
  }
  return Object.freeze(out);
}

export interface ProtocolParameters {
  [field: string]: unknown;
}

const named = (list: readonly number[]): Record<string, number> => Object.fromEntries(list.map((v, i) => [String(i), v]));

/** /epochs/{n}/parameters: the same parameters in every epoch, with the epoch's own nonce. */
export function protocolParameters(epoch: number, nonce: string, p: Readonly<Protocol> = PROTOCOL): ProtocolParameters {
  return {
    epoch,
    min_fee_a: p.minFeeA,
    min_fee_b: p.minFeeB,
    max_block_size: p.maxBlockSize,
    max_tx_size: p.maxTxSize,
    max_block_header_size: p.maxBlockHeaderSize,
    key_deposit: String(p.keyDeposit),
    pool_deposit: String(p.poolDeposit),
    e_max: 18,
    n_opt: 500,
    a0: 0.3,
    rho: 0.003,
    tau: 0.2,
    decentralisation_param: 0,
    extra_entropy: null,
    protocol_major_ver: p.protocolMajor,
    protocol_minor_ver: p.protocolMinor,
    min_utxo: String(p.coinsPerUtxoByte),
    min_pool_cost: String(p.minPoolCost),
    nonce,
    // Blockfrost's deprecated named form; the sandbox keys the values by their position in the list.
    cost_models: { PlutusV1: named(p.costModels.PlutusV1), PlutusV2: named(p.costModels.PlutusV2), PlutusV3: named(p.costModels.PlutusV3) },
    cost_models_raw: { PlutusV1: [...p.costModels.PlutusV1], PlutusV2: [...p.costModels.PlutusV2], PlutusV3: [...p.costModels.PlutusV3] },
    price_mem: ratioNumber(p.priceMem),
    price_step: ratioNumber(p.priceStep),
    max_tx_ex_mem: '14000000',
    max_tx_ex_steps: '10000000000',
    max_block_ex_mem: '62000000',
    max_block_ex_steps: '20000000000',
    max_val_size: String(p.maxValSize),
    collateral_percent: p.collateralPercent,
    max_collateral_inputs: p.maxCollateralInputs,
    coins_per_utxo_size: String(p.coinsPerUtxoByte),
    coins_per_utxo_word: String(p.coinsPerUtxoByte),
    pvt_motion_no_confidence: 0.51,
    pvt_committee_normal: 0.51,
    pvt_committee_no_confidence: 0.51,
    pvt_hard_fork_initiation: 0.51,
    dvt_motion_no_confidence: 0.67,
    dvt_committee_normal: 0.67,
    dvt_committee_no_confidence: 0.6,
    dvt_update_to_constitution: 0.75,
    dvt_hard_fork_initiation: 0.6,
    dvt_p_p_network_group: 0.67,
    dvt_p_p_economic_group: 0.67,
    dvt_p_p_technical_group: 0.67,
    dvt_p_p_gov_group: 0.75,
    dvt_treasury_withdrawal: 0.67,
    committee_min_size: '7',
    committee_max_term_length: String(p.committeeMaxTermLength),
    gov_action_lifetime: String(p.govActionLifetime),
    gov_action_deposit: String(p.govActionDeposit),
    drep_deposit: String(p.drepDeposit),
    drep_activity: String(p.drepActivity),
    pvtpp_security_group: 0.51,
    pvt_p_p_security_group: 0.51,
    min_fee_ref_script_cost_per_byte: p.minFeeRefScriptCostPerByte,
  };
}

// The websocket-link commands that read the chain or submit to it, answered in the shapes
// @trezor/blockchain-link's Blockfrost worker reads (its blockfrost types and transforms).
import type { CardanoNetwork } from '../../../shared/cardano/address';
import type { Block } from '../../../shared/chain';
import { accountAddresses, accountTxRefs, balances, parseDescriptor, stakeAddressOf, transactionsOf, type AccountAddress, type Descriptor } from './account';
import type { NetworkApi } from './network-api';
import { badParams } from './protocol';

export interface CommandContext {
  api: NetworkApi;
  network: CardanoNetwork;
  /** Cairn's version (GET_SERVER_INFO). */
  version: string;
}

const BLOCK_REF = /^(?:\d{1,12}|[0-9a-fA-F]{64})$/;
const TX_HASH = /^[0-9a-fA-F]{64}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
/** Twice the largest transaction the ledger takes (16 KB), as hex. */
const MAX_TX_HEX = 2 * 16_384 * 2;
const DETAILS = new Set(['basic', 'tokens', 'tokenBalances', 'txids', 'txs']);
const MAX_PAGE_SIZE = 100;

export async function getServerInfo(ctx: CommandContext) {
  const latest = await ctx.api.get<Block>('/blocks/latest');
  const testnet = ctx.network !== 'mainnet';
  return { name: 'Cardano', shortcut: testnet ? 'tada' : 'ada', testnet, version: ctx.version, decimals: 6, blockHeight: latest.height ?? 0, blockHash: latest.hash };
}

export async function getBlock(ctx: CommandContext, params: Record<string, unknown>) {
  const ref = params.hashOrNumber;
  const text = typeof ref === 'number' && Number.isSafeInteger(ref) && ref >= 0 ? String(ref) : typeof ref === 'string' ? ref : '';
  if (!BLOCK_REF.test(text)) throw badParams('Missing or malformed parameter hashOrNumber: a block height or a block hash.');
  return ctx.api.get<Block>(`/blocks/${text}`);
}

export async function getTransaction(ctx: CommandContext, params: Record<string, unknown>) {
  if (typeof params.txId !== 'string' || !TX_HASH.test(params.txId)) throw badParams('Missing or malformed parameter txId: a transaction hash (64 hex characters).');
  return ctx.api.get<unknown>(`/txs/${params.txId.toLowerCase()}`);
}

export async function estimateFee(ctx: CommandContext) {
  const p = await ctx.api.get<{ min_fee_a: number }>('/epochs/latest/parameters');
  return { lovelacePerByte: p.min_fee_a };
}

export async function pushTransaction(ctx: CommandContext, params: Record<string, unknown>) {
  const hex = params.txData;
  if (typeof hex !== 'string' || !HEX.test(hex) || hex.length > MAX_TX_HEX) throw badParams('Missing or malformed parameter txData: the signed transaction as hex.');
  return ctx.api.submit(Buffer.from(hex, 'hex'));
}

const lovelaceOf = (b: Map<string, bigint>): bigint => b.get('lovelace') ?? 0n;

function tokensOf(b: Map<string, bigint>) {
  return [...b.entries()].filter(([unit]) => unit !== 'lovelace').map(([unit, q]) => ({ unit, quantity: q.toString(), decimals: 0, ticker: null, name: null }));
}

function addressEntry(a: AccountAddress) {
  const b = balances([a]);
  const sum = (list: typeof a.received) => list.find((x) => x.unit === 'lovelace')?.quantity ?? '0';
  return { address: a.address, path: a.path, transfers: a.txCount, balance: lovelaceOf(b).toString(), sent: sum(a.sent), received: sum(a.received) };
}

interface StakeAccount {
  active: boolean;
  withdrawable_amount: string;
  pool_id: string | null;
  drep_id: string | null;
}

interface Drep {
  drep_id: string;
  hex: string;
  amount: string;
  active: boolean;
  active_epoch: number | null;
  has_script: boolean;
}

async function stakingOf(ctx: CommandContext, d: Descriptor) {
  let stakeAddress: string | null;
  if (d.kind === 'xpub') stakeAddress = stakeAddressOf(d.key, ctx.network);
  else stakeAddress = (await ctx.api.find<{ stake_address: string | null }>(`/addresses/${d.address}`))?.stake_address ?? null;
  const none = { address: stakeAddress ?? '', isActive: false, rewards: '0', poolId: null, drep: null };
  if (!stakeAddress) return none;
  const account = await ctx.api.find<StakeAccount>(`/accounts/${stakeAddress}`);
  if (!account) return none;
  const drep = account.drep_id ? await ctx.api.find<Drep>(`/governance/dreps/${account.drep_id}`) : null;
  return {
    address: stakeAddress,
    isActive: account.active,
    rewards: account.withdrawable_amount,
    poolId: account.pool_id,
    drep: drep ? { drep_id: drep.drep_id, hex: drep.hex, amount: drep.amount, active: drep.active, active_epoch: drep.active_epoch, has_script: drep.has_script } : null,
  };
}

function pageParams(params: Record<string, unknown>): { page: number; pageSize: number } {
  const page = params.page === undefined ? 1 : Number(params.page);
  const pageSize = params.pageSize === undefined ? 25 : Number(params.pageSize);
  if (!Number.isSafeInteger(page) || page < 1) throw badParams('Invalid page number - first page is 1.');
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw badParams(`Invalid pageSize: 1 to ${MAX_PAGE_SIZE}.`);
  return { page, pageSize };
}

export async function getAccountInfo(ctx: CommandContext, params: Record<string, unknown>) {
  const d = parseDescriptor(params.descriptor, ctx.network);
  const details = params.details === undefined ? 'basic' : params.details;
  if (typeof details !== 'string' || !DETAILS.has(details)) throw badParams(`Invalid details: one of ${[...DETAILS].join(', ')}.`);
  const { page, pageSize } = pageParams(params);
  const [addresses, staking] = await Promise.all([accountAddresses(ctx.api, d, ctx.network), stakingOf(ctx, d)]);
  const refs = await accountTxRefs(ctx.api, addresses);
  const b = balances(addresses);
  const lovelace = lovelaceOf(b);
  const info: Record<string, unknown> = {
    descriptor: d.descriptor,
    empty: refs.length === 0,
    balance: (lovelace + BigInt(staking.rewards)).toString(),
    availableBalance: lovelace.toString(),
    history: { total: refs.length, unconfirmed: 0 } as Record<string, unknown>,
    page: { index: page, size: pageSize, total: Math.ceil(refs.length / pageSize) },
    misc: { staking },
  };
  if (details !== 'basic') info.tokens = tokensOf(b);
  const onPage = refs.slice((page - 1) * pageSize, page * pageSize);
  const history = info.history as Record<string, unknown>;
  if (details === 'txids') history.txids = onPage.map((r) => r.txHash);
  if (details === 'txs') history.transactions = await transactionsOf(ctx.api, onPage);
  if (d.kind === 'xpub' && (details === 'tokenBalances' || details === 'txids' || details === 'txs')) {
    info.addresses = {
      change: addresses.filter((a) => a.role === 1).map(addressEntry),
      used: addresses.filter((a) => a.role === 0 && a.txCount > 0).map(addressEntry),
      unused: addresses.filter((a) => a.role === 0 && a.txCount === 0).map(addressEntry),
    };
  }
  return info;
}

export async function getAccountUtxo(ctx: CommandContext, params: Record<string, unknown>) {
  const d = parseDescriptor(params.descriptor, ctx.network);
  const addresses = (await accountAddresses(ctx.api, d, ctx.network)).filter((a) => a.txCount > 0);
  const lists = await Promise.all(addresses.map((a) => ctx.api.all<{ tx_hash: string; tx_index?: number; output_index: number; amount: Array<{ unit: string; quantity: string }>; block: string }>(`/addresses/${a.address}/utxos`)));
  const blocks = new Map<string, Promise<Block>>();
  const blockOf = (hash: string) => {
    let b = blocks.get(hash);
    if (!b) blocks.set(hash, (b = ctx.api.get<Block>(`/blocks/${hash}`)));
    return b;
  };
  const out = [];
  for (let i = 0; i < addresses.length; i++) {
    for (const u of lists[i]!) {
      out.push({ address: addresses[i]!.address, path: addresses[i]!.path, utxoData: { tx_hash: u.tx_hash, tx_index: u.tx_index ?? u.output_index, output_index: u.output_index, amount: u.amount, block: u.block }, blockInfo: await blockOf(u.block) });
    }
  }
  return out;
}

export async function getBalanceHistory(ctx: CommandContext, params: Record<string, unknown>) {
  const d = parseDescriptor(params.descriptor, ctx.network);
  const groupBy = params.groupBy === undefined ? 3600 : Number(params.groupBy);
  if (!Number.isSafeInteger(groupBy) || groupBy < 1) throw badParams('Invalid groupBy: a whole number of seconds.');
  const from = params.from === undefined ? undefined : Number(params.from);
  const to = params.to === undefined ? undefined : Number(params.to);
  if ((from !== undefined && !Number.isFinite(from)) || (to !== undefined && !Number.isFinite(to))) throw badParams('Invalid from or to: UNIX seconds.');
  const addresses = await accountAddresses(ctx.api, d, ctx.network);
  const mine = new Set(addresses.map((a) => a.address));
  const refs = (await accountTxRefs(ctx.api, addresses)).filter((r) => (from === undefined || r.blockTime >= from) && (to === undefined || r.blockTime <= to)).reverse();
  const txs = await transactionsOf(ctx.api, refs);
  const lovelace = (list: Array<{ address: string; amount: Array<{ unit: string; quantity: string }> }>) =>
    list.filter((x) => mine.has(x.address)).reduce((n, x) => n + BigInt(x.amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0'), 0n);
  const bins: Array<{ time: number; txs: number; txids: string[]; sent: bigint; received: bigint; sentToSelf: bigint }> = [];
  const first = txs[0]?.txData.block_time ?? 0;
  for (const t of txs) {
    const time = first + Math.floor((t.txData.block_time - first) / groupBy) * groupBy;
    let bin = bins.at(-1);
    if (!bin || bin.time !== time) bins.push((bin = { time, txs: 0, txids: [], sent: 0n, received: 0n, sentToSelf: 0n }));
    const { inputs, outputs } = t.txUtxos;
    const myInputs = inputs.filter((x) => mine.has(x.address) && !x.collateral);
    const myOutputs = outputs.filter((x) => mine.has(x.address));
    const sent = lovelace(myInputs);
    const received = lovelace(myOutputs);
    bin.txs++;
    bin.txids.push(t.txHash);
    if (myInputs.length > 0 && myInputs.length === inputs.filter((x) => !x.collateral).length && myOutputs.length === outputs.length) {
      bin.sent += sent;
      bin.received += received;
      bin.sentToSelf += sent - BigInt(t.txData.fees) - BigInt(t.txData.deposit);
    } else if (myInputs.length === 0) {
      bin.received += received;
    } else {
      bin.sent += sent;
      bin.received += received;
      bin.sentToSelf += received;
    }
  }
  return bins.map((b) => ({ time: b.time, txs: b.txs, txids: b.txids, sent: b.sent.toString(), received: b.received.toString(), sentToSelf: b.sentToSelf.toString() }));
}

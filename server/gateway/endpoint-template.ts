// Turns a request path into its endpoint template (/addresses/{address}, not the address), so
// metering keeps a bounded number of endpoints per project.

const PARAM_AFTER: Record<string, string> = {
  addresses: 'address',
  accounts: 'stake_address',
  assets: 'asset',
  blocks: 'hash_or_number',
  slot: 'slot_number',
  epoch: 'epoch_number',
  epochs: 'number',
  txs: 'hash',
  pools: 'pool_id',
  policy: 'policy_id',
  scripts: 'script_hash',
  datum: 'datum_hash',
  labels: 'label',
  gateway: 'IPFS_path',
  add: 'IPFS_path',
  remove: 'IPFS_path',
  list: 'IPFS_path',
  proposals: 'tx_hash',
  dreps: 'drep_id',
};

/** Words that appear literally in Blockfrost paths. Anything else in a path is an identifier. */
const LITERAL = new Set([
  '', 'health', 'clock', 'metrics', 'endpoints', 'accounts', 'rewards', 'history', 'delegations', 'registrations',
  'withdrawals', 'mirs', 'addresses', 'total', 'extended', 'utxos', 'transactions', 'txs', 'assets', 'policy',
  'blocks', 'latest', 'next', 'previous', 'slot', 'epoch', 'affected', 'epochs', 'stakes', 'parameters', 'ledger',
  'genesis', 'mempool', 'metadata', 'labels', 'cbor', 'json', 'network', 'eras', 'nutlink', 'tickers', 'pools',
  'retired', 'retiring', 'relays', 'updates', 'extended', 'scripts', 'redeemers', 'datum', 'stake', 'submit',
  'evaluate', 'utils', 'xpub', 'ipfs', 'add', 'gateway', 'pin', 'list', 'remove', 'governance', 'dreps', 'proposals',
  'votes', 'pool_metadata', 'parameters', 'updates', 'required_signers', 'treasury', 'stake_addresses',
]);

const MAX_SEGMENTS = 8;

const cache = new Map<string, string>();

/** Cached by path: clients call the same paths over and over. */
export function endpointTemplate(path: string): string {
  let t = cache.get(path);
  if (t === undefined) {
    if (cache.size >= 20_000) cache.clear();
    t = template(path);
    cache.set(path, t);
  }
  return t;
}

function template(path: string): string {
  const q = path.indexOf('?');
  const clean = q === -1 ? path : path.slice(0, q);
  const segments = clean.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length && out.length < MAX_SEGMENTS; i++) {
    const seg = segments[i]!;
    if (seg === '' && i === segments.length - 1) break;
    if (LITERAL.has(seg)) {
      out.push(seg);
      continue;
    }
    const prev = out[out.length - 1] ?? '';
    const name = PARAM_AFTER[prev.replace(/^\{|\}$/g, '')] ?? 'id';
    out.push(`{${name}}`);
  }
  return '/' + out.join('/');
}

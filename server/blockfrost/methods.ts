// The HTTP methods Blockfrost defines for each path of its API, read from its published OpenAPI
// document (@blockfrost/openapi): GET for most paths, POST for /tx/submit, /utils/txs/evaluate,
// /ipfs/add and the pin calls. The gateway forwards nothing else to a backend.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const OPERATIONS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Each path template of an OpenAPI document in YAML and the methods it defines, in upper case. A
 * scan of the `paths:` block (a template at two spaces, its operations at four) rather than a YAML
 * parse: the document is half a megabyte and a full parse takes seconds, at every gateway start;
 * tests/unit/server/blockfrost/methods.test.ts checks the scan against the parser.
 */
export function scanPathMethods(yaml: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const lines = yaml.split(/\r?\n/);
  let i = lines.indexOf('paths:');
  if (i === -1) throw new Error('the OpenAPI document has no paths');
  let current: Set<string> | undefined;
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\S/.test(line)) break; // the next top-level key
    const path = /^ {2}(['"]?)(\/[^'"]*)\1:\s*$/.exec(line);
    if (path) {
      current = new Set();
      out.set(path[2]!, current);
      continue;
    }
    const op = /^ {4}([a-z]+):/.exec(line);
    if (op && current && OPERATIONS.has(op[1]!)) current.add(op[1]!.toUpperCase());
  }
  if (out.size === 0) throw new Error('the OpenAPI document has no paths');
  return out;
}

/** A path's template as Blockfrost's document names it (/addresses/{address}/utxos) and the methods it defines. */
export interface PathRoute {
  template: string;
  methods: readonly string[];
}

interface Node {
  /** The template ending here. */
  route?: PathRoute;
  literal: Map<string, Node>;
  /** A `{parameter}` segment. */
  param?: Node;
  /** A last `{IPFS_path}` parameter: the rest of the path, slashes and all (an IPFS path, /ipfs/gateway/{cid}/dir/file). */
  rest?: PathRoute;
}

const node = (): Node => ({ literal: new Map() });

/** The node below `n` for one template segment: a literal word or a `{parameter}`. */
function step(n: Node, segment: string): Node {
  if (/^\{[^}]+\}$/.test(segment)) return (n.param ??= node());
  let next = n.literal.get(segment);
  if (!next) n.literal.set(segment, (next = node()));
  return next;
}

/** Which methods a request path (after /api/v0, without its query) may use. */
export interface MethodTable {
  /** The methods the path's template defines (HEAD wherever GET is), or undefined for a path Blockfrost does not define. */
  allowed(path: string): readonly string[] | undefined;
  /** The path's template and methods, or undefined for a path Blockfrost does not define. */
  match(path: string): PathRoute | undefined;
}

export function methodTable(templates: Map<string, Set<string>>): MethodTable {
  const root = node();
  for (const [template, set] of templates) {
    if (set.size === 0) continue;
    // HEAD is GET without the body (RFC 9110 9.3.2): `curl -I` and link checkers use it.
    const methods = Object.freeze([...set, ...(set.has('GET') && !set.has('HEAD') ? ['HEAD'] : [])]);
    const route: PathRoute = Object.freeze({ template, methods });
    if (template === '/') {
      root.route = route;
      continue;
    }
    const segments = template.split('/').slice(1);
    const last = segments.length - 1;
    let n = root;
    for (let s = 0; s < last; s++) n = step(n, segments[s]!);
    // A last {IPFS_path} takes the rest of the path (an IPFS path: /ipfs/gateway/{cid}/dir/file).
    if (segments[last] === '{IPFS_path}') n.rest = route;
    else step(n, segments[last]!).route = route;
  }

  const walk = (segments: string[], at: number, n: Node): PathRoute | undefined => {
    if (at === segments.length) return n.route;
    const seg = segments[at]!;
    const lit = n.literal.get(seg);
    const viaLiteral = lit && walk(segments, at + 1, lit);
    if (viaLiteral) return viaLiteral;
    // A parameter is never empty.
    const viaParam = seg !== '' && n.param ? walk(segments, at + 1, n.param) : undefined;
    if (viaParam) return viaParam;
    return seg !== '' && n.rest ? n.rest : undefined;
  };
  // A handful of map lookups: cheaper than a cache keyed by every address a client asks about.
  const match = (path: string) => walk(path === '/' ? [] : path.split('/').slice(1), 0, root);
  return { match, allowed: (path) => match(path)?.methods };
}

/**
 * The query parameters each path template's GET operation names (count, page, order, from, to…),
 * by the same kind of scan: a parameter is an item at eight spaces under the operation, its keys at
 * ten (or on the item's own line).
 */
export function scanQueryParameters(yaml: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const lines = yaml.split(/\r?\n/);
  let i = lines.indexOf('paths:');
  if (i === -1) throw new Error('the OpenAPI document has no paths');
  let path: string | undefined;
  let inGet = false;
  let item: { in?: string; name?: string } | undefined;
  const close = () => {
    if (item?.in === 'query' && item.name && path) {
      let names = out.get(path);
      if (!names) out.set(path, (names = new Set()));
      names.add(item.name);
    }
    item = undefined;
  };
  const key = (text: string) => {
    const kv = /^(in|name):\s*['"]?([^'"\s]+)['"]?\s*$/.exec(text);
    if (kv && item) item[kv[1] as 'in' | 'name'] = kv[2];
  };
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\S/.test(line)) break;
    const p = /^ {2}(['"]?)(\/[^'"]*)\1:\s*$/.exec(line);
    if (p) {
      close();
      path = p[2];
      inGet = false;
      continue;
    }
    const op = /^ {4}([a-z]+):/.exec(line);
    if (op) {
      close();
      inGet = op[1] === 'get';
      continue;
    }
    if (!inGet) continue;
    const start = /^ {8}- (.*)$/.exec(line);
    if (start) {
      close();
      item = {};
      key(start[1]!);
      continue;
    }
    const inner = /^ {10}(\S.*)$/.exec(line);
    if (inner) key(inner[1]!);
    else if (/^ {0,8}\S/.test(line)) close();
  }
  close();
  return out;
}

let text: string | undefined;
const documentText = (): string => (text ??= fs.readFileSync(require.resolve('@blockfrost/openapi/openapi.yaml'), 'utf8'));

let blockfrost: MethodTable | undefined;

/** The method table of Blockfrost's published OpenAPI document, read once per process. */
export function blockfrostMethods(): MethodTable {
  return (blockfrost ??= methodTable(scanPathMethods(documentText())));
}

let queries: Map<string, Set<string>> | undefined;

/** The query parameters of each GET template of Blockfrost's document, read once per process. */
export function blockfrostQueryParameters(): ReadonlyMap<string, ReadonlySet<string>> {
  return (queries ??= scanQueryParameters(documentText()));
}

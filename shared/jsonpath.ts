import { JSONPath } from 'jsonpath-plus';
/** A webhook condition's comparison (shared/webhooks.ts lists which each condition offers). */
export type Operator = '=' | '!=' | '<=' | '<' | '>=' | '>';

// JSONPath evaluation and comparison for webhook conditions, in one place for the server's matcher
// (shared/webhook-matcher.ts) and the webhook editor's preview in the browser, so the preview can
// never disagree with the matcher. Isomorphic: jsonpath-plus has a browser build that Vite picks.

// ---- comparisons ----

const INT = /^-?\d+$/;
const NUM = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * `actual op expected`: whole numbers compare as bigints, other numbers as numbers, anything else as
 * text for = and != only; objects, booleans and nulls compare by their JSON text, for = and != only.
 */
export function compare(actual: unknown, op: Operator, expected: string): boolean {
  const e = parsedExpected(expected);
  // Lovelace amounts arrive as bigints already: no round trip through text.
  if (typeof actual === 'bigint' && typeof e.int === 'bigint') return ordered(actual, op, e.int);
  const actualText = typeof actual === 'number' || typeof actual === 'bigint' ? String(actual) : typeof actual === 'string' ? actual : null;
  if (actualText === null) {
    if (op !== '=' && op !== '!=') return false;
    const same = JSON.stringify(actual) === expected;
    return op === '=' ? same : !same;
  }
  if (e.int !== null || e.num !== null) {
    const a = parsedActual(actualText);
    if (e.int !== null && a.int !== null) return ordered(a.int, op, e.int);
    if (e.num !== null && a.num !== null) return ordered(a.num, op, e.num);
  }
  if (op !== '=' && op !== '!=') return false;
  return ordered(actualText, op, expected);
}

function ordered<T extends bigint | number | string>(a: T, op: Operator, e: T): boolean {
  switch (op) {
    case '=':
      return a === e;
    case '!=':
      return a !== e;
    case '<':
      return a < e;
    case '<=':
      return a <= e;
    case '>':
      return a > e;
    case '>=':
      return a >= e;
  }
}

/** A condition's value as a whole number and as a number, parsed once: the same values are compared against every transaction. */
const expectedCache = new Map<string, { int: bigint | null; num: number | null }>();
function parsedExpected(expected: string): { int: bigint | null; num: number | null } {
  let parsed = expectedCache.get(expected);
  if (!parsed) {
    parsed = { int: INT.test(expected) ? BigInt(expected) : null, num: NUM.test(expected) ? Number(expected) : null };
    if (expectedCache.size >= 10_000) expectedCache.clear();
    expectedCache.set(expected, parsed);
  }
  return parsed;
}

/** A value read from a transaction as a number, parsed once: the same fees and amounts are compared by thousands of webhooks. */
const actualCache = new Map<string, { int: bigint | null; num: number | null }>();
function parsedActual(text: string): { int: bigint | null; num: number | null } {
  let parsed = actualCache.get(text);
  if (!parsed) {
    const int = INT.test(text) ? BigInt(text) : null;
    parsed = { int, num: NUM.test(text) ? Number(text) : null };
    if (actualCache.size >= 10_000) actualCache.clear();
    actualCache.set(text, parsed);
  }
  return parsed;
}

/** Whether the extracted values satisfy `op value`: an array result matches when any item matches; != needs every item to differ. */
export function resultMatches(results: unknown[], op: Operator, value: string): boolean {
  let seen = 0;
  for (const r of results) {
    for (const item of Array.isArray(r) ? (r as unknown[]) : [r]) {
      seen += 1;
      const ok = compare(item, op, value);
      if (op === '!=' ? !ok : ok) return op !== '!=';
    }
  }
  return op === '!=' && seen > 0;
}

/** A condition's value parsed once, for comparing with many actual values (the matcher compiles its conditions into these). */
export interface Expected {
  text: string;
  int: bigint | null;
  num: number | null;
}

export function expectedOf(text: string): Expected {
  return { text, int: INT.test(text) ? BigInt(text) : null, num: NUM.test(text) ? Number(text) : null };
}

/** An actual value parsed once, for comparing with many conditions: `text` is null for objects, booleans and nulls (then `json` is their JSON text). */
export interface Actual {
  text: string | null;
  json: string | undefined;
  int: bigint | null;
  num: number | null;
}

function actualOf(actual: unknown): Actual {
  const text = typeof actual === 'number' || typeof actual === 'bigint' ? String(actual) : typeof actual === 'string' ? actual : null;
  if (text === null) return { text, json: JSON.stringify(actual), int: null, num: null };
  const p = parsedActual(text);
  return { text, json: undefined, int: p.int, num: p.num };
}

/** compare(actual, op, expected) on values parsed beforehand: the same answer, without parsing or cache lookups. */
function comparePrepared(a: Actual, op: Operator, e: Expected): boolean {
  if (a.text === null) {
    if (op !== '=' && op !== '!=') return false;
    const same = a.json === e.text;
    return op === '=' ? same : !same;
  }
  if (e.int !== null && a.int !== null) return ordered(a.int, op, e.int);
  if (e.num !== null && a.num !== null) return ordered(a.num, op, e.num);
  if (op !== '=' && op !== '!=') return false;
  return ordered(a.text, op, e.text);
}

/** resultMatches on results flattened one level and parsed (actualOf) beforehand. */
export function preparedResultMatches(items: Actual[], op: Operator, e: Expected): boolean {
  if (op === '!=') {
    if (items.length === 0) return false;
    for (const it of items) if (!comparePrepared(it, op, e)) return false;
    return true;
  }
  for (const it of items) if (comparePrepared(it, op, e)) return true;
  return false;
}

/** Extracted results as preparedResultMatches takes them: arrays flattened one level, each item parsed. */
export function prepareResults(results: unknown[]): Actual[] {
  const out: Actual[] = [];
  for (const r of results) {
    if (Array.isArray(r)) for (const item of r as unknown[]) out.push(actualOf(item));
    else out.push(actualOf(r));
  }
  return out;
}

// ---- evaluation ----

type Step = { key: string } | { index: number } | { all: true };
/** A compiled plain path; it answers null for a value it does not model, which jsonpath-plus then evaluates. */
type Compiled = ((json: unknown) => unknown[] | null) | null;
const SIMPLE = /^\$((?:\.[A-Za-z_][\w]*|\.\*|\[\d+\]|\[\*\]|\['[^'\\]*'\])*)$/;
const compiled = new Map<string, Compiled>();

/**
 * Plain paths ($.a.b, $.a[0], $.a[*].b, $.a.*, $['a']) are compiled into direct lookups that give the
 * same results as jsonpath-plus, which matching thousands of webhooks per block needs; every other
 * query (filters, recursive descent, slices) goes to jsonpath-plus (extractJsonPath).
 */
function compile(selector: string): Compiled {
  const m = SIMPLE.exec(selector);
  if (!m) return null;
  const steps: Step[] = [];
  for (const part of m[1]!.match(/\.[A-Za-z_][\w]*|\.\*|\[\d+\]|\[\*\]|\['[^'\\]*'\]/g) ?? []) {
    if (part === '.*' || part === '[*]') steps.push({ all: true });
    else if (part.startsWith('[\'')) steps.push({ key: part.slice(2, -2) });
    else if (part.startsWith('[')) steps.push({ index: Number(part.slice(1, -1)) });
    else steps.push({ key: part.slice(1) });
  }
  return (json) => {
    let current: unknown[] = [json];
    for (const step of steps) {
      const next: unknown[] = [];
      for (const v of current) {
        if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') continue;
        // Strings, a name on an array (length) and an index on an object: jsonpath-plus's own rules.
        if (typeof v !== 'object') return null;
        if ('all' in step) next.push(...(Array.isArray(v) ? v : Object.values(v)));
        else if ('index' in step) {
          if (!Array.isArray(v)) return null;
          if (step.index < v.length) next.push(v[step.index]);
        } else {
          if (Array.isArray(v)) return null;
          if (Object.prototype.hasOwnProperty.call(v, step.key)) next.push((v as Record<string, unknown>)[step.key]);
        }
      }
      current = next;
    }
    return current.filter((v) => v !== undefined);
  };
}

/** Steps (property reads and key listings) one evaluation by jsonpath-plus may take. */
export const JSONPATH_BUDGET = 10_000;

/** A query refused before or while it runs: the message says why, for the editor and the API. */
export class JsonPathRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathRefused';
  }
}

export const jsonPathMessages = {
  script: 'Script expressions such as [(@.length-1)] are not allowed. Filter expressions such as [?(@.quantity > 10)] are.',
  budget: `This query does too much work: it took more than ${JSONPATH_BUDGET.toLocaleString('en')} steps on one item. Avoid chaining recursive descents such as $..*..*; name the fields on the way instead.`,
  bigBudget: `This query would do too much work on large transactions (more than ${JSONPATH_BUDGET.toLocaleString('en')} steps on one item). Avoid chaining recursive descents such as $..*..*; name the fields on the way instead.`,
} as const;

/** A script expression: '[(' not opening a filter '[?('. */
const SCRIPT = /\[\s*\(/;

let steps = 0;
const step = () => {
  if (++steps > JSONPATH_BUDGET) throw new JsonPathRefused(jsonPathMessages.budget);
};
const proxies = new WeakMap<object, object>();
const targets = new WeakMap<object, object>();
/** The document seen through a proxy that counts every step jsonpath-plus takes on it. */
function counted(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  let p = proxies.get(v);
  if (!p) {
    p = new Proxy(v, {
      get: (t, k, r) => {
        step();
        return counted(Reflect.get(t, k, r));
      },
      ownKeys: (t) => {
        step();
        return Reflect.ownKeys(t);
      },
      getOwnPropertyDescriptor: (t, k) => {
        step();
        return Reflect.getOwnPropertyDescriptor(t, k);
      },
      has: (t, k) => {
        step();
        return Reflect.has(t, k);
      },
    });
    proxies.set(v, p);
    targets.set(p, v);
  }
  return p;
}
const uncounted = (v: unknown): unknown => (v !== null && typeof v === 'object' ? (targets.get(v) ?? v) : v);

/**
 * Every value the query selects, as the matcher sees it. Plain paths are direct lookups; any other
 * query runs in jsonpath-plus with its safe evaluator (filter expressions, no JavaScript) under a
 * budget of JSONPATH_BUDGET steps. Throws on a malformed query, and JsonPathRefused on a script
 * expression or a query that runs out of budget.
 */
export function extractJsonPath(json: unknown, selector: string): unknown[] {
  let fast = compiled.get(selector);
  if (fast === undefined) {
    fast = compile(selector);
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(selector, fast);
  }
  const quick = fast ? fast(json) : null;
  if (quick) return quick;
  if (SCRIPT.test(selector.replace(/\[\s*\?/g, '[?'))) throw new JsonPathRefused(jsonPathMessages.script);
  steps = 0;
  const result: unknown = JSONPath({ path: selector, json: counted(json) as object, eval: 'safe', wrap: true });
  return Array.isArray(result) ? result.map(uncounted) : [];
}

/** A large transaction event item (20 inputs, 40 outputs of 3 assets each): what a query must stay within budget on. */
function largeItem(): unknown {
  const amount = (i: number) => [
    { unit: 'lovelace', quantity: String(1_000_000 + i) },
    { unit: `${'ab'.repeat(28)}${(i % 256).toString(16).padStart(2, '0')}`, quantity: String(i) },
    { unit: `${'cd'.repeat(28)}01`, quantity: '1' },
  ];
  return {
    tx: { hash: 'ef'.repeat(32), block: '01'.repeat(32), block_height: 1, slot: 1, index: 0, output_amount: amount(0), fees: '180000', size: 900, valid_contract: true },
    inputs: Array.from({ length: 20 }, (_, i) => ({ address: `addr1q${i}`, amount: amount(i), tx_hash: '12'.repeat(32), output_index: i })),
    outputs: Array.from({ length: 40 }, (_, i) => ({ address: `addr1v${i}`, amount: amount(i), output_index: i })),
  };
}

/**
 * Why a webhook's JSONPath query is refused, or null: malformed, a script expression, or more work
 * than the budget on a large transaction. The API refuses such a webhook with this text and the
 * editor shows it.
 */
export function jsonPathProblem(selector: string): string | null {
  try {
    extractJsonPath(largeItem(), selector);
    return null;
  } catch (err) {
    if (err instanceof JsonPathRefused) return err.message === jsonPathMessages.budget ? jsonPathMessages.bigBudget : err.message;
    return `The JSONPath query cannot be evaluated: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * What the editor's preview shows for one subject: what the matcher extracts from it (the matcher
 * only ever queries objects and arrays; any other subject selects nothing). Throws like
 * extractJsonPath.
 */
export function extract(json: unknown, selector: string): unknown[] {
  if (json === null || typeof json !== 'object') return [];
  return extractJsonPath(json, selector);
}

/**
 * A webhook's jsonPath condition: the query (safe evaluator, no scripts, within budget) compared with
 * resultMatches. A query that cannot be evaluated, or runs out of budget, never matches.
 */
export function jsonPathMatches(json: unknown, selector: string, op: Operator, value: string): boolean {
  let results: unknown[];
  try {
    results = extractJsonPath(json, selector);
  } catch {
    return false;
  }
  return resultMatches(results, op, value);
}

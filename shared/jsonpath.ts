import { JSONPath } from 'jsonpath-plus';
import type { Operator } from './webhooks';

// JSONPath evaluation and comparison for webhook conditions, in one place for the server's matcher
// (server/webhooks/matcher.ts) and the webhook editor's preview in the browser, so the preview can
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

// ---- evaluation ----

type Step = { key: string } | { index: number } | { all: true };
/** A compiled plain path; it answers null for a value it does not model, which jsonpath-plus then evaluates. */
type Compiled = ((json: unknown) => unknown[] | null) | null;
const SIMPLE = /^\$((?:\.[A-Za-z_][\w]*|\.\*|\[\d+\]|\[\*\]|\['[^'\\]*'\])*)$/;
const compiled = new Map<string, Compiled>();

/**
 * Plain paths ($.a.b, $.a[0], $.a[*].b, $.a.*, $['a']) are compiled into direct lookups that give the
 * same results as jsonpath-plus, which matching thousands of webhooks per block needs; every other
 * query (filters, recursive descent, slices) goes to jsonpath-plus with script evaluation disabled.
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

/**
 * Every value the query selects, as the matcher sees it. Throws on a malformed query or a script
 * expression (jsonpath-plus `eval: false` throws on those instead of running them).
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
  const result: unknown = JSONPath({ path: selector, json: json as object, eval: false, wrap: true });
  return Array.isArray(result) ? result : [];
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
 * A webhook's jsonPath condition: the query, with script evaluation disabled, compared with
 * resultMatches. A query that cannot be evaluated never matches.
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

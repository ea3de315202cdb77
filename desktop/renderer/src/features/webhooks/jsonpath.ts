// The JSONPath editor's preview: the same evaluation the server's matcher does (jsonpath-plus with
// script expressions disabled, an array result matching when any item matches), in the browser.
import { JSONPath } from 'jsonpath-plus';
import type { Operator, Trigger } from '../../../../../shared/webhooks';

export type ParsedSample = { ok: true; json: unknown } | { ok: false; message: string };

export function parseSample(text: string): ParsedSample {
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What a condition's query runs against: transaction and delegation events carry a list of items and
 * the query is asked of each item; block and epoch events are one object.
 */
export function subjectsOf(trigger: Trigger, sample: unknown): unknown[] {
  if ((trigger === 'transaction' || trigger === 'delegation') && Array.isArray(sample)) return sample;
  return [sample];
}

/** Every value the query selects; throws on a malformed query or a script expression. */
export function extract(json: unknown, selector: string): unknown[] {
  if (json === null || typeof json !== 'object') return [];
  const result: unknown = JSONPath({ path: selector, json: json as object, eval: false, wrap: true });
  return Array.isArray(result) ? result : [];
}

const INT = /^-?\d+$/;
const NUM = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

function compare(actual: unknown, op: Operator, expected: string): boolean {
  const actualText = typeof actual === 'number' || typeof actual === 'bigint' ? String(actual) : typeof actual === 'string' ? actual : null;
  if (actualText === null) {
    if (op !== '=' && op !== '!=') return false;
    const same = JSON.stringify(actual) === expected;
    return op === '=' ? same : !same;
  }
  let a: bigint | number | string;
  let e: bigint | number | string;
  if (INT.test(actualText) && INT.test(expected)) {
    a = BigInt(actualText);
    e = BigInt(expected);
  } else if (NUM.test(actualText) && NUM.test(expected)) {
    a = Number(actualText);
    e = Number(expected);
  } else {
    if (op !== '=' && op !== '!=') return false;
    a = actualText;
    e = expected;
  }
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

/** Whether the extracted values satisfy `operator value`, as the server decides it. */
export function resultMatches(results: unknown[], op: Operator, value: string): boolean {
  const flat = results.flatMap((r) => (Array.isArray(r) ? (r as unknown[]) : [r]));
  if (op === '!=') return flat.length > 0 && flat.every((r) => compare(r, '!=', value));
  return flat.some((r) => compare(r, op, value));
}

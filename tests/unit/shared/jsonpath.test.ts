import { describe, expect, it } from 'vitest';
import { JSONPath } from 'jsonpath-plus';
import * as shared from '../../../shared/jsonpath';
import * as matcher from '../../../shared/webhook-matcher';
import * as preview from '../../../desktop/renderer/src/features/webhooks/jsonpath';
import { createSandboxChain } from '../../../server/sandbox/chain/index';
import type { Condition, Operator, Trigger } from '../../../shared/webhooks';

const { compare, extract, extractJsonPath, jsonPathMatches, jsonPathMessages, jsonPathProblem, JsonPathRefused, resultMatches } = shared;

describe('compare', () => {
  it.each([
    [5, '=', '5', true],
    ['5', '=', '5.0', true],
    ['170000', '>', '99999', true],
    [10n, '<=', '9', false],
    ['12345678901234567890123', '>', '12345678901234567890122', true],
    ['1.5', '<', '2', true],
    ['1e3', '=', '1000', true],
    ['abc', '=', 'abc', true],
    ['abc', '!=', 'abd', true],
    ['a', '<', 'b', false],
    [null, '=', 'null', true],
    [true, '!=', 'false', true],
    [{ a: 1 }, '=', '{"a":1}', true],
    [{ a: 1 }, '>', '0', false],
  ] as Array<[unknown, Operator, string, boolean]>)('%s %s %s → %s', (actual, op, expected, result) => {
    expect(compare(actual, op, expected)).toBe(result);
  });
});

describe('resultMatches', () => {
  it('matches when any item of an array result matches; != needs all to differ and something selected', () => {
    expect(resultMatches([[1, 2, 3]], '=', '2')).toBe(true);
    expect(resultMatches([1, 2, 3], '>', '3')).toBe(false);
    expect(resultMatches([1, 2, 3], '!=', '9')).toBe(true);
    expect(resultMatches([1, 2, 3], '!=', '2')).toBe(false);
    expect(resultMatches([], '!=', '2')).toBe(false);
    expect(resultMatches([], '=', '2')).toBe(false);
  });
});

describe('JSONPath safety', () => {
  it('does not execute script expressions', () => {
    const g = globalThis as { __cairnScriptRan?: boolean };
    delete g.__cairnScriptRan;
    const json = { items: [{ v: 1 }, { v: 2 }] };
    expect(jsonPathMatches(json, '$.items[?(@.v > 0 && (globalThis.__cairnScriptRan = true))].v', '=', '1')).toBe(false);
    expect(jsonPathMatches(json, '$..[(globalThis.__cairnScriptRan = true)]', '=', '1')).toBe(false);
    expect(() => extract(json, '$.items[?(@.v > 0 && (globalThis.__cairnScriptRan = true))].v')).toThrow();
    expect(g.__cairnScriptRan).toBeUndefined();
  });

  it('matches when any item of an array result matches; != needs all to differ', () => {
    const json = { a: [1, 2, 3], s: 'x' };
    expect(jsonPathMatches(json, '$.a', '=', '2')).toBe(true);
    expect(jsonPathMatches(json, '$.a[*]', '>', '2')).toBe(true);
    expect(jsonPathMatches(json, '$.a[*]', '>', '3')).toBe(false);
    expect(jsonPathMatches(json, '$.a[*]', '!=', '9')).toBe(true);
    expect(jsonPathMatches(json, '$.a[*]', '!=', '2')).toBe(false);
    expect(jsonPathMatches(json, '$.s', '=', 'x')).toBe(true);
    expect(jsonPathMatches(json, '$.s', '<', 'y')).toBe(false);
    expect(jsonPathMatches(json, '$.missing', '=', 'x')).toBe(false);
  });

  it('a query that cannot be evaluated never matches, and extract throws on it', () => {
    expect(jsonPathMatches({ a: 1 }, '$[?(@.a', '=', '1')).toBe(false);
    expect(() => extract({ a: 1 }, '$[?(@.a')).toThrow();
  });
});

describe('plain JSONPath queries give what jsonpath-plus gives', () => {
  const json = { tx: { hash: 'h', fees: '170000', n: 0, 'odd key': 1, '0': 'zero' }, outputs: [{ address: 'a', amount: [{ unit: 'lovelace', quantity: '5' }] }, { address: 'b', amount: [] }], e: null };
  // The last ones are where a plain path meets something other than the object or array it expects.
  it.each(['$.tx.hash', '$.outputs.length', '$.tx[0]', "$.outputs['0'].address", '$.tx.hash[0]', '$.tx.hash.length', '$.tx.n.x', '$.e.x', '$.tx.fees', '$.tx.n', "$['tx']['odd key']", '$.outputs[0].address', '$.outputs[*].address', '$.outputs[*].amount[*].quantity', '$.outputs.*.address', '$.tx.*', '$.missing', '$.outputs[5]', '$.e', '$.outputs', '$'])('%s', (selector) => {
    const expected = JSONPath({ path: selector, json, eval: false, wrap: true });
    expect(extractJsonPath(json, selector)).toEqual(expected);
    expect(extract(json, selector)).toEqual(expected);
  });

  it('other queries go to jsonpath-plus, filter expressions through its safe evaluator', () => {
    expect(extract(json, '$..address')).toEqual(['a', 'b']);
    expect(extract(json, '$.outputs[-1:].address')).toEqual(['b']);
    expect(extract(json, '$.outputs[?(@.address == "b")].address')).toEqual(['b']);
    expect(extract(json, "$.outputs[?(@.address != 'b')].address")).toEqual(['a']);
  });

  it('refuses script expressions, and filters cannot run JavaScript', () => {
    expect(() => extract(json, '$.outputs[(@.length-1)]')).toThrow(jsonPathMessages.script);
    expect(() => extract(json, '$.outputs[ ( @.length-1)]')).toThrow(JsonPathRefused);
    (globalThis as Record<string, unknown>).__pwned = false;
    try {
      extract(json, "$.outputs[?(@.constructor.constructor('globalThis.__pwned = true')())]");
    } catch {
      // refused by the safe evaluator: fine
    }
    expect((globalThis as Record<string, unknown>).__pwned).toBe(false);
  });

  it('stops a query that runs out of its budget, and the matcher treats it as no match', () => {
    const big = { items: Array.from({ length: 60 }, (_, i) => ({ a: { b: [i, i + 1, { c: i }] }, d: [{ e: i }, { f: [i] }] })) };
    const started = performance.now();
    expect(() => extract(big, '$..*..*..*')).toThrow(jsonPathMessages.budget);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(jsonPathMatches(big, '$..*..*..*', '=', '1')).toBe(false);
    // A descent that stays within budget still works.
    expect(extract(big, '$..e')).toHaveLength(60);
  });

  it('explains a refused query for the editor and the API', () => {
    expect(jsonPathProblem('$.tx.fees')).toBeNull();
    expect(jsonPathProblem('$..unit')).toBeNull();
    expect(jsonPathProblem('$.outputs[?(@.amount[0].quantity > 1000000)].address')).toBeNull();
    expect(jsonPathProblem('$..*..*..*')).toBe(jsonPathMessages.bigBudget);
    expect(jsonPathProblem('$.outputs[(@.length-1)]')).toBe(jsonPathMessages.script);
    expect(jsonPathProblem('$.outputs[?(@.a')).toMatch(/^The JSONPath query cannot be evaluated: /);
  });

  it('the preview selects nothing from a subject that is not an object or array', () => {
    expect(extract(5, '$')).toEqual([]);
    expect(extract(null, '$.a')).toEqual([]);
    expect(extract('text', '$[?(@.a')).toEqual([]);
  });
});

describe('one implementation for the matcher and the editor preview', () => {
  it('the server matcher and the renderer preview export the very same shared functions', () => {
    expect(matcher.jsonPathMatches).toBe(shared.jsonPathMatches);
    expect(matcher.extractJsonPath).toBe(shared.extractJsonPath);
    expect(preview.extract).toBe(shared.extract);
    expect(preview.resultMatches).toBe(shared.resultMatches);
  });

  // Each event's payload, run through the editor's preview (subjectsOf → extract → resultMatches),
  // matches exactly when the matcher fires with the same jsonPath condition, on the same items.
  const chain = createSandboxChain({ network: 'mainnet', now: () => Date.UTC(2026, 10, 1) });
  let input: matcher.BlockInput | undefined;
  for (let h = chain.tipHeight(); !input; h--) {
    const block = chain.blockAt(h)!;
    const txs = chain.blockTxDetails(block.hash) ?? [];
    if (txs.length > 3 && txs.some((t) => t.delegations.length > 0)) {
      input = { block, txs, epochSwitch: { previous_epoch: chain.epoch(block.epoch! - 1)!, current_epoch: chain.epochBounds(block.epoch!) } };
    }
  }
  const cases: Array<[Trigger, string, Operator, string]> = [
    ['transaction', '$.tx.fees', '>', '180000'],
    ['transaction', '$.outputs[*].amount[*].unit', '!=', 'lovelace'],
    ['transaction', '$..quantity', '>=', '5000000'],
    ['transaction', '$.tx.hash', '=', input!.txs[1]!.tx.hash],
    ['block', '$.height', '=', String(input!.block.height)],
    ['block', '$.tx_count', '<', '2'],
    ['delegation', '$.delegations[*].pool_id', '=', input!.txs.find((t) => t.delegations.length > 0)!.delegations[0]!.pool_id],
    ['epoch', '$.previous_epoch.epoch', '=', String(input!.block.epoch! - 1)],
    ['epoch', '$.current_epoch', '!=', '{}'],
  ];
  it.each(cases)('%s %s %s %s', (type, selector, operator, value) => {
    const [all] = matcher.matchBlock([{ id: 'w', type, conditions: [] }], input!);
    const condition: Condition = { type: 'jsonPath', selector, operator, value };
    const [fired] = matcher.matchBlock([{ id: 'w', type, conditions: [condition] }], input!);
    const subjects = preview.subjectsOf(type, all!.payload);
    const matching = subjects.filter((s) => preview.resultMatches(preview.extract(s, selector), operator, value));
    if (type === 'transaction' || type === 'delegation') expect(fired?.payload ?? []).toEqual(matching);
    else expect(fired !== undefined).toBe(matching.length > 0);
  });
});

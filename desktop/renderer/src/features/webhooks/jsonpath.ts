// The JSONPath editor's preview. Evaluation and comparison are the server matcher's own, from
// shared/jsonpath.ts (jsonpath-plus's safe evaluator: filters yes, scripts no, within a budget; an array result matching when
// any item matches), so the preview cannot disagree with the matcher.
import { yieldsList, type Trigger } from '../../../../../shared/webhooks';

export { extract, jsonPathProblem, JsonPathRefused, resultMatches } from '../../../../../shared/jsonpath';
import { JSONPATH_BUDGET } from '../../../../../shared/jsonpath';

/** What the editor says about the queries it takes, as the matcher runs them. */
export const jsonPathHelp = `Filter expressions such as $.outputs[?(@.address == 'addr1…')] work, evaluated safely; script expressions such as [(@.length-1)] are not allowed, and a query may take at most ${JSONPATH_BUDGET.toLocaleString('en')} steps per item.`;

type ParsedSample = { ok: true; json: unknown } | { ok: false; message: string };

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
  if (yieldsList(trigger) && Array.isArray(sample)) return sample;
  return [sample];
}

// The JSONPath editor's preview. Evaluation and comparison are the server matcher's own, from
// shared/jsonpath.ts (jsonpath-plus with script expressions disabled, an array result matching when
// any item matches), so the preview cannot disagree with the matcher.
import type { Trigger } from '../../../../../shared/webhooks';

export { extract, resultMatches } from '../../../../../shared/jsonpath';

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

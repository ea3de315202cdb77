import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Rules the server, the screens and the tests share are spelled in one module each; a second copy
// drifts from the first. Each rule below names its one home and what a copy elsewhere looks like.
const root = path.resolve(import.meta.dirname, '../../..');

const files = (dir: string): string[] =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === 'node_modules' || e.name === 'dist' ? [] : files(`${dir}/${e.name}`)) : /\.tsx?$/.test(e.name) ? [`${dir}/${e.name}`] : []));

const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');

/** Lines of `dirs` matching `pattern`, as `file:line: text`, but for the files `allowed` accepts. */
function copies(dirs: string[], pattern: RegExp, allowed: (file: string) => boolean): string[] {
  return dirs
    .flatMap(files)
    .filter((f) => !allowed(f) && path.join(root, f) !== import.meta.filename)
    .flatMap((f) => read(f).split('\n').flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])));
}

// A migration is never edited once it has landed, so it keeps the literals it was written with.
const isMigration = (f: string) => f.startsWith('server/db/migrations/');

describe('spelled once', () => {
  it('the length of a day: DAY_MS in shared/time.ts', () => {
    expect(copies(['server', 'shared', 'desktop', 'tests'], /\bconst (DAY_MS|DAY|HOUR_MS)\s*=\s*[\d(]/, (f) => f === 'shared/time.ts' || isMigration(f))).toEqual([]);
    expect(copies(['server', 'shared', 'desktop'], /\b86_?400_?000\b|\b24 \* (3600|60 \* 60) \* 1000\b/, isMigration)).toEqual([]);
  });

  it('the daily request limit, plan plus running boosts: dailyRequestLimit in shared/plans.ts', () => {
    expect(copies(['server', 'shared', 'desktop/renderer/src'], /requestLimit\s*\+|\bboostRequests\(/, (f) => f === 'shared/plans.ts')).toEqual([]);
  });

  it('which webhook triggers yield a list: yieldsList in shared/webhooks.ts', () => {
    const pair = /(['"])(transaction|delegation)\1\s*(\|\||&&)[^;]*\1(transaction|delegation)\1/;
    expect(copies(['server', 'shared', 'desktop/renderer/src'], pair, (f) => f === 'shared/webhooks.ts')).toEqual([]);
  });

  it("the CSRF check: assertCsrfToken in server/http/csrf.ts, run by route() as the route's csrf option says", () => {
    expect(copies(['server'], /x-csrf-token['"]\)|AppError\(403, 'csrf'/i, (f) => f === 'server/http/csrf.ts')).toEqual([]);
  });

  it('what a plan allows, in the tests: read from shared/plans.ts (plans, boosts, planLimitMessage)', () => {
    const planNumber = /plan allows \d|quota: \{ projectCount: \d|\b(requestLimit|storageLimit): \d|requests: 50_000\b|\b50_000 - \d|toBe\(50_000\)/;
    expect(copies(['tests/integration', 'tests/e2e'], planNumber, () => false)).toEqual([]);
  });
});

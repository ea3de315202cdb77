import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Lists on the dashboard are one component (components/data-list.tsx): the same search box, paging,
// loading and empty state everywhere. A page that draws its own table drifts from it.
const root = join(import.meta.dirname, '../../..');
const features = join(root, 'desktop/renderer/src/features');

/** Tables that are not lists, each with why. */
const allowed: Record<string, string> = {
  'project-stats/stats-cards.tsx': 'TOP 10 share bars: a fixed summary of ten rows with a chart in each, never paged or searched',
  'site/cookie-policy-page.tsx': 'a public page of fixed text (the cookies the site sets); it must stay out of the dashboard chunk',
  'subscription/fixed-plans-page.tsx': 'key/value facts of a plan change (charged now, then), not a list of records',
};

/** Lists still drawn by hand, to be moved onto DataList; none may be added. */
const notYetOnDataList = new Set(['api-console/api-console-page.tsx', 'project-stats/request-insight.tsx']);

/** What draws a table by hand: Mantine's Table in JSX or an import of mantine-datatable. */
export function handDrawnTables(source: string): string[] {
  const found: string[] = [];
  if (/<Table[\s.>]/.test(source)) found.push('<Table');
  if (/from\s+['"]mantine-datatable/.test(source)) found.push('mantine-datatable');
  return found;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('one list component', () => {
  it('finds a hand-drawn table however it is written', () => {
    expect(handDrawnTables('<Table striped>')).toEqual(['<Table']);
    expect(handDrawnTables('<Table.ScrollContainer minWidth={1}>')).toEqual(['<Table']);
    expect(handDrawnTables('<Table>')).toEqual(['<Table']);
    expect(handDrawnTables("import { DataTable } from 'mantine-datatable';")).toEqual(['mantine-datatable']);
    expect(handDrawnTables('<DataList records={rows} />')).toEqual([]);
    expect(handDrawnTables('<TableOfContents />')).toEqual([]);
  });

  it('no feature draws a list table outside components/data-list.tsx', () => {
    const offenders = files(features)
      .map((f) => ({ file: relative(features, f).split('\\').join('/'), found: handDrawnTables(readFileSync(f, 'utf8')) }))
      .filter((o) => o.found.length > 0 && !(o.file in allowed) && !notYetOnDataList.has(o.file));
    expect(offenders).toEqual([]);
  });

  it('every allowed table still exists and still is a table', () => {
    for (const file of Object.keys(allowed)) {
      expect(handDrawnTables(readFileSync(join(features, file), 'utf8')), file).not.toEqual([]);
    }
  });
});

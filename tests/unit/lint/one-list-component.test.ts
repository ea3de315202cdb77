import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Lists on the dashboard are one component (components/data-list.tsx): the same search box, paging,
// loading, failure and empty state everywhere, as a table or as cards. A page that draws its own table,
// or its own column of cards or rows, drifts from it.
const root = join(import.meta.dirname, '../../..');
const features = join(root, 'desktop/renderer/src/features');

/**
 * Tables and repeated rows that are not lists of records, each with exactly what the file draws and why.
 * Anything else a file draws by hand fails, so a list added beside an allowed one is still caught.
 */
const allowed: Record<string, { draws: string[]; why: string }> = {
  'project-stats/stats-cards.tsx': {
    draws: ['<Table', '.map(…) => <Table.Tr', '.map(…) => <Table.Tr'],
    why: 'TOP 10 share bars: a fixed summary of ten rows with a chart in each (and its loading skeleton), never paged or searched',
  },
  'project-stats/locations-map.tsx': { draws: ['.map(…) => <… component="li"'], why: "the map's legend: its top ten countries beside it" },
  'site/cookie-policy-page.tsx': {
    draws: ['<Table', '.map(…) => <Table.Tr'],
    why: 'a public page of fixed text (the cookies the site sets); it must stay out of the dashboard chunk',
  },
  'subscription/fixed-plans-page.tsx': {
    draws: ['<Table', '.map(…) => <Paper'],
    why: 'the four plans side by side and the key/value facts of a plan change (charged now, then), not lists of records',
  },
  'api-console/response-view.tsx': { draws: ['<Table', '.map(…) => <Table.Tr'], why: "one answer's headers, name and value: the facts of one response" },
  'webhooks/condition-list.tsx': { draws: ['.map(…) => <ConditionRow'], why: "the webhook form's condition rows: at most five, fields being edited" },
  'jsonpath-sandbox/sandbox.tsx': { draws: ['.map(…) => <Paper'], why: "the sandbox's condition rows: at most five, fields being edited" },
  'webhooks/delivery-history.tsx': { draws: ['.map(…) => <AttemptItem'], why: "one event's delivery attempts, inside its card on the DataList of events" },
  'landing/features-section.tsx': { draws: ['.map(…) => <li'], why: "the public landing page's fixed feature tiles" },
  'landing/site-footer.tsx': { draws: ['.map(…) => <li'], why: "the public site's footer links" },
  'landing/site-header.tsx': { draws: ['.map(…) => <li'], why: "the public site's navigation links" },
  'pricing/plan-card.tsx': { draws: ['.map(…) => <li'], why: "a plan's feature bullets" },
  'pricing/payg-card.tsx': { draws: ['.map(…) => <li'], why: "pay-as-you-go's feature bullets" },
  'pricing/pricing-section.tsx': { draws: ['.map(…) => <PlanCard'], why: 'the four plans side by side on the public pricing section' },
};

/** What draws a table by hand: Mantine's Table in JSX or an import of mantine-datatable. */
export function handDrawnTables(source: string): string[] {
  const found: string[] = [];
  if (/<Table[\s.>]/.test(source)) found.push('<Table');
  if (/from\s+['"]mantine-datatable/.test(source)) found.push('mantine-datatable');
  return found;
}

/** An element drawn once per item is a list's row: a list item, a table row, a card, or a component named as one. */
const ROW = /^<(li|tr|Table\.Tr|Card|Paper|[A-Z]\w*(?:Card|Row|Item))\b|^<[\w.]+\b[^>]*?\bcomponent=["'](li|tr)["']/;

/**
 * What draws a list by hand: a `.map(` whose callback answers a row element, directly or through the
 * `return` of a block body. DataList takes the row through its `card` prop, with no `.map(` of the page's own.
 */
export function handDrawnRows(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\.map\(\s*(?:\([^()]*\)|[\w$]+)\s*=>\s*/g)) {
    let rest = source.slice(m.index + m[0].length);
    const block = /^\{[^]*?\breturn\s*\(?\s*/.exec(rest.slice(0, 1500));
    rest = block ? rest.slice(block[0].length) : rest.replace(/^\(\s*/, '');
    const row = ROW.exec(rest.slice(0, 400));
    if (row) found.push(`.map(…) => <${row[1] ?? `… component="${row[2]}"`}`);
  }
  return found;
}

const drawnByHand = (source: string) => [...handDrawnTables(source), ...handDrawnRows(source)];

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

  it.each([
    ['list items', '{items.map((p) => (\n  <li key={p.uuid}>\n    <ProjectCard project={p} />\n  </li>\n))}', '.map(…) => <li'],
    ['cards', '{items.map((w) => <Paper key={w.id} withBorder>{w.name}</Paper>)}', '.map(…) => <Paper'],
    ['Mantine cards', '{list.map(p => (<Card key={p.id}>x</Card>))}', '.map(…) => <Card'],
    ['a row component', '{sessions.map((s) => (\n  <SessionRow key={s.id} session={s} />\n))}', '.map(…) => <SessionRow'],
    ['rows built in a block body', '{members.map((m) => {\n  const self = me === m.id;\n  return (\n    <Paper component="li" key={m.id}>', '.map(…) => <Paper'],
    ['any element rendered as a list item', '{rows.map((r, i) => (<Group key={i} component="li" gap="xs">', '.map(…) => <… component="li"'],
    ['table rows', '{rows.map((r) => <Table.Tr key={r.id} />)}', '.map(…) => <Table.Tr'],
  ])('finds a hand-drawn list of %s', (_, code, found) => {
    expect(handDrawnRows(code)).toEqual([found]);
  });

  it('leaves alone what is not a list of rows', () => {
    expect(handDrawnRows('<DataList records={items} card={(p) => <ProjectCard project={p} />} />')).toEqual([]);
    expect(handDrawnRows('{blockers.map((b) => (<List.Item key={b.id}>{b.name}</List.Item>))}')).toEqual([]);
    expect(handDrawnRows("networks.map((n) => ({ value: n.slug, label: n.label }))")).toEqual([]);
    expect(handDrawnRows("{tabs.map((t) => <Tabs.Tab key={t} value={t}>{t}</Tabs.Tab>)}")).toEqual([]);
  });

  it('no feature draws a list outside components/data-list.tsx', () => {
    const offenders = files(features)
      .map((f) => ({ file: relative(features, f).split('\\').join('/'), draws: drawnByHand(readFileSync(f, 'utf8')) }))
      .filter((o) => o.draws.length > 0 && JSON.stringify(o.draws) !== JSON.stringify(allowed[o.file]?.draws));
    expect(offenders).toEqual([]);
  });

  it('every allowed file still exists and still draws what it is allowed', () => {
    for (const [file, { draws }] of Object.entries(allowed)) {
      expect(drawnByHand(readFileSync(join(features, file), 'utf8')), file).toEqual(draws);
    }
  });
});

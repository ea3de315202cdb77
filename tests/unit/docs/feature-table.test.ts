import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README's "Where each feature lives" table is where a newcomer looks a feature up: every feature
// folder, on the server and in the renderer, must have its row, or the table quietly goes stale.
const root = path.resolve(import.meta.dirname, '../../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('## Where each feature lives'), readme.indexOf('\n## ', readme.indexOf('## Where each feature lives') + 1));
const rows = table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| feature') && !l.startsWith('|---'));
const cells = (i: number) => rows.map((r) => r.split(' | ')[i] ?? '').join(' ');
const folders = (dir: string) =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

describe("the README's feature table", () => {
  it('has rows', () => expect(rows.length).toBeGreaterThan(10));

  it.each(folders('server/features'))('names server/features/%s/ in its server column', (name) => {
    expect(cells(1)).toContain(`\`server/features/${name}/\``);
  });

  it.each(folders('desktop/renderer/src/features'))('names the renderer feature %s/ in its screens column', (name) => {
    expect(cells(2)).toContain(`\`${name}/\``);
  });
});

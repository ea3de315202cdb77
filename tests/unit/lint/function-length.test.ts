import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No function in server/ or shared/ is longer than 150 lines (its whole text, signature to closing
// brace): a longer one is several things that want their own names.
const root = path.resolve(import.meta.dirname, '../../..');
const MAX_LINES = 150;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every function of a file longer than `max` lines, as "file:line name (n lines)". */
export function longFunctions(file: string, text: string, max: number): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(node.end).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : '(anonymous)';
      if (last - first + 1 > max) out.push(`${path.relative(root, file)}:${first + 1} ${name} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

describe('function length', () => {
  it('finds a function over the limit, counting arrow functions by their variable', () => {
    const body = Array.from({ length: 4 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions(path.join(root, 'x.ts'), `export const make = () => {\n${body}\n};\nfunction small() {}\n`, 5)).toEqual(['x.ts:1 make (6 lines)']);
    expect(longFunctions(path.join(root, 'x.ts'), `export const make = () => {\n${body}\n};\n`, 6)).toEqual([]);
  });

  it(`keeps every function in server/ and shared/ within ${MAX_LINES} lines`, () => {
    const long = ['server', 'shared'].flatMap((dir) => sources(path.join(root, dir)).flatMap((f) => longFunctions(f, fs.readFileSync(f, 'utf8'), MAX_LINES)));
    expect(long).toEqual([]);
  });
});

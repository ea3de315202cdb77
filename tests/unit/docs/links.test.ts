import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is the entry point and docs/ holds the rest: every relative link between them must land
// on a file (and a heading, when it names one), or a reader hits a dead end.
const root = path.resolve(import.meta.dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? markdownFiles(file) : e.name.endsWith('.md') ? [file] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading.trim().toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-');

const anchorsIn = (file: string) =>
  new Set([...fs.readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

const files = [path.join(root, 'README.md'), ...markdownFiles(path.join(root, 'docs'))];

describe('README and docs/', () => {
  it('keeps the README an entry point of at most 250 lines', () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(files.map((f) => [path.relative(root, f), f]))('%s links only to files and headings that exist', (_name, file) => {
    const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    const dead: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // http(s), mailto: not ours to check here
      const [rel, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = rel === '' ? file : path.resolve(path.dirname(file), rel);
      if (!fs.existsSync(resolved)) dead.push(target!);
      else if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor)) dead.push(target!);
    }
    expect(dead).toEqual([]);
  });
});

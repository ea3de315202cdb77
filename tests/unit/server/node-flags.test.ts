// The server's V8 flags are given in two places: server/node-flags.ts (the benches start the gateway
// and its baseline with them) and package.json's start and start:prod scripts (what operators run).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../server/node-flags';

describe('server node flags', () => {
  it('are the flags npm start gives node', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts.start!;
    const node = /\bnode ((?:--\S+ )*)--import tsx server\/main\.ts/.exec(start);
    expect(node, `npm start runs ${start}`).not.toBeNull();
    expect(node![1]!.trim().split(' ').filter((f) => f !== '')).toEqual([...SERVER_NODE_FLAGS]);
  });

  it('are the flags npm run start:prod gives node, beside source maps for the build', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts['start:prod']!;
    const node = /^node ((?:--\S+ )*)dist\/server\/main\.js$/.exec(start);
    expect(node, `npm run start:prod runs ${start}`).not.toBeNull();
    expect(node![1]!.trim().split(' ').filter((f) => f !== '' && f !== '--enable-source-maps')).toEqual([...SERVER_NODE_FLAGS]);
  });
});

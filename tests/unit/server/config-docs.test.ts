import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, upstreamSchema } from '../../../server/config';
import { renderConfigurationDoc } from '../../../server/cli/config-docs';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('docs/configuration.md', () => {
  it('is what the configuration schema generates', () => {
    const onDisk = read('docs/configuration.md');
    // toBe would print both 200-line texts; say what to do instead.
    expect(onDisk === renderConfigurationDoc(), 'docs/configuration.md is stale: run `npm run docs:config` and commit the result').toBe(true);
  });

  it('lists every variable, with a description, and .env.example lists every one of them', () => {
    const doc = renderConfigurationDoc();
    const env = read('.env.example');
    const names = [...Object.keys(configSchema.shape), ...Object.keys(upstreamSchema.shape)];
    expect(names.length).toBeGreaterThan(70);
    for (const name of names) {
      expect(doc, name).toMatch(new RegExp(`^\\| \`${name}\` \\| [^|]+ \\| \\S`, 'm'));
      expect(env, name).toMatch(new RegExp(`^${name}=`, 'm'));
    }
    // And .env.example names nothing the schema does not read.
    const listed = [...env.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(listed.filter((n) => !names.includes(n!))).toEqual([]);
  });

  it("gives each default as .env.example writes it", () => {
    const env = read('.env.example');
    for (const [, name, fallback] of renderConfigurationDoc().matchAll(/^\| `([A-Z0-9_]+)` \| `([^`]*)` \|/gm)) {
      expect(env, name).toMatch(new RegExp(`^${name}=${fallback!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
  });
});

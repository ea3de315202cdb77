import { describe, expect, it } from 'vitest';
import { PROJECT_KEY, redactKeys } from '../../../shared/project-key';

const key = (prefix: string) => `${prefix}${'aZ09'.repeat(8)}`;

describe('project keys in text', () => {
  it('knows a whole key of every network', () => {
    for (const p of ['mainnet', 'preprod', 'preview', 'ipfs', 'milkmainnet']) expect(PROJECT_KEY.test(key(p))).toBe(true);
    expect(PROJECT_KEY.test('cardano-mainnet')).toBe(false);
    expect(PROJECT_KEY.test(key('mainnet') + 'x')).toBe(false);
    expect(PROJECT_KEY.test('api')).toBe(false);
  });

  it('replaces every key in a URL or a message, and nothing else', () => {
    expect(redactKeys(`GET /${key('mainnet')}/api/v0/blocks/latest`)).toBe('GET /[key]/api/v0/blocks/latest');
    expect(redactKeys(`http://:${key('ipfs')}@host/api/v0 and ${key('milkmainnet')}.`)).toBe('http://:[key]@host/api/v0 and [key].');
    const hash = 'a'.repeat(64);
    expect(redactKeys(`/blocks/${hash}`)).toBe(`/blocks/${hash}`);
    // Part of a longer word is not a key.
    expect(redactKeys(`x${key('mainnet')}`)).toBe(`x${key('mainnet')}`);
  });
});

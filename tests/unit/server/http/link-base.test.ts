import { describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { loadConfig } from '../../../../server/config';
import { linkBase } from '../../../../server/http/link-base';

const req = (host: string, protocol = 'http') => ({ headers: { host }, protocol }) as unknown as Request;
const base = { SESSION_SECRET: 'x'.repeat(40) };

describe('linkBase', () => {
  it('follows the loopback address the user used when PUBLIC_URL is unset, outside production', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development', PORT: '3000' });
    expect(linkBase(config, req('127.0.0.1:3000'))).toBe('http://127.0.0.1:3000');
    expect(linkBase(config, req('localhost:3000'))).toBe('http://localhost:3000');
    expect(linkBase(config, req('[::1]:3000'))).toBe('http://[::1]:3000');
    expect(linkBase(config, req('127.0.0.2:3000'))).toBe('http://127.0.0.2:3000');
  });

  it('never follows a host that is not loopback (a forged Host header cannot redirect links)', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development', PORT: '3000' });
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.evil.example:80', '', 'localhost:3000/x', '10.0.0.1:3000']) {
      expect(linkBase(config, req(host))).toBe('http://localhost:3000');
    }
  });

  it('uses PUBLIC_URL when it is set, and always in production', () => {
    expect(linkBase(loadConfig({ ...base, NODE_ENV: 'development', PUBLIC_URL: 'https://cairn.example' }), req('127.0.0.1:3000'))).toBe('https://cairn.example');
    expect(linkBase(loadConfig({ ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525' }), req('127.0.0.1:3000'))).toBe('http://localhost:3000');
  });
});

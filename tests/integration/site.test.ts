import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { ARTIFACTS } from '../helpers/db-template';

const webDir = path.join(ARTIFACTS, `site-web-${process.pid}`);
beforeAll(async () => {
  fs.mkdirSync(webDir, { recursive: true });
});
afterAll(() => {
  fs.rmSync(webDir, { recursive: true, force: true });
});
const app = useTestApp({
  webDir,
  env: {
    STATUS_URL: 'https://status.cairn.example',
    DOCS_URL: 'https://docs.cairn.example',
    SUPPORT_EMAIL: 'help@cairn.example',
    SOCIAL_LINKS: 'GitHub=https://github.com/cairn, X=https://x.com/cairn',
    COMPANY_ADDRESS: 'Cairn Ltd, 1 Stone Row, Edinburgh',
    MAINTENANCE_MODE: 'true',
    MAINTENANCE_ETA: '2026-12-01T18:00:00Z',
  },
});

describe('GET /api/site', () => {
  it('answers the configured site settings to anyone', async () => {
    const res = await new Client(app.url).get('/api/site');
    expect(res.body).toEqual({
      data: {
        links: { status: 'https://status.cairn.example', blog: null, docs: 'https://docs.cairn.example', cookiePolicy: '/cookie-policy' },
        chatUrl: null,
        supportEmail: 'help@cairn.example',
        socialLinks: [
          { label: 'GitHub', url: 'https://github.com/cairn' },
          { label: 'X', url: 'https://x.com/cairn' },
        ],
        companyAddress: 'Cairn Ltd, 1 Stone Row, Edinburgh',
        maintenance: { enabled: true, eta: '2026-12-01T18:00:00.000Z' },
        gatewayUrl: 'http://localhost:3001',
        devMailbox: '/dev/mailbox',
      },
    });
  });
});

describe('GET /api/has-new-deploy', () => {
  it('answers the build id on disk, and follows a new deploy', async () => {
    const c = new Client(app.url);
    expect((await c.get('/api/has-new-deploy')).body).toEqual({ data: { version: 'unknown' } });
    fs.writeFileSync(path.join(webDir, 'version.json'), JSON.stringify({ version: 'build-1' }));
    expect((await c.get('/api/has-new-deploy')).body.data.version).toBe('build-1');
    const file = path.join(webDir, 'version.json');
    fs.writeFileSync(file, JSON.stringify({ version: 'build-2' }));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    const res = await c.get('/api/has-new-deploy');
    expect(res.body.data.version).toBe('build-2');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

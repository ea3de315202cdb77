import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDeepLinkInArgv, parseDeepLink, protocolClientArgs } from '../../../desktop/main/deep-links';

const origin = 'http://localhost:3000';

describe('parseDeepLink', () => {
  it.each([
    ['cairn://open?path=/dashboard', 'http://localhost:3000/dashboard'],
    ['cairn://open?path=/dashboard/project/p1/settings', 'http://localhost:3000/dashboard/project/p1/settings'],
    ['cairn://open/?path=%2Fdashboard%2Fwebhooks%2Fw1', 'http://localhost:3000/dashboard/webhooks/w1'],
    ['CAIRN://OPEN?path=%2Fdashboard%3Ftab%3Dkeys%23top', 'http://localhost:3000/dashboard?tab=keys#top'],
    ['cairn://open?path=/dashboard?tab=keys#ignored', 'http://localhost:3000/dashboard?tab=keys'],
    ['cairn://open?path=/dashboard/../auth/signin', 'http://localhost:3000/auth/signin'],
  ])('opens %s as %s', (link, target) => {
    expect(parseDeepLink(link, origin)).toBe(target);
  });

  it('resolves against the configured origin', () => {
    expect(parseDeepLink('cairn://open?path=/dashboard', 'https://cairn.example.com')).toBe('https://cairn.example.com/dashboard');
  });

  it.each([
    'cairn://open?path=//evil.example/dashboard',
    'cairn://open?path=/\\evil.example',
    'cairn://open?path=https://evil.example/',
    'cairn://open?path=javascript:alert(1)',
    'cairn://open?path=dashboard',
    'cairn://open?path=/dash%0aboard',
    'cairn://open?path=%2F%2Fevil.example',
    'cairn://open',
    'cairn://open?path=',
    'cairn://evil.example?path=/dashboard',
    'cairn://open.evil.example?path=/dashboard',
    'cairn://open:3000?path=/dashboard',
    'cairn://user@open?path=/dashboard',
    'cairn://open/elsewhere?path=/dashboard',
    'cairn:open?path=/dashboard',
    'https://open?path=/dashboard',
    'javascript:alert(1)//cairn://open?path=/dashboard',
    '',
  ])('ignores %s', (link) => {
    expect(parseDeepLink(link, origin)).toBeNull();
  });
});

describe('findDeepLinkInArgv', () => {
  it('finds the link among Chromium switches', () => {
    expect(
      findDeepLinkInArgv(['/opt/Cairn/cairn', '--original-process-start-time=1', 'cairn://open?path=/dashboard']),
    ).toBe('cairn://open?path=/dashboard');
    expect(findDeepLinkInArgv(['C:\\Cairn\\Cairn.exe', '--', 'CAIRN://open?path=/x', '--flag'])).toBe('CAIRN://open?path=/x');
  });

  it('returns null without a link', () => {
    expect(findDeepLinkInArgv(['/opt/Cairn/cairn', '--no-sandbox', 'https://cairn.example.com'])).toBeNull();
    expect(findDeepLinkInArgv([])).toBeNull();
  });
});

describe('protocolClientArgs', () => {
  it('registers the packaged app as it is', () => {
    expect(protocolClientArgs({ defaultApp: false, execPath: '/opt/Cairn/cairn', argv: ['/opt/Cairn/cairn'] })).toEqual({
      scheme: 'cairn',
    });
  });

  it('registers electron plus the app path in development', () => {
    expect(
      protocolClientArgs({ defaultApp: true, execPath: '/repo/node_modules/electron/dist/electron', argv: ['electron', '.'] }),
    ).toEqual({
      scheme: 'cairn',
      development: { execPath: '/repo/node_modules/electron/dist/electron', args: [path.resolve('.')] },
    });
  });
});

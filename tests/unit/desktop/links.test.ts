import { describe, expect, it } from 'vitest';
import {
  decideNavigation,
  decideWindowOpen,
  isAllowedExternal,
  isInternalNavigation,
  toAllowedExternal,
} from '../../../desktop/main/links';

const origin = 'http://localhost:3000';

describe('isInternalNavigation', () => {
  it.each([
    'http://localhost:3000/dashboard',
    'http://localhost:3000/auth/signin?redirect=%2Fdashboard',
    'http://LOCALHOST:3000/',
  ])('keeps %s in the window', (url) => {
    expect(isInternalNavigation(url, origin)).toBe(true);
  });

  it.each([
    'https://localhost:3000/dashboard',
    'http://localhost:3001/api/v0/health',
    'http://localhost.evil.example:3000/',
    'http://evil.example/?http://localhost:3000/',
    'javascript:location="http://localhost:3000"',
    'file:///etc/passwd',
    'data:text/html,<p>hi</p>',
    'not a url',
    '',
  ])('does not treat %s as Cairn', (url) => {
    expect(isInternalNavigation(url, origin)).toBe(false);
  });
});

describe('isAllowedExternal', () => {
  it.each(['https://docs.blockfrost.io/', 'https://github.com/login/oauth/authorize?x=1', 'http://localhost:3000/docs'])(
    'allows %s',
    (url) => {
      expect(isAllowedExternal(url, origin)).toBe(true);
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'smb://attacker.example/share',
    'ms-msdt:/id PCWDiagnostic',
    'cairn://open?path=/dashboard',
    'mailto:someone@example.com',
    'http://evil.example/',
    'https://user:pass@evil.example/',
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(isAllowedExternal(url, origin)).toBe(false);
  });

  it('hands the system browser the normalised URL', () => {
    expect(toAllowedExternal('https://Example.COM/a b', origin)).toBe('https://example.com/a%20b');
  });
});

describe('decideNavigation and decideWindowOpen', () => {
  it('lets Cairn pages load in the window', () => {
    expect(decideNavigation('http://localhost:3000/dashboard/settings', origin)).toEqual({ action: 'allow' });
  });

  it('sends allowed foreign pages to the system browser', () => {
    expect(decideNavigation('https://github.com/', origin)).toEqual({ action: 'open-external', url: 'https://github.com/' });
  });

  it('blocks everything else', () => {
    expect(decideNavigation('file:///etc/passwd', origin)).toEqual({ action: 'block' });
    expect(decideNavigation('http://evil.example/', origin)).toEqual({ action: 'block' });
  });

  it('never opens a new window, not even for a Cairn page', () => {
    expect(decideWindowOpen('http://localhost:3000/dashboard', origin)).toEqual({
      action: 'open-external',
      url: 'http://localhost:3000/dashboard',
    });
    expect(decideWindowOpen('javascript:alert(1)', origin)).toEqual({ action: 'block' });
  });
});

import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../../shared/redirect';

describe('safeRedirect', () => {
  it.each([
    '//evil.example',
    '//evil.example/path',
    'https://evil.example',
    'http://evil.example/dashboard',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'dashboard',
    '',
    ' /dashboard',
    // Dot segments that normalise to a protocol-relative path (an open redirect otherwise).
    '/.//evil.com',
    '/../..//evil.com',
    '/./..//evil.com/x',
    '/%2e//evil.com',
    '/%2e%2e/%2e%2e//evil.com',
    '/a/..//evil.com',
  ])('refuses %j', (input) => {
    expect(safeRedirect(input)).toBe('/dashboard');
  });

  it.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard/project/12?tab=stats#top', '/dashboard/project/12?tab=stats#top'],
    ['/dashboard/../auth/signin', '/auth/signin'],
    ['/workspace-invite/abc', '/workspace-invite/abc'],
  ])('keeps same-origin path %j', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it('falls back for non-strings and overlong input', () => {
    expect(safeRedirect(undefined)).toBe('/dashboard');
    expect(safeRedirect(['/a'])).toBe('/dashboard');
    expect(safeRedirect('/' + 'a'.repeat(3000))).toBe('/dashboard');
    expect(safeRedirect(null, '/x')).toBe('/x');
  });
});

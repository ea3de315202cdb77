import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLocalPage, resolveLocalFile, SANDBOX_URL } from '../../../desktop/main/local-pages';

const web = path.resolve('/opt/Cairn/resources/app.asar/dist/web');

describe('resolveLocalFile', () => {
  it('answers the sandbox route with index.html and assets from the web build', () => {
    expect(resolveLocalFile(SANDBOX_URL, web)).toEqual({ file: path.join(web, 'index.html'), type: 'text/html; charset=utf-8' });
    expect(resolveLocalFile('cairn-app://app/assets/index-abc.js', web)).toEqual({ file: path.join(web, 'assets/index-abc.js'), type: 'text/javascript; charset=utf-8' });
  });

  it('answers nothing outside the build, no other page, no other host', () => {
    for (const url of [
      'cairn-app://app/../../../etc/passwd',
      'cairn-app://app/%2e%2e/%2e%2e/etc/passwd',
      'cairn-app://app/assets/..%2f..%2fsecret.js',
      'cairn-app://app/dashboard',
      'cairn-app://app/api/me',
      'cairn-app://other/jsonpath-sandbox',
      'cairn-app://app/assets/x.node',
      'not a url',
    ]) {
      expect(resolveLocalFile(url, web), url).toEqual({ status: 404 });
    }
  });

  it('tells local pages from everything else', () => {
    expect(isLocalPage(SANDBOX_URL)).toBe(true);
    expect(isLocalPage('http://localhost:3000/jsonpath-sandbox')).toBe(false);
    expect(isLocalPage('cairn-app://elsewhere/')).toBe(false);
  });
});

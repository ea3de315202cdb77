import { describe, expect, it } from 'vitest';
import { DEFAULT_CAIRN_URL, DesktopConfigError, readDesktopConfig } from '../../../desktop/main/config';

describe('readDesktopConfig', () => {
  it('defaults to the local dashboard', () => {
    expect(readDesktopConfig({})).toEqual({ cairnUrl: DEFAULT_CAIRN_URL, cairnOrigin: 'http://localhost:3000' });
    expect(readDesktopConfig({ CAIRN_URL: '  ' }).cairnUrl).toBe(DEFAULT_CAIRN_URL);
  });

  it('takes CAIRN_URL and derives its origin', () => {
    expect(readDesktopConfig({ CAIRN_URL: 'https://cairn.example.com:8443/dashboard/settings' })).toEqual({
      cairnUrl: 'https://cairn.example.com:8443/dashboard/settings',
      cairnOrigin: 'https://cairn.example.com:8443',
    });
    expect(readDesktopConfig({ CAIRN_URL: 'https://Cairn.Example.com' })).toEqual({
      cairnUrl: 'https://cairn.example.com/',
      cairnOrigin: 'https://cairn.example.com',
    });
  });

  it.each([
    ['localhost:3000', /http/],
    ['not a url', /absolute http/],
    ['file:///etc/passwd', /not file:/],
    ['javascript:alert(1)', /not javascript:/],
    ['ftp://cairn.example.com', /not ftp:/],
    ['https://user:secret@cairn.example.com/', /user name or password/],
  ])('refuses %s', (value, message) => {
    expect(() => readDesktopConfig({ CAIRN_URL: value })).toThrow(DesktopConfigError);
    expect(() => readDesktopConfig({ CAIRN_URL: value })).toThrow(message);
  });
});

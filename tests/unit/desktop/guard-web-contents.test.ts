import type { HandlerDetails, WebContents, WindowOpenHandlerResponse } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { guardWebContents } from '../../../desktop/main/guard-web-contents';

const origin = 'http://localhost:3000';

type Listener = (event: { url?: string; isMainFrame?: boolean; preventDefault: () => void }) => void;

function fakeContents() {
  let openHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  const listeners = new Map<string, Listener>();
  const contents = {
    setWindowOpenHandler: vi.fn((handler: (details: HandlerDetails) => WindowOpenHandlerResponse) => {
      openHandler = handler;
    }),
    on: vi.fn((name: string, listener: Listener) => {
      listeners.set(name, listener);
      return contents;
    }),
  };
  const emit = (name: string, details: { url?: string; isMainFrame?: boolean }) => {
    const event = { ...details, preventDefault: vi.fn() };
    listeners.get(name)?.(event);
    return event;
  };
  const open = (url: string) => openHandler?.({ url } as HandlerDetails);
  return { contents: contents as unknown as Pick<WebContents, 'setWindowOpenHandler' | 'on'>, emit, open };
}

describe('guardWebContents', () => {
  it('denies every new window and sends allowed links to the system browser', () => {
    const { contents, open } = fakeContents();
    const openExternal = vi.fn();
    guardWebContents(contents, origin, openExternal);

    expect(open('https://docs.example.com/')).toEqual({ action: 'deny' });
    expect(open('http://localhost:3000/dashboard')).toEqual({ action: 'deny' });
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://docs.example.com/'], ['http://localhost:3000/dashboard']]);
  });

  it('keeps navigation on the Cairn origin', () => {
    const { contents, emit } = fakeContents();
    const openExternal = vi.fn();
    guardWebContents(contents, origin, openExternal);

    expect(emit('will-navigate', { url: 'http://localhost:3000/dashboard/settings' }).preventDefault).not.toHaveBeenCalled();
    expect(emit('will-navigate', { url: 'https://github.com/' }).preventDefault).toHaveBeenCalled();
    expect(emit('will-navigate', { url: 'http://evil.example/' }).preventDefault).toHaveBeenCalled();
    expect(emit('will-navigate', { url: 'file:///etc/passwd' }).preventDefault).toHaveBeenCalled();
    expect(openExternal.mock.calls).toEqual([['https://github.com/']]);
  });

  it('stops main-frame redirects away from Cairn and leaves frames alone', () => {
    const { contents, emit } = fakeContents();
    const openExternal = vi.fn();
    guardWebContents(contents, origin, openExternal);

    const toProvider = 'https://github.com/login/oauth/authorize?client_id=x';
    expect(emit('will-redirect', { url: toProvider, isMainFrame: true }).preventDefault).toHaveBeenCalled();
    expect(emit('will-redirect', { url: 'http://localhost:3000/dashboard', isMainFrame: true }).preventDefault).not.toHaveBeenCalled();
    expect(emit('will-redirect', { url: 'https://newassets.hcaptcha.com/x', isMainFrame: false }).preventDefault).not.toHaveBeenCalled();
    expect(openExternal.mock.calls).toEqual([[toProvider]]);
  });

  it('refuses to attach webviews', () => {
    const { contents, emit } = fakeContents();
    guardWebContents(contents, origin, vi.fn());
    expect(emit('will-attach-webview', {}).preventDefault).toHaveBeenCalled();
  });
});

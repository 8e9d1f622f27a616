import { describe, expect, it, vi } from 'vitest';
import {
  decideNavigation,
  denyAllPermissions,
  externalUrl,
  hardenWebContents,
  installSecurity,
  type PreventableEvent,
  permissionAllowed,
  type SessionLike,
  type WebContentsLike,
} from '../../main/security.js';

function fakeContents() {
  const listeners = new Map<string, (event: PreventableEvent, url: string) => void>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const contents: WebContentsLike = {
    on: ((event: string, listener: (event: PreventableEvent, url: string) => void) => {
      listeners.set(event, listener);
      return contents;
    }) as WebContentsLike['on'],
    setWindowOpenHandler: (handler) => {
      openHandler = handler;
    },
  };
  const fire = (event: string, url = '') => {
    const e = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    listeners.get(event)?.(e, url);
    return e.defaultPrevented;
  };
  return { contents, fire, open: (url: string) => openHandler?.({ url }) };
}

describe('navigation policy', () => {
  it('allows in-app URLs and sends web links to the browser', () => {
    expect(decideNavigation('app://arena/index.html#/sessions')).toEqual({ allow: true, openExternally: null });
    expect(decideNavigation('https://example.org/')).toEqual({ allow: false, openExternally: 'https://example.org/' });
    expect(decideNavigation('http://127.0.0.1:4000/')).toEqual({ allow: false, openExternally: 'http://127.0.0.1:4000/' });
  });

  it('never hands other schemes to the OS', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'app://arena.evil/', 'not a url']) {
      expect(decideNavigation(url).allow).toBe(false);
      expect(decideNavigation(url).openExternally).toBeNull();
    }
    expect(externalUrl('mailto:a@b.c')).toBeNull();
  });
});

describe('hardenWebContents', () => {
  it('cancels navigation and redirects away from the app and opens web links externally', () => {
    const openExternal = vi.fn(() => Promise.resolve());
    const { contents, fire } = fakeContents();
    hardenWebContents(contents, openExternal);
    expect(fire('will-navigate', 'https://example.org/x')).toBe(true);
    expect(fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(fire('will-navigate', 'app://arena/index.html')).toBe(false);
    expect(openExternal).toHaveBeenCalledTimes(1);
    expect(openExternal).toHaveBeenCalledWith('https://example.org/x');
  });

  it('denies every new window, opening http(s) targets in the browser', () => {
    const openExternal = vi.fn(() => Promise.resolve());
    const { contents, open } = fakeContents();
    hardenWebContents(contents, openExternal);
    expect(open('https://example.org/')).toEqual({ action: 'deny' });
    expect(open('app://arena/index.html')).toEqual({ action: 'deny' });
    expect(open('file:///x')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.org/']]);
  });

  it('blocks webviews', () => {
    const { contents, fire } = fakeContents();
    hardenWebContents(
      contents,
      vi.fn(() => Promise.resolve()),
    );
    expect(fire('will-attach-webview')).toBe(true);
  });

  it('applies to every webContents the app creates', () => {
    let created: ((event: unknown, contents: WebContentsLike) => void) | undefined;
    installSecurity(
      { on: (_event, listener) => (created = listener) },
      vi.fn(() => Promise.resolve()),
    );
    const { contents, fire } = fakeContents();
    created?.({}, contents);
    expect(fire('will-navigate', 'https://example.org/')).toBe(true);
  });
});

describe('permissions', () => {
  it('refuses everything except sanitized clipboard writes from the app itself', () => {
    expect(permissionAllowed('media', 'app://arena')).toBe(false);
    expect(permissionAllowed('notifications', 'app://arena/index.html')).toBe(false);
    expect(permissionAllowed('clipboard-read', 'app://arena')).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write', 'app://arena')).toBe(true);
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example')).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write', undefined)).toBe(false);
  });

  it('installs both the request and the check handler', () => {
    let request: Parameters<SessionLike['setPermissionRequestHandler']>[0] | undefined;
    let check: Parameters<SessionLike['setPermissionCheckHandler']>[0] | undefined;
    denyAllPermissions({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) });
    const callback = vi.fn();
    request?.({}, 'geolocation', callback, { requestingUrl: 'app://arena/index.html' });
    expect(callback).toHaveBeenCalledWith(false);
    expect(check?.({}, 'media', 'app://arena')).toBe(false);
  });
});

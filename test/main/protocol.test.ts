import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appContentSecurityPolicy, createAppProtocolHandler, resolveAppRequest } from '../../main/protocol.js';

const ROOT = '/opt/arena/dist/renderer';

describe('resolveAppRequest', () => {
  it('maps the root and index.html to the entry file', () => {
    for (const url of ['app://arena/', 'app://arena', 'app://arena/index.html']) {
      expect(resolveAppRequest(url, ROOT)).toEqual({ ok: true, file: `${ROOT}/index.html`, contentType: 'text/html; charset=utf-8' });
    }
  });

  it('serves assets with their content type and ignores query and fragment', () => {
    expect(resolveAppRequest('app://arena/assets/index-abc.js?v=1#x', ROOT)).toEqual({
      ok: true,
      file: `${ROOT}/assets/index-abc.js`,
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppRequest('app://arena/assets/index-abc.css', ROOT)).toMatchObject({ ok: true, contentType: 'text/css; charset=utf-8' });
  });

  it.each([
    'app://arena/assets/..%2f..%2f..%2fsecret.js',
    'app://arena/..%2F..%2Fmain%2Fmain.js',
    'app://arena/assets/%2e%2e%2f%2e%2e%2frenderer-evil/x.js',
    'app://arena/..%5c..%5cwindows.js',
    'app://arena/a%00.js',
  ])('refuses traversal attempt %s', (url) => {
    const result = resolveAppRequest(url, ROOT);
    expect(result.ok).toBe(false);
  });

  it('keeps plain dot segments inside the root (the URL parser removes them before we see the path)', () => {
    expect(resolveAppRequest('app://arena/assets/../../../../etc/x.js', ROOT)).toMatchObject({ ok: true, file: `${ROOT}/etc/x.js` });
    // WHATWG URL parsing also treats %2e%2e as a dot segment.
    expect(resolveAppRequest('app://arena/%2e%2e/%2e%2e/etc/passwd.json', ROOT)).toMatchObject({
      ok: true,
      file: `${ROOT}/etc/passwd.json`,
    });
  });

  it('does not treat a sibling folder with the same prefix as inside the root', () => {
    // /opt/arena/dist/renderer-evil starts with the root string but is outside it.
    expect(resolveAppRequest('app://arena/..%2frenderer-evil/a.js', ROOT)).toEqual({ ok: false, status: 403 });
  });

  it('refuses other hosts and schemes', () => {
    expect(resolveAppRequest('app://evil/index.html', ROOT)).toEqual({ ok: false, status: 403 });
    expect(resolveAppRequest('file:///etc/passwd', ROOT)).toEqual({ ok: false, status: 403 });
    expect(resolveAppRequest('https://arena/index.html', ROOT)).toEqual({ ok: false, status: 403 });
  });

  it('answers 400 for malformed escapes and 404 for unknown file types', () => {
    expect(resolveAppRequest('app://arena/%E0%A4%A.js', ROOT)).toEqual({ ok: false, status: 400 });
    expect(resolveAppRequest('app://arena/assets/', ROOT)).toEqual({ ok: false, status: 404 });
    expect(resolveAppRequest('app://arena/secrets.sqlite', ROOT)).toEqual({ ok: false, status: 404 });
  });

  it('guards Windows paths as well', () => {
    const winRoot = 'C:\\Program Files\\Local Arena\\resources\\app.asar\\dist\\renderer';
    expect(resolveAppRequest('app://arena/assets/a.js', winRoot, path.win32)).toEqual({
      ok: true,
      file: `${winRoot}\\assets\\a.js`,
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppRequest('app://arena/..%2f..%2fapp.asar.unpacked%2fx.js', winRoot, path.win32).ok).toBe(false);
    expect(resolveAppRequest('app://arena/C:%2fWindows%2fx.js', winRoot, path.win32).ok).toBe(false);
  });
});

describe('appContentSecurityPolicy', () => {
  it('allows connections to the running engine only', () => {
    expect(appContentSecurityPolicy('http://127.0.0.1:4321')).toContain("connect-src 'self' http://127.0.0.1:4321;");
    expect(appContentSecurityPolicy(null)).toContain("connect-src 'self';");
    expect(appContentSecurityPolicy(null)).toContain("default-src 'self'");
    expect(appContentSecurityPolicy(null)).toContain("object-src 'none'");
  });
});

describe('createAppProtocolHandler', () => {
  const files: Record<string, string> = { [`${ROOT}/index.html`]: '<html></html>' };
  const handler = createAppProtocolHandler({
    root: ROOT,
    engineOrigin: () => 'http://127.0.0.1:5000',
    readFile: async (file) => {
      const text = files[file];
      if (text === undefined) throw new Error('ENOENT');
      return new TextEncoder().encode(text);
    },
  });

  it('serves files with CSP, nosniff and the content type', async () => {
    const response = await handler(new Request('app://arena/index.html'));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<html></html>');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain('http://127.0.0.1:5000');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 for missing files, 403 for traversal and 405 for writes', async () => {
    expect((await handler(new Request('app://arena/assets/missing.js'))).status).toBe(404);
    expect((await handler(new Request('app://arena/..%2f..%2fmain.js'))).status).toBe(403);
    expect((await handler(new Request('app://arena/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
  });
});

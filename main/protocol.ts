// app://arena/ serves dist/renderer (instead of file://), behind a pure, tested path-traversal guard.
import fs from 'node:fs/promises';
import path from 'node:path';
import { APP_ORIGIN } from '../engine/contract/channels.js';
import { RENDERER_CONTENT_TYPES } from '../engine/runtime/content-types.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'arena';

/** standard: real origin and relative URLs; secure: treated like https (fetch, no mixed-content downgrade). */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const;

export type ResolvedRequest = { ok: true; file: string; contentType: string } | { ok: false; status: 400 | 403 | 404 };

type PathApi = Pick<typeof path, 'resolve' | 'sep' | 'extname'>;

/**
 * Maps an app://arena/… URL to a file under `root`, or refuses it. Pure (path API injectable) so both POSIX and
 * Windows separators are tested.
 */
export function resolveAppRequest(requestUrl: string, root: string, pathApi: PathApi = path): ResolvedRequest {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST) return { ok: false, status: 403 };
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  // NUL, backslashes and colons never appear in our asset names; they are classic ways around a prefix check
  // (and a colon names a drive or an NTFS alternate data stream on Windows).
  if (/[\0\\:]/.test(relative)) return { ok: false, status: 403 };
  if (relative === '' || relative === '/') relative = '/index.html';
  const base = pathApi.resolve(root);
  const file = pathApi.resolve(base, `.${relative}`);
  if (!file.startsWith(base + pathApi.sep)) return { ok: false, status: 403 };
  const contentType = RENDERER_CONTENT_TYPES[pathApi.extname(file).toLowerCase()];
  if (!contentType) return { ok: false, status: 404 };
  return { ok: true, file, contentType };
}

/** CSP for the shell: like the engine's, but connect-src also names the engine's loopback origin once it is known. */
export function appContentSecurityPolicy(engineOrigin: string | null): string {
  const connect = engineOrigin ? `'self' ${engineOrigin}` : "'self'";
  return [
    "default-src 'self'",
    `connect-src ${connect}`,
    "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

export interface ProtocolLike {
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

export interface AppProtocolOptions {
  root: string;
  /** e.g. http://127.0.0.1:43121; null while the engine is (re)starting. */
  engineOrigin: () => string | null;
  readFile?: (file: string) => Promise<Uint8Array>;
}

export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const readFile = options.readFile ?? ((file: string) => fs.readFile(file));
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
    const resolved = resolveAppRequest(request.url, options.root);
    if (!resolved.ok) return new Response(null, { status: resolved.status });
    let body: Uint8Array;
    try {
      body = await readFile(resolved.file);
    } catch {
      return new Response(null, { status: 404 });
    }
    return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), {
      status: 200,
      headers: {
        'Content-Type': resolved.contentType,
        'Content-Security-Policy': appContentSecurityPolicy(options.engineOrigin()),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-cache',
      },
    });
  };
}

export function registerAppProtocol(protocol: ProtocolLike, options: AppProtocolOptions): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(options));
}

export { APP_ORIGIN };

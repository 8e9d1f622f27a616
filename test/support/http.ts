// Thin fetch wrappers that always read the body, so a test can assert status, headers and JSON in one place.
import http from 'node:http';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body was not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent verbatim; objects are JSON-encoded. */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
}

function withQuery(url: string, query: RequestOptions['query']): string {
  if (!query) return url;
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

export async function request<T = unknown>(method: string, url: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(withQuery(url, options.query), { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A client bound to one server base URL. */
export function client(base: string) {
  return {
    get: <T = unknown>(path: string, options?: RequestOptions) => request<T>('GET', base + path, options),
    post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', base + path, { ...options, body }),
    request: <T = unknown>(method: string, path: string, options?: RequestOptions) => request<T>(method, base + path, options),
  };
}

export type Client = ReturnType<typeof client>;

/** A raw request through node:http, for headers fetch refuses to set (Host). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

// The `--queue` URL: redis://[user:password@]host:port[/db] or rediss:// (TLS), turned into the connection options of
// BullMQ's Redis client. A password may also come from ARENA_QUEUE_PASSWORD, which keeps it off the command line.
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

/** The BullMQ queue every coordinator and worker of one Redis share. */
export const GAMES_QUEUE = 'arena-games';
/** Pub/sub channel on which a coordinator asks workers to stop a job's game (cancel, shutdown). */
export const STOP_CHANNEL = 'arena-games:stop';

export class QueueUrlError extends Error {
  override name = 'QueueUrlError';
}

export interface QueueTarget {
  connection: ConnectionOptions;
  /** The URL without its password, for messages and logs. */
  display: string;
}

export function parseQueueUrl(raw: string, role: 'coordinator' | 'worker', env: NodeJS.ProcessEnv = process.env): QueueTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new QueueUrlError(`--queue must be a redis:// or rediss:// URL, got ${JSON.stringify(redact(raw))}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new QueueUrlError(`--queue must be a redis:// or rediss:// URL, got ${url.protocol}//…`);
  if (url.hostname === '') throw new QueueUrlError('--queue needs a host (redis://HOST:PORT)');
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbPath = url.pathname.replace(/^\//, '');
  if (dbPath !== '' && !/^\d+$/.test(dbPath)) throw new QueueUrlError(`--queue: the path must be a database number, got /${dbPath}`);
  if (url.search !== '' || url.hash !== '') throw new QueueUrlError('--queue takes no query string or fragment');
  const password = url.password !== '' ? decodeURIComponent(url.password) : env.ARENA_QUEUE_PASSWORD || undefined;
  const username = url.username !== '' ? decodeURIComponent(url.username) : undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const connection: ConnectionOptions = {
    host,
    port,
    ...(dbPath !== '' ? { db: Number(dbPath) } : {}),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    // TLS verifies the server's certificate against the system CAs (or NODE_EXTRA_CA_CERTS). SNI takes names only
    // (RFC 6066); an IP address is still checked against the certificate's IP entries.
    ...(url.protocol === 'rediss:' ? { tls: isIP(host) === 0 ? { servername: host } : {} } : {}),
    // Names the connection in Redis's CLIENT LIST (which side of the queue it is).
    connectionName: `arena-${role}`,
    // BullMQ's blocking connections need this; commands wait through a reconnect instead of failing.
    maxRetriesPerRequest: null,
    // Reconnect for ever, backing off to 2 s: a Redis restart is a pause, not the end of a run.
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
  };
  return { connection, display: `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}` };
}

/**
 * One connection attempt without retries, before any BullMQ client exists: those reconnect for ever, so an
 * unreachable Redis at start would otherwise keep the process waiting. Throws with Redis's own reason.
 */
export async function probeQueue(target: QueueTarget, timeoutMs: number): Promise<void> {
  const probe = new Redis({
    ...(target.connection as RedisOptions),
    lazyConnect: true,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
  });
  let reason: Error | null = null;
  probe.on('error', (error: Error) => {
    reason ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw explainTls(reason ?? (error as Error));
  } finally {
    probe.disconnect();
  }
}

/** OpenSSL's verification failures (Node's error codes) of a server certificate this machine does not trust. */
const UNTRUSTED_CERT = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** A certificate refusal says what it is and how to trust the server's CA; other errors pass unchanged. */
function explainTls(error: Error): Error {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (UNTRUSTED_CERT.has(code))
    return new Error(`TLS: the server's certificate is not trusted (${error.message}); trust its CA with NODE_EXTRA_CA_CERTS=FILE`);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code.startsWith('CERT_'))
    return new Error(`TLS: the server's certificate was refused (${error.message})`);
  return error;
}

function redact(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//…@');
}

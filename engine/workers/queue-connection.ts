// The `--queue` URL: redis://[user:password@]host:port[/db] or rediss:// (TLS), turned into the connection options of
// BullMQ's Redis client. A password may also come from ARENA_QUEUE_PASSWORD, which keeps it off the command line.
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
    // TLS verifies the server's certificate against the system CAs (or NODE_EXTRA_CA_CERTS).
    ...(url.protocol === 'rediss:' ? { tls: { servername: host } } : {}),
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
    throw reason ?? error;
  } finally {
    probe.disconnect();
  }
}

function redact(raw: string): string {
  return raw.replace(/\/\/[^@/]*@/, '//…@');
}

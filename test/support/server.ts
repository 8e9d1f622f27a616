// Starts a real engine on 127.0.0.1:0 with its own temp data dir, for tests that talk to it over HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EngineOptions, type RunningEngine, startEngine } from '../../engine/app.js';
import { ADMIN_PREFIX } from '../../engine/contract/admin.js';
import { type Client, client } from './http.js';

export interface TestServerOptions extends Partial<Omit<EngineOptions, 'host' | 'port'>> {
  /** Reuse this data dir (e.g. a restart); the helper then never deletes it. */
  dataDir?: string;
}

export interface TestServer {
  url: string;
  /** Admin bearer token of this engine instance. */
  token: string;
  dataDir: string;
  /** The running engine, for tests that need a peek behind the HTTP surface. */
  engine: RunningEngine;
  /** Stops the engine; deletes the data dir when the helper created it, unless `keepDataDir`. */
  close(options?: { keepDataDir?: boolean }): Promise<void>;
}

export function makeTempDataDir(prefix = 'arena-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? makeTempDataDir();
  let engine: RunningEngine;
  try {
    engine = await startEngine({
      logLevel: 'silent',
      // No UI in tests: keeps `/` an unknown route whatever was built before.
      rendererDir: null,
      ...options,
      dataDir,
      host: '127.0.0.1',
      port: 0,
    });
  } catch (error) {
    if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: engine.url,
    token: engine.token,
    dataDir,
    engine,
    close(closeOptions = {}) {
      closing ??= (async () => {
        const stopped = engine.close();
        // A socket that never carried a request (undici opens a spare one after an aborted SSE fetch) is not
        // "idle" to Node, so a graceful close would wait for the client's 4 s keep-alive; cut stragglers.
        const graceful = await Promise.race([stopped.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 100))]);
        if (!graceful) engine.http.server.closeAllConnections();
        await stopped;
        if (ownsDir && !closeOptions.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

export interface AdminTestServer {
  server: TestServer;
  /** A client bound to the admin API prefix; requests carry no token unless given `auth`. */
  admin: Client;
  /** Request options with this engine's admin bearer token (spread in `query` and the like as needed). */
  auth: { headers: Record<string, string> };
}

/** A test server plus what admin-route tests use on it, so the 401 checks can call `admin` without `auth`. */
export async function startAdminTestServer(options: TestServerOptions = {}): Promise<AdminTestServer> {
  const server = await startTestServer(options);
  return {
    server,
    admin: client(`${server.url}${ADMIN_PREFIX}`),
    auth: { headers: { authorization: `Bearer ${server.token}` } },
  };
}

// How a sandboxed agent reaches exactly its arena and the hosts its manifest allows: the sandbox has a network
// namespace of its own with only a loopback interface. For each endpoint the engine listens on a Unix socket in the
// launch folder (bind-mounted read-only into the sandbox) and connects each accepted stream to the real host:port;
// inside, arena-forward (or socat, forwarder-tool.ts) serves the same address on the sandbox's loopback, so
// `http://127.0.0.1:PORT` means the same thing in and out. Host names get a loopback address of their own through the sandbox's /etc/hosts.
// An endpoint this very process serves (the engine's own HTTP server) takes the accepted stream directly: a TCP
// connection back to ourselves would cost a connect, an accept and two extra copies of every byte each way.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { ForwarderTool } from './forwarder-tool.js';
import { modelGate } from './model-gate.js';
import { type ModelCallHooks, modelProxyServer } from './model-proxy.js';
import type { ModelServer } from './model-server.js';

export interface Forward {
  /** Address and port the agent connects to inside the sandbox. */
  listenHost: string;
  port: number;
  /** What the engine connects to on the agent's behalf. */
  targetHost: string;
  /** File name of the Unix socket in the launch folder. */
  socket: string;
  /** Set on a model agent's plain-http model server: its requests are gated by the server's capacity. */
  model?: ModelServer;
}

/** Where the launch folder appears inside the sandbox. */
export const SANDBOX_RUN_DIR = '/run/arena';
/** Connections one sandbox may hold open at once through one endpoint. */
const MAX_CONNECTIONS = 128;

/** Forwards for `host:port` endpoints (deduplicated), and the /etc/hosts the sandbox needs for their names. */
export function planForwards(endpoints: readonly string[]): { forwards: Forward[]; hosts: string } {
  const forwards: Forward[] = [];
  const named = new Map<string, string>();
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    const at = endpoint.lastIndexOf(':');
    const host = endpoint.slice(0, at).toLowerCase();
    const port = Number(endpoint.slice(at + 1));
    let listenHost = host;
    if (host === 'localhost') listenHost = '127.0.0.1';
    else if (!/^127\.\d+\.\d+\.\d+$/.test(host)) {
      // A name gets its own loopback address (127.0.100.N), so two names can share a port.
      listenHost = named.get(host) ?? `127.0.100.${named.size + 1}`;
      named.set(host, listenHost);
    }
    const key = `${listenHost}:${port}`;
    if (seen.has(key)) continue;
    seen.add(key);
    forwards.push({ listenHost, port, targetHost: host === 'localhost' ? '127.0.0.1' : host, socket: `f${forwards.length}.sock` });
  }
  const lines = ['127.0.0.1\tlocalhost', ...[...named].map(([name, address]) => `${address}\t${name}`)];
  return { forwards, hosts: `${lines.join('\n')}\n` };
}

/** `host:port` of the loopback URLs among the values (the arena URLs a seat is given). */
export function loopbackEndpoints(values: Iterable<string>): string[] {
  const out: string[] = [];
  for (const value of values) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const host = url.hostname;
    if (host !== 'localhost' && !/^127\.\d+\.\d+\.\d+$/.test(host)) continue;
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    out.push(`${host}:${port}`);
  }
  return [...new Set(out)];
}

export interface Forwarders {
  close(): Promise<void>;
}

/** Serves a forwarded stream in this process (e.g. hands it to an HTTP server as a new connection). */
export type LocalEndpoint = (socket: net.Socket) => void;

/** `host:port` → the in-process server of that endpoint; looked up when a launch starts its forwarders. */
export type LocalEndpoints = (endpoint: string) => LocalEndpoint | null;

/** Listens on one Unix socket per forward in `dir`; each connection is piped to its target, or served by `local`. */
export async function startForwarders(
  dir: string,
  forwards: readonly Forward[],
  owner?: { uid: number; gid: number },
  local?: LocalEndpoints,
  modelHooks?: ModelCallHooks,
): Promise<Forwarders> {
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const close = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) if (server instanceof http.Server) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  };
  try {
    for (const forward of forwards) {
      const serve = local?.(`${forward.targetHost}:${forward.port}`) ?? null;
      const target = { host: forward.targetHost, port: forward.port };
      const server =
        forward.model && !serve
          ? modelProxyServer(target, modelGate(target.host, target.port, forward.model.capacity), modelHooks)
          : pipeServer(target, serve, sockets);
      server.maxConnections = MAX_CONNECTIONS;
      servers.push(server);
      const file = path.join(dir, forward.socket);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(file, () => resolve());
      });
      if (owner) fs.chownSync(file, owner.uid, owner.gid);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}

/**
 * Pipes each accepted stream to the target's TCP port, or hands it to the in-process server of the endpoint. Half-open
 * streams stay open: an agent that shuts its sending side still gets the host's answer (each end is passed on by pipe).
 */
function pipeServer(target: { host: string; port: number }, serve: LocalEndpoint | null, sockets: Set<net.Socket>): net.Server {
  return net.createServer({ allowHalfOpen: serve === null }, (inner) => {
    if (serve) {
      sockets.add(inner);
      inner.once('close', () => sockets.delete(inner));
      serve(inner);
      return;
    }
    const outer = net.connect({ ...target, allowHalfOpen: true });
    sockets.add(inner);
    sockets.add(outer);
    const end = (): void => {
      inner.destroy();
      outer.destroy();
      sockets.delete(inner);
      sockets.delete(outer);
    };
    inner.on('error', end).on('close', end);
    outer.on('error', end).on('close', end);
    inner.pipe(outer);
    outer.pipe(inner);
  });
}

/**
 * The POSIX-shell prologue run inside the sandbox before the agent: the forwarder for every endpoint, then `exec` the
 * agent. arena-forward returns once all its listeners listen (it forks the process that serves them), so the agent
 * starts right after it. socat (the fallback) listens in a process of its own per endpoint, some time after it is
 * started: the wait reads the sandbox's own /proc/net/sockstat, whose TCP `inuse` count is per network namespace and
 * counts a listener from listen() on; before the agent runs, only the forwarders have TCP sockets there.
 * (/proc/net/tcp would name each listener, but the shell reads it a byte at a time and each read walks the host's
 * socket tables: 15–20 ms per check on a busy host.)
 * `beforeExec`: shell lines run once the forwarders listen, right before the agent (its environment, env-handoff.ts).
 */
export function forwarderScript(forwards: readonly Forward[], tool: ForwarderTool, beforeExec = ''): string {
  const lines: string[] = [];
  if (tool.kind === 'arena-forward') {
    const listeners = forwards.map((f) => `${f.listenHost} ${f.port} ${quote(`${SANDBOX_RUN_DIR}/${f.socket}`)}`);
    // It says on stderr what it could not bind; 125 marks the launch as the sandbox's failure, not the agent's.
    lines.push(`${quote(tool.path)} ${listeners.join(' ')} || exit 125`);
  } else {
    for (const f of forwards) {
      // nodelay (inherited by each accepted connection): without it Nagle holds a small write back until the agent
      // acknowledges the last one, which on a kept-alive connection costs up to a delayed-ACK interval per answer.
      // backlog: socat's default of 5 resets an agent's connections past the fifth opened at once.
      lines.push(
        `${quote(tool.path)} -lf /dev/null TCP-LISTEN:${f.port},bind=${f.listenHost},fork,reuseaddr,nodelay,backlog=128 UNIX-CONNECT:${SANDBOX_RUN_DIR}/${f.socket} &`,
      );
    }
    lines.push(
      `up() { while read -r proto _ inuse _; do [ "$proto" = TCP: ] && [ "$inuse" -ge ${forwards.length} ] && return 0; done < /proc/net/sockstat; return 1; }`,
      // Fast polls first (socat listens within a few milliseconds), then 10 ms naps for up to about 30 s on a loaded machine.
      'n=0; until up; do n=$((n+1)); [ $n -gt 3100 ] && { echo "arena sandbox: the arena forwarder did not start" >&2; exit 125; }; [ $n -gt 100 ] && sleep 0.01; done',
    );
  }
  if (beforeExec) lines.push(beforeExec);
  lines.push('exec "$@"');
  return lines.join('\n');
}

function quote(arg: string): string {
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

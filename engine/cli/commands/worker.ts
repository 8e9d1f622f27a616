// `arena worker --queue redis://HOST:PORT`: a game worker for coordinators that run with the same --queue.
import os from 'node:os';
import path from 'node:path';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { builtinAgentFolders } from '../../runtime/package-root.js';
import { startGameWorker } from '../../workers/game-worker.js';
import { parseQueueUrl, QueueUrlError } from '../../workers/queue-connection.js';
import { initWorkerKey, loadWorkerKey, TRUSTED_FILE, trustWorker, type WorkerKey, WorkerKeyError } from '../../workers/worker-keys.js';
import { parseFlags, takeRepeated, UsageError } from '../args.js';

export const WORKER_HELP = `Usage: arena worker --queue redis://HOST:PORT [options]
       arena worker init [--data-dir DIR]

Play the games that coordinators (arena run --queue, arena serve --queue) put on the queue: each in this
worker's own engine, its agents under this machine's OS sandbox. Before each game the agents' manifest and
entry files are checked against the hashes of the run; a worker with other copies refuses the game.
Every record the worker returns is signed with its key: "arena worker init" creates the key in the data
folder (private key, mode 0600) and prints the public key; register it on the coordinator with
"arena workers trust <public key> --name ID", else the coordinator refuses this worker's records.

Options:
  --queue URL            redis://[user:password@]HOST:PORT[/DB] or rediss:// (TLS); the password may
                         instead be in $ARENA_QUEUE_PASSWORD, which keeps it off the command line;
                         a rediss:// server's private CA is trusted with NODE_EXTRA_CA_CERTS=FILE
  --concurrency N        games played at once (default 1)
  --data-dir DIR         this worker's engine and workspaces (default: <data-dir>/worker; one per worker)
  --agents-root DIR      where the runs' agents are looked up by manifest id (repeatable; default: the
                         app's shipped agent folders)
  --trust-agent-dir DIR  run the agents in DIR without the OS sandbox (repeatable)
  --id NAME              the worker's name in the games it plays (default HOSTNAME-PID)
  --stall-seconds N      a game whose worker stopped renewing its lock this long is handed to another
                         worker and replayed on the same seed (default 30)
  --json                 one JSON line per event ("worker_ready" first)
`;

export async function workerCommand(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'init') return initCommand(argv.slice(1));
  const roots = takeRepeated(argv, 'agents-root');
  const trusted = takeRepeated(roots.rest, 'trust-agent-dir');
  const { flags, positionals } = parseFlags(trusted.rest, {
    queue: 'string',
    concurrency: 'string',
    'data-dir': 'string',
    id: 'string',
    'stall-seconds': 'string',
    json: 'boolean',
    help: 'boolean',
  });
  if (flags.help) {
    process.stdout.write(WORKER_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (typeof flags.queue !== 'string') throw new UsageError('arena worker needs --queue redis://HOST:PORT');
  let target: ReturnType<typeof parseQueueUrl>;
  try {
    target = parseQueueUrl(flags.queue, 'worker');
  } catch (error) {
    if (error instanceof QueueUrlError) throw new UsageError(error.message);
    throw error;
  }
  const concurrency = positiveInt('concurrency', flags.concurrency, 1, 256);
  const stallSeconds = positiveInt('stall-seconds', flags['stall-seconds'], 30, 3600);
  const workerId = typeof flags.id === 'string' ? flags.id : `${os.hostname()}-${process.pid}`;
  if (!WORKER_ID.test(workerId)) throw new UsageError('--id may use letters, digits, "_", "-", "." and "@" (at most 100)');
  const dataDir = workerDataDir(flags['data-dir']);
  let key: WorkerKey;
  try {
    key = loadWorkerKey(dataDir);
  } catch (error) {
    if (error instanceof WorkerKeyError) throw new UsageError(error.message);
    throw error;
  }
  const agentRoots = roots.values.length > 0 ? roots.values.map((r) => path.resolve(r)) : builtinAgentFolders().map((f) => f.path);
  const json = flags.json === true;
  const log = (event: Record<string, unknown>): void => {
    if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.event === 'queue_error') process.stderr.write(`arena worker: queue: ${String(event.message)}\n`);
  };
  // An unreachable queue exits 1 with its reason (main).
  const worker = await startGameWorker({
    target,
    workerId,
    concurrency,
    dataDir,
    agentRoots,
    trustedAgentDirs: trusted.values.map((d) => path.resolve(d)),
    stallMs: stallSeconds * 1000,
    key,
    log,
  });
  if (json) log({ event: 'worker_ready', worker_id: worker.id, public_key: key.publicKey, queue: target.display, concurrency });
  else
    process.stdout.write(
      `Game worker ${worker.id} on ${target.display} (${concurrency} at once). Ctrl-C stops after the games in flight.\n`,
    );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) process.exit(130);
      stopping = true;
      worker.close().then(resolve, (error: unknown) => {
        process.stderr.write(`arena worker: error while stopping: ${(error as Error).message}\n`);
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  if (json) log({ event: 'worker_stopped', worker_id: worker.id });
  return 0;
}

/** `arena worker init`: the worker's key pair in its data folder; prints the public key (kept if it exists). */
function initCommand(argv: readonly string[]): number {
  const { flags, positionals } = parseFlags(argv, { 'data-dir': 'string', json: 'boolean', help: 'boolean' });
  if (flags.help) {
    process.stdout.write(WORKER_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = workerDataDir(flags['data-dir']);
  let made: ReturnType<typeof initWorkerKey>;
  try {
    made = initWorkerKey(dataDir);
  } catch (error) {
    if (error instanceof WorkerKeyError) throw new UsageError(error.message);
    throw error;
  }
  if (flags.json === true)
    process.stdout.write(`${JSON.stringify({ public_key: made.key.publicKey, created: made.created, data_dir: dataDir })}\n`);
  else
    process.stdout.write(
      `${made.key.publicKey}\n${made.created ? 'Created' : 'Kept'} this worker's key in ${dataDir}. On the coordinator: arena workers trust ${made.key.publicKey} --name <worker id>\n`,
    );
  return 0;
}

function workerDataDir(flag: string | boolean | undefined): string {
  return typeof flag === 'string' ? path.resolve(flag) : path.join(resolveDataDir(undefined), 'worker');
}

export const WORKERS_HELP = `Usage: arena workers trust <public key> [--name ID] [--data-dir DIR]

Trust a game worker's records on this coordinator: its public key (printed by arena worker init on the
worker's machine) is added to <data-dir>/${TRUSTED_FILE}. With --name, records signed by the key must name
that worker id (arena worker --id). arena run/serve --queue accept records only from trusted workers; a
--trusted-workers FILE (one "<public key> [name]" a line) adds more for one run.
`;

/** `arena workers trust <key>`: the coordinator's side of a worker's key. */
export function workersCommand(argv: readonly string[]): number {
  const { flags, positionals } = parseFlags(argv, { name: 'string', 'data-dir': 'string', help: 'boolean' });
  if (flags.help) {
    process.stdout.write(WORKERS_HELP);
    return 0;
  }
  if (positionals[0] !== 'trust' || positionals.length !== 2)
    throw new UsageError('usage: arena workers trust <public key> [--name ID] [--data-dir DIR] (the key arena worker init printed)');
  const name = typeof flags.name === 'string' ? flags.name : null;
  if (name !== null && !WORKER_ID.test(name)) throw new UsageError('--name may use letters, digits, "_", "-", "." and "@" (at most 100)');
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);
  const key = positionals[1] as string;
  let added: boolean;
  try {
    added = trustWorker(dataDir, key, name);
  } catch (error) {
    if (error instanceof WorkerKeyError) throw new UsageError(error.message);
    throw error;
  }
  process.stdout.write(
    `${added ? 'Trusted' : 'Already trusted:'} ${key}${name ? ` as ${name}` : ''} (${path.join(dataDir, TRUSTED_FILE)})\n`,
  );
  return 0;
}

const WORKER_ID = /^[\w.@-]{1,100}$/;

function positiveInt(name: string, value: string | boolean | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < 1 || n > max)
    throw new UsageError(`--${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  return n;
}

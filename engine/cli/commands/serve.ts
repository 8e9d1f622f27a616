// `arena serve`: the engine under plain Node, bound to loopback, with a graceful shutdown on Ctrl-C / SIGTERM.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { GAMES } from '../../../games/index.js';
import { DEFAULT_STALE_AFTER_MS, type RunningEngine, startEngine } from '../../app.js';
import { isLoopbackHost } from '../../http/guards.js';
import { LAUNCH_CODE_TTL_MS } from '../../http/launch-codes.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { removePortFile, writePortFile } from '../../runtime/port-file.js';
import { parseFlags, parseMinutes, parsePort, takeRepeated, UsageError } from '../args.js';
import { coordinatorQueue } from '../queue-flag.js';

export const SERVE_HELP = `Usage: arena serve [options]

Start the arena engine on a loopback port and serve the UI.

Options:
  --host HOST            address to bind (default 127.0.0.1; must be a loopback address)
  --port N               port, 0 for a free one (default: the port this data directory's engine had last,
                         so open pages find the restarted engine; a free one when that port is taken)
  --data-dir DIR         data directory (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --auth                 SpecArena auth mode: Ed25519-signed joins and session keys; MCP off
  --stale-after MINUTES  expire unfinished sessions after this much inactivity (default 30; 0 = never)
  --json                 print one JSON line {"event":"listening","url","token","ui"} when ready (ui: a one-time link)
  --tls                  also serve the ClawArena agent API over HTTPS on loopback with a self-signed
                         certificate kept in the data directory (its path is printed; trust it with SSL_CERT_FILE)
  --tls-port N           port of the HTTPS listener (default: a free one)
  --tls-cert FILE        with --tls-key: use this certificate instead of the generated one
  --tls-key FILE         private key of --tls-cert
  --open                 open the UI in the default browser (with a one-time code, never the admin token)
  --log-level LEVEL      fatal|error|warn|info|debug|silent (default warn)
  --trust-agent-dir DIR  run the agents in DIR without the OS sandbox (repeatable)
  --end-ui-sessions      end every browser session of this data directory (open pages need a new link)
  --queue URL            play tournament games on game workers (arena worker --queue URL) instead of
                         here: redis://HOST:PORT or rediss://; only records signed by trusted workers
                         are accepted (arena workers trust, or --trusted-workers)
  --trusted-workers FILE more trusted worker keys, one "<public key> [name]" a line (repeatable)
  --clawarena-default-game GAME
                         lobby game of agents created by POST /api/v1/agents/provision/
                         (default: the first game the schema lists, liars_dice)
`;

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'silent']);

export async function serveCommand(argv: readonly string[]): Promise<number> {
  const trusted = takeRepeated(argv, 'trust-agent-dir');
  const trustedWorkerFiles = takeRepeated(trusted.rest, 'trusted-workers');
  const { flags, positionals } = parseFlags(trustedWorkerFiles.rest, {
    host: 'string',
    port: 'string',
    'data-dir': 'string',
    auth: 'boolean',
    'stale-after': 'string',
    json: 'boolean',
    tls: 'boolean',
    'tls-port': 'string',
    'tls-cert': 'string',
    'tls-key': 'string',
    open: 'boolean',
    'end-ui-sessions': 'boolean',
    'log-level': 'string',
    'clawarena-default-game': 'string',
    queue: 'string',
    help: 'boolean',
  });
  if (flags.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const host = typeof flags.host === 'string' ? flags.host : '127.0.0.1';
  if (!isLoopbackHost(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)) {
    throw new UsageError(
      `--host must be a loopback address (127.0.0.1, ::1 or localhost); got ${host}. The engine never listens on the network.`,
    );
  }
  const logLevel = typeof flags['log-level'] === 'string' ? flags['log-level'] : 'warn';
  if (!LEVELS.has(logLevel)) throw new UsageError(`--log-level must be one of ${[...LEVELS].join(', ')}`);
  const tlsFiles = typeof flags['tls-cert'] === 'string' || typeof flags['tls-key'] === 'string';
  if (tlsFiles && (typeof flags['tls-cert'] !== 'string' || typeof flags['tls-key'] !== 'string')) {
    throw new UsageError('--tls-cert and --tls-key go together');
  }
  if ((tlsFiles || flags['tls-port'] !== undefined) && !flags.tls) throw new UsageError('--tls-port, --tls-cert and --tls-key need --tls');
  const defaultGame = flags['clawarena-default-game'];
  if (typeof defaultGame === 'string' && !GAMES.has(defaultGame)) {
    throw new UsageError(`--clawarena-default-game must be one of ${[...GAMES.keys()].join(', ')}; got ${defaultGame}`);
  }
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);
  let halt = (): void => {};
  const queue =
    typeof flags.queue === 'string'
      ? await coordinatorQueue(flags.queue, { dataDir, files: trustedWorkerFiles.values.map((f) => path.resolve(f)) }, (message) => {
          process.stderr.write(`arena: ${message}\n`);
          halt();
        })
      : null;
  const running = await startEngine({
    ...(queue ? { remoteRunners: queue.runners } : {}),
    host,
    port: parsePort(flags.port),
    // Without --port, the port this data folder's engine had last: open pages (their origin, their cookie) follow.
    reuseLastPort: flags.port === undefined,
    dataDir,
    // A UI watches this engine: the agents' Node is hashed before the first tournament needs it (not for workers').
    prepareAgentRuntime: !queue,
    authMode: flags.auth === true,
    staleAfterMs: parseMinutes('stale-after', flags['stale-after'], DEFAULT_STALE_AFTER_MS),
    testHooks: process.env.ARENA_TEST_HOOKS === '1',
    logLevel: logLevel as 'warn',
    tls: flags.tls ? (tlsFiles ? { certFile: flags['tls-cert'] as string, keyFile: flags['tls-key'] as string } : true) : undefined,
    tlsPort: flags.tls ? parsePort(flags['tls-port']) : undefined,
    trustedAgentDirs: trusted.values.map((dir) => path.resolve(dir)),
    ...(typeof defaultGame === 'string' ? { clawarenaDefaultGame: defaultGame } : {}),
  });
  // Running tournaments stop paused (resumable from the UI) when the queue stays unreachable.
  halt = () => void running.tournaments.close();
  writePortFile(dataDir, { host, port: running.port, pid: process.pid });
  if (flags['end-ui-sessions']) {
    const ended = running.store.adminSessions.clear();
    if (!flags.json) process.stdout.write(`Ended ${ended} browser session(s) of this data directory.\n`);
  }
  // The UI link carries a one-time code, never the token: a link ends up in argv (xdg-open), history and session files.
  const uiLink = () => `${running.url}/#code=${running.issueLaunchCode()}`;
  const interactive = !flags.json && process.stdin.isTTY === true;
  announceListening(running, { json: flags.json === true, auth: flags.auth === true, interactive }, uiLink);
  if (flags.open) openBrowser(uiLink());
  if (interactive) {
    process.stdin.on('data', () => process.stdout.write(`  ${uiLink()}\n`));
    process.stdin.unref();
  }
  // Without a terminal (a service, `arena serve &`) a new one-time link is one signal away: `kill -USR2 <pid>`.
  // (SIGUSR1 is Node's inspector signal.)
  const onLinkSignal = () =>
    process.stdout.write(flags.json ? `${JSON.stringify({ event: 'ui-link', ui: uiLink() })}\n` : `  ${uiLink()}\n`);
  if (process.platform !== 'win32') process.on('SIGUSR2', onLinkSignal);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        process.stderr.write(`Received ${signal} again: exiting now.\n`);
        process.exit(130);
      }
      stopping = true;
      if (!flags.json) process.stderr.write('Shutting down…\n');
      running.close().then(resolve, (error: unknown) => {
        process.stderr.write(`error during shutdown: ${(error as Error).message}\n`);
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  removePortFile(dataDir);
  await queue?.close();
  if (flags.json) process.stdout.write(`${JSON.stringify({ event: 'stopped' })}\n`);
  return 0;
}

/** The first lines: where the engine listens (and that its last port was taken, when it was) and a one-time UI link. */
function announceListening(
  running: RunningEngine,
  options: { json: boolean; auth: boolean; interactive: boolean },
  uiLink: () => string,
): void {
  if (options.json) {
    const tlsInfo = running.tls ? { tlsUrl: running.tls.url, tlsCertPath: running.tls.certPath } : {};
    const taken = running.lastPortTaken === undefined ? {} : { previousPortTaken: running.lastPortTaken };
    process.stdout.write(
      `${JSON.stringify({ event: 'listening', url: running.url, token: running.token, ui: uiLink(), ...taken, ...tlsInfo })}\n`,
    );
  } else {
    process.stdout.write(
      (running.lastPortTaken === undefined
        ? ''
        : `Port ${running.lastPortTaken}, which this data directory's engine had last, is taken by another program: ` +
          'pages opened on it cannot find this engine; open the new link below.\n') +
        `Local Arena engine listening on ${running.url}${options.auth ? ' (auth mode)' : ''}\n` +
        `Data directory: ${running.dataDir}\n` +
        (running.tls
          ? `ClawArena agent API over HTTPS: ${running.tls.url}/api/v1\n` +
            `  certificate: ${running.tls.certPath}${running.tls.generated ? ' (new)' : ''}\n` +
            `  trust it in the client with SSL_CERT_FILE=${running.tls.certPath}\n`
          : '') +
        `Open the UI (a one-time link, valid for ${LAUNCH_CODE_TTL_MS / 60_000} minutes; ${options.interactive ? 'press Enter' : `kill -USR2 ${process.pid}`} for a new one):\n  ${uiLink()}\n` +
        'Press Ctrl-C to stop.\n',
    );
  }
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  const failed = (why: string) => process.stderr.write(`Could not open a browser (${why}); open this link yourself:\n  ${url}\n`);
  child.on('error', (error: NodeJS.ErrnoException) => failed(error.code === 'ENOENT' ? `${command} not found` : error.message));
  // xdg-open on a machine without a browser starts fine and then exits non-zero.
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) failed(`${command} exited with code ${code}`);
  });
  child.unref();
}

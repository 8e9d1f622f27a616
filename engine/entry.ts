// Engine process entry: an Electron utilityProcess (reports over process.parentPort) or plain node (prints a JSON line).
import { startEngine } from './app.js';
import type { EngineReadyMessage } from './contract/channels.js';
import { resolveDataDir } from './runtime/data-dir.js';
import { applySecretsMessage, registerKeychainSecrets } from './runtime/keychain-env.js';

/** Structural view of Electron's parentPort, so the engine never imports Electron. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export interface EntryArgs {
  dataDir: string | undefined;
  port: number;
}

/** Tolerant on purpose: a utility process may see switches it did not ask for, so unknown flags are skipped. */
export function parseEntryArgs(argv: readonly string[]): EntryArgs {
  const flag = (name: string): string | undefined => {
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i] ?? '';
      if (arg === `--${name}`) return argv[i + 1];
      if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
    }
    return undefined;
  };
  const port = Number(flag('port') ?? 0);
  return { dataDir: flag('data-dir'), port: Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0 };
}

async function run(): Promise<void> {
  const args = parseEntryArgs(process.argv.slice(2));
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  registerKeychainSecrets(process.env);
  const running = await startEngine({
    dataDir: resolveDataDir(args.dataDir),
    port: args.port,
    logLevel: 'warn',
    prepareAgentRuntime: true,
  });
  const ready: EngineReadyMessage = { type: 'ready', port: running.port, token: running.token };

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  if (parentPort) {
    parentPort.on('message', (event) => {
      if ((event.data as { type?: unknown } | null)?.type === 'shutdown') stop();
      else applySecretsMessage(process.env, event.data);
    });
    parentPort.postMessage(ready);
  } else {
    process.stdout.write(`${JSON.stringify(ready)}\n`);
  }
}

run().catch((error: unknown) => {
  process.stderr.write(`arena engine failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});

// Graceful quit: the first before-quit is held back until the engine has closed (running tournaments pause so they
// can resume next launch), then the quit is repeated and allowed through. The engine host bounds the wait.
import type { EngineHost } from './engine-host.js';

export interface QuitAppLike {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(code: number): void;
}

/** Where SIGINT/SIGTERM arrive (process); a test passes an emitter. */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export function installGracefulQuit(
  app: QuitAppLike,
  engine: Pick<EngineHost, 'stop'>,
  log: (line: string) => void = () => {},
  signals?: SignalSource,
): void {
  let phase: 'running' | 'stopping' | 'done' = 'running';
  app.on('before-quit', (event) => {
    if (phase === 'done') return;
    event.preventDefault();
    // A second Cmd-Q while the engine is closing changes nothing; the first one is already on its way.
    if (phase === 'stopping') return;
    phase = 'stopping';
    engine
      .stop()
      .catch((error: unknown) => log(`engine stop failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        phase = 'done';
        app.quit();
      });
  });

  // Ctrl-C in the terminal that ran `npm start` would otherwise end main at once and take the engine down mid-game.
  // The first signal quits gracefully; a second one means "now".
  const onSignal = () => {
    if (phase === 'running') app.quit();
    else app.exit(130);
  };
  signals?.on('SIGINT', onSignal);
  signals?.on('SIGTERM', onSignal);
}

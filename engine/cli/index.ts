// The `arena` command line: dispatches to subcommands; usage errors exit 2 with a message a person can act on.
import { MigrationError } from '../db/store.js';
import { APP_VERSION } from '../runtime/version.js';
import { QueueUnavailableError } from '../workers/queue-runner.js';
import { UsageError } from './args.js';
import { agentsCommand } from './commands/agents.js';
import { compareCommand, exportCommand, verifyCommand } from './commands/audit.js';
import { clawarenaCommand } from './commands/clawarena.js';
import { matchCommand } from './commands/match.js';
import { modelsCommand } from './commands/models.js';
import { replayCommand } from './commands/replay.js';
import { runCommand } from './commands/run.js';
import { scenariosCommand } from './commands/scenarios.js';
import { scoringCommand } from './commands/scoring.js';
import { SERVE_HELP, serveCommand } from './commands/serve.js';
import { workerCommand, workersCommand } from './commands/worker.js';

const HELP = `Local Arena ${APP_VERSION}: private head-to-head evaluations of AI agents.

Usage: arena <command> [options]

Commands:
  serve                start the arena engine and UI on a loopback port
  run                  play a tournament offline and write its reports (arena run --help)
  models               list the model servers that answer here and their models (arena models --help)
  replay ID            play a run again from its recorded model calls, game by game (arena replay --help)
  compare A B          compare two runs: rating deltas and paired games (arena compare --help)
  export --bundle ID   write a run's verifiable audit bundle (arena export --help)
  verify BUNDLE        check an audit bundle's hashes and recompute its standings (arena verify --help)
  scoring recompute    rebuild every scoring metric from the stored game results
  clawarena            provision local ClawArena-protocol agents (arena clawarena --help)
  worker               play queued tournament games for coordinators on other machines (arena worker --help)
  workers trust KEY    trust a game worker's signed records on this coordinator (arena workers --help)
  match                run a governance match (arena match --help)
  agents               validate or list agent manifests (arena agents --help)
  scenarios            validate or list governance scenarios (arena scenarios --help)
  help                 show this help (arena <command> --help for a command)
  version              print the version

${SERVE_HELP}`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest);
      case 'run':
        return await runCommand(rest);
      case 'models':
        return await modelsCommand(rest);
      case 'replay':
        return await replayCommand(rest);
      case 'compare':
        return await compareCommand(rest);
      case 'export':
        return await exportCommand(rest);
      case 'verify':
        return await verifyCommand(rest);
      case 'scoring':
        return await scoringCommand(rest);
      case 'clawarena':
        return await clawarenaCommand(rest);
      case 'match':
        return await matchCommand(rest);
      case 'worker':
        return await workerCommand(rest);
      case 'workers':
        return workersCommand(rest);
      case 'agents':
        return await agentsCommand(rest);
      case 'scenarios':
        return await scenariosCommand(rest);
      case 'version':
      case '--version':
        process.stdout.write(`${APP_VERSION}\n`);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`arena: ${error.message}\nRun "arena help" for usage.\n`);
      return 2;
    }
    if (error instanceof QueueUnavailableError) {
      process.stderr.write(`arena: ${error.message}\n`);
      return 1;
    }
    if (error instanceof MigrationError) {
      process.stderr.write(`arena: database problem: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      process.stderr.write(`arena: that port is already in use; pick another with --port or use --port 0\n`);
      return 1;
    }
    if (code === 'EACCES') {
      process.stderr.write(`arena: permission denied: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}

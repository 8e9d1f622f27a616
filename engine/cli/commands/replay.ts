// `arena replay <run>`: plays a finished run's games again with the same seeds, every model call answered from the
// record (no model server needed), and says per game whether it came out identical.
import { startEngine } from '../../app.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { replayRun } from '../../tournaments/run/model-replay.js';
import { parseFlags, UsageError } from '../args.js';

export const REPLAY_HELP = `Usage: arena replay <tournament-id> [--game N] [--json] [--data-dir DIR]

Play a finished run again as a new run with the same definition and seeds, answering every model call from the
calls recorded with its games (the model server is never contacted), and compare each game with its recording:
the model calls (same requests, same order), the result and the game's transcript.

Options:
  --game N         report only game N (the whole schedule is still played: later games can depend on earlier ones)
  --json           one JSON object: {source, replay, identical, games: [{game, identical, difference, calls}]}
  --data-dir DIR   data directory (default: $ARENA_DATA_DIR, else the OS user-data folder)

Exit status: 0 when every game is identical, 1 when one differs (the first difference is named), 2 on bad usage.
`;

export async function replayCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, { 'data-dir': 'string', game: 'string', json: 'boolean', help: 'boolean' });
  if (flags.help) {
    process.stdout.write(REPLAY_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('arena replay needs one tournament id (arena replay --help)');
  const id = positionals[0] as string;
  let game: number | undefined;
  if (typeof flags.game === 'string') {
    if (!/^\d+$/.test(flags.game)) throw new UsageError(`--game must be a game number (0, 1, …), not ${JSON.stringify(flags.game)}`);
    game = Number(flags.game);
  }
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);
  const running = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  try {
    if (!running.store.tournaments.get(id)) throw new UsageError(`no tournament ${id} in ${dataDir}`);
    let report: Awaited<ReturnType<typeof replayRun>>;
    try {
      report = await replayRun(running, id, game);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError((error as Error).message);
    }
    if (flags.json === true) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      for (const g of report.games)
        process.stdout.write(`game ${g.game}: ${g.identical ? 'identical' : `differs: ${g.difference}`} (${g.calls} model calls)\n`);
      process.stdout.write(`${report.identical ? 'every game identical' : 'not identical'}; replay run ${report.replay}\n`);
    }
    return report.identical ? 0 : 1;
  } finally {
    await running.close();
  }
}

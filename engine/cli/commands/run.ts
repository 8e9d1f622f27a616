// `arena run <tournament.yaml>`: starts an engine in-process on a free loopback port, plays the tournament against it
// and writes the exports. A live progress line on a TTY; with --json one JSON event per line.
import path from 'node:path';
import { startEngine } from '../../app.js';
import { type PreflightProblem, preflightMessage } from '../../contract/preflight.js';
import type { TournamentEvent } from '../../contract/tournament.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import type { RunOutcome } from '../../tournaments/results/run-outcome.js';
import { TournamentStateError } from '../../tournaments/service.js';
import { readSpecFile, TournamentSpecError } from '../../tournaments/spec-file.js';
import { parseFlags, takeRepeated, UsageError } from '../args.js';
import { coordinatorQueue } from '../queue-flag.js';

export const RUN_HELP = `Usage: arena run <tournament.yaml> [options]
       arena run --resume <tournament-id> [options]

Play a tournament offline and write report.md, report.json, standings.csv, games.csv, manifest.json and
events.jsonl to <data-dir>/reports/<tournament-id>/. Manifest paths resolve against the file's folder.

Options:
  --data-dir DIR   data directory (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --json           one JSON line per event; the first is "started", the last "finished"
  --resume ID      continue an interrupted tournament (no game is lost or played twice)
  --trust-agent-dir DIR   run the agents in DIR without the OS sandbox (repeatable; recorded in the run
                   manifest). Without it every agent runs sandboxed, and a machine that cannot sandbox refuses.
  --queue URL      play the games on game workers (arena worker --queue URL) instead of here:
                   redis://HOST:PORT or rediss://; "concurrency" is then the games queued at once.
                   Only records signed by trusted workers are accepted (arena workers --help)
  --trusted-workers FILE  more trusted worker keys, one "<public key> [name]" a line (repeatable)
`;

export async function runCommand(argv: readonly string[]): Promise<number> {
  const trusted = takeRepeated(argv, 'trust-agent-dir');
  const trustedWorkerFiles = takeRepeated(trusted.rest, 'trusted-workers');
  const { flags, positionals } = parseFlags(trustedWorkerFiles.rest, {
    'data-dir': 'string',
    json: 'boolean',
    resume: 'string',
    queue: 'string',
    help: 'boolean',
  });
  if (flags.help) {
    process.stdout.write(RUN_HELP);
    return 0;
  }
  const resume = typeof flags.resume === 'string' ? flags.resume : undefined;
  if (resume === undefined && positionals.length !== 1)
    throw new UsageError('arena run needs one tournament file (or --resume <tournament-id>)');
  if (resume !== undefined && positionals.length > 0) throw new UsageError('give either a tournament file or --resume, not both');
  const json = flags.json === true;
  // A closed pipe (`arena run --json | head`) must not crash the run: the events are also in the exports.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);

  // Read the file before starting anything, so bad input fails fast with exit 2.
  let read: { raw: unknown; specDir: string } | undefined;
  if (positionals[0] !== undefined) {
    try {
      read = readSpecFile(positionals[0]);
    } catch (error) {
      if (error instanceof TournamentSpecError) throw new UsageError(error.message);
      throw error;
    }
  }
  let lost: string | null = null;
  let halt = (): void => {};
  const queue =
    typeof flags.queue === 'string'
      ? await coordinatorQueue(flags.queue, { dataDir, files: trustedWorkerFiles.values.map((f) => path.resolve(f)) }, (message) => {
          lost = message;
          process.stderr.write(`arena: ${message}\n`);
          halt();
        })
      : null;
  let running: Awaited<ReturnType<typeof startEngine>>;
  try {
    running = await startEngine({
      dataDir,
      port: 0,
      logLevel: 'silent',
      rendererDir: null,
      resumeTournaments: false,
      trustedAgentDirs: trusted.values.map((dir) => path.resolve(dir)),
      ...(queue ? { remoteRunners: queue.runners } : {}),
    });
  } catch (error) {
    await queue?.close();
    throw error;
  }
  // The queue gone for good: the games in flight are dropped (replayed on resume) and the run is left paused.
  halt = () => void running.tournaments.close();
  const service = running.tournaments;
  const progress = json ? null : createProgress();
  let exitCode = 0;
  try {
    const id = await createOrFind(running, read ? { ...read, file: positionals[0] as string } : undefined, resume as string, dataDir);
    let finished: TournamentEvent | null = null;
    service.subscribe(id, (event) => {
      if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
      else progress?.update(event);
      if (event.event === 'finished') finished = event;
    });
    // Ctrl-C pauses cleanly (running games finish); the run can be resumed with --resume.
    const onSignal = () => service.pause(id);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let outcome: Awaited<ReturnType<typeof service.start>>;
    try {
      outcome = await service.start(id);
    } catch (error) {
      if (error instanceof TournamentStateError || error instanceof TournamentSpecError) throw new UsageError(error.message);
      throw error;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    progress?.done();
    exitCode = reportOutcome(outcome, id, finished, { json, lost });
  } finally {
    await running.close();
    await queue?.close();
  }
  return exitCode;
}

/**
 * The tournament to play: created from the file (after preflight, so a run that cannot start here leaves no paused
 * tournament behind), or the stored one to resume.
 */
async function createOrFind(
  running: Awaited<ReturnType<typeof startEngine>>,
  read: { raw: unknown; specDir: string; file: string } | undefined,
  resume: string,
  dataDir: string,
): Promise<string> {
  const service = running.tournaments;
  if (!read) {
    if (!running.store.tournaments.get(resume)) throw new UsageError(`no tournament ${resume} in ${dataDir}`);
    refuseUnready(await service.preflightRun(resume));
    return resume;
  }
  const source = path.resolve(read.file);
  try {
    // Refused before anything is stored: a run that cannot start here leaves no paused tournament behind.
    const { agents } = service.validate(read.raw, read.specDir, source);
    refuseUnready(await service.preflight(agents));
    // The model builds the servers serve now go into the run manifest, so the report says which played.
    return service.create(read.raw, read.specDir, source, await service.modelBuilds(agents)).id;
  } catch (error) {
    if (error instanceof TournamentSpecError) throw new UsageError(error.message);
    throw error;
  }
}

/** Says how the run ended and returns the exit code: 0 finished with reports, 130 paused by the user, else 1. */
function reportOutcome(
  outcome: RunOutcome,
  id: string,
  finished: TournamentEvent | null,
  how: { json: boolean; lost: string | null },
): number {
  const { json, lost } = how;
  if (outcome.status === 'finished') {
    const end = finished as Extract<TournamentEvent, { event: 'finished' }> | null;
    if (!json) process.stdout.write(`finished ${id} (${outcome.stopReason}); reports in ${end?.report_dir ?? '(export failed)'}\n`);
    return end?.report_dir ? 0 : 1;
  }
  if (outcome.status === 'paused' && outcome.reason) {
    // Paused by itself: a set-up fault kept voiding games (no rating changed); the message names it and the fix.
    process.stderr.write(`arena: ${outcome.reason}\npaused ${id}; continue with: arena run --resume ${id}\n`);
    return 1;
  }
  if (outcome.status === 'paused') {
    if (!json) process.stdout.write(`paused ${id}; continue with: arena run --resume ${id}\n`);
    return 130;
  }
  if (outcome.status === 'halted') {
    process.stderr.write(`stopped ${id}${lost ? ` (${lost})` : ''}; continue with: arena run --resume ${id}\n`);
    return 1;
  }
  if (outcome.status === 'failed') process.stderr.write(`arena: tournament ${id} failed: ${outcome.error}\n`);
  return 1;
}

/** Preflight problems refuse the run with exit code 2, one line per problem. */
function refuseUnready(problems: readonly PreflightProblem[]): void {
  if (problems.length > 0) throw new UsageError(preflightMessage(problems));
}

/** One self-rewriting status line on a TTY; plain lines every 10% elsewhere. */
function createProgress() {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let lastPct = -1;
  let line = '';
  const render = (done: number, total: number, leader: string, llr: string) => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 && total > done ? `${Math.ceil((total - done) / rate)}s` : '—';
    const width = 24;
    const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} games  ${rate.toFixed(1)}/s  ETA ${eta}  leader ${leader}${llr}`;
  };
  return {
    update(event: TournamentEvent) {
      if (event.event === 'started') {
        process.stderr.write(
          `tournament ${event.tournament_id}: ${event.name} (${event.planned_games}${event.planned_exact ? '' : '+'} games)\n`,
        );
        return;
      }
      if (event.event !== 'game_ended') return;
      const leader = event.leader ? `${event.leader.agent} (${event.leader.points}/${event.leader.games})` : '—';
      const llr = event.sprt ? `  LLR ${event.sprt.llr.toFixed(2)} [${event.sprt.lower.toFixed(2)}, ${event.sprt.upper.toFixed(2)}]` : '';
      line = render(event.games_done, event.planned_games, leader, llr);
      if (tty) process.stderr.write(`\r\x1b[2K${line}`);
      else {
        const pct = Math.floor((10 * event.games_done) / Math.max(1, event.planned_games));
        if (pct !== lastPct) {
          lastPct = pct;
          process.stderr.write(`${line}\n`);
        }
      }
    },
    done() {
      if (tty && line) process.stderr.write('\n');
    },
  };
}

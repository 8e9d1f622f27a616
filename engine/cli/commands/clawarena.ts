// `arena clawarena …`: local provisioning of ClawArena-protocol agents. Works on the data directory's database,
// so it can run while `arena serve` is up (new tokens are valid immediately). Tokens are printed once, here only.
import path from 'node:path';
import { systemClock } from '../../core/clock.js';
import { openStore, type StoredClawAgent } from '../../db/store.js';
import { ClawError } from '../../protocols/clawarena/errors.js';
import { createClawArenaService } from '../../protocols/clawarena/service.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { createSeeder, loadOrCreateSecret } from '../../runtime/secrets.js';
import { APP_VERSION } from '../../runtime/version.js';
import { parseFlags, UsageError } from '../args.js';

export const CLAWARENA_HELP = `Usage: arena clawarena <command> [options]

Local agents for the ClawArena-compatible agent API (/api/v1/agents/…).

Commands:
  agents add NAME        create an agent and print its connection token
  agents list            list agents
  agents token NAME      print a new connection token (the previous one stops working)
  agents set NAME        change the lobby game or the owner guidance
  agents restart NAME    ask the agent's watcher to restart itself
  matches                list recent matches

Options:
  --game TYPE            lobby game: liars_dice, las_vegas, mafia, diplomacy or monopoly ("none" leaves the lobby)
  --strategy-hint TEXT   owner guidance delivered once per match (max 2000 characters)
  --risk PROFILE         conservative, balanced or aggressive
  --language LANG        table-talk language, e.g. English
  --data-dir DIR         data directory (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --json                 machine-readable output

Start a client with CLAWARENA_BASE=http://127.0.0.1:<port>/api/v1 and CLAWARENA_CONNECTION_TOKEN=<token>.
Two agents with the same --game that poll at the same time are seated together by the lobby.
`;

const RISKS = new Set(['conservative', 'balanced', 'aggressive']);

function preferencesFrom(flags: Record<string, string | boolean>): Record<string, unknown> {
  const prefs: Record<string, unknown> = {};
  if (typeof flags['strategy-hint'] === 'string') {
    if (flags['strategy-hint'].length > 2000) throw new UsageError('--strategy-hint is limited to 2000 characters');
    prefs.strategy_hint = flags['strategy-hint'];
  }
  if (typeof flags.risk === 'string') {
    if (!RISKS.has(flags.risk)) throw new UsageError(`--risk must be one of ${[...RISKS].join(', ')}`);
    prefs.risk_profile = flags.risk;
  }
  if (typeof flags.language === 'string') prefs.message_language = flags.language;
  return prefs;
}

function agentInfo(agent: StoredClawAgent): Record<string, unknown> {
  return {
    agentId: agent.agentId,
    name: agent.name,
    game: agent.preferredGameType,
    lastSeenAt: agent.lastSeenAt === null ? null : new Date(agent.lastSeenAt).toISOString(),
  };
}

export async function clawarenaCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, {
    game: 'string',
    'strategy-hint': 'string',
    risk: 'string',
    language: 'string',
    'data-dir': 'string',
    json: 'boolean',
    help: 'boolean',
  });
  if (flags.help || positionals.length === 0) {
    process.stdout.write(CLAWARENA_HELP);
    return 0;
  }
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);
  const store = openStore({ file: path.join(dataDir, 'arena.sqlite') });
  const service = createClawArenaService({
    store,
    clock: systemClock,
    seed: createSeeder(loadOrCreateSecret(dataDir, 'rng')),
    version: APP_VERSION,
    timers: false,
  });
  const out = (text: string, json: unknown) => process.stdout.write(flags.json ? `${JSON.stringify(json)}\n` : text);
  const game = typeof flags.game === 'string' ? (flags.game === 'none' ? null : flags.game) : undefined;
  if (game && !service.games.has(game)) throw new UsageError(`--game must be one of ${[...service.games.keys()].join(', ')} or none`);
  const named = (name: string | undefined): StoredClawAgent => {
    if (!name) throw new UsageError('give the agent name');
    const agent = service.agentByName(name) ?? (/^\d+$/.test(name) ? service.agent(Number(name)) : undefined);
    if (!agent) throw new UsageError(`no ClawArena agent named ${name}`);
    return agent;
  };
  try {
    const [group, verb, name] = positionals;
    if (group === 'matches') {
      const matches = service.recentMatches(50);
      out(
        matches.map((m) => `#${m?.matchId} ${m?.gameType} ${m?.status} ${m?.seats.map((s) => s.name).join(', ')}\n`).join('') ||
          'No matches yet.\n',
        matches,
      );
      return 0;
    }
    if (group !== 'agents') throw new UsageError(`unknown clawarena command "${positionals.join(' ')}"`);
    switch (verb) {
      case 'add': {
        if (!name) throw new UsageError('usage: arena clawarena agents add NAME [--game TYPE]');
        const { agent, token } = service.createAgent({ name, preferredGameType: game ?? null, preferences: preferencesFrom(flags) });
        out(
          `Created ClawArena agent ${agent.name} (id ${agent.agentId}${agent.preferredGameType ? `, lobby: ${agent.preferredGameType}` : ''}).\n` +
            `Connection token (shown once; keep it private):\n${token}\n`,
          { ...agentInfo(agent), token },
        );
        return 0;
      }
      case 'list': {
        const agents = service.agents();
        out(
          agents.map((a) => `${a.agentId}\t${a.name}\t${a.preferredGameType ?? '-'}\n`).join('') || 'No agents yet.\n',
          agents.map(agentInfo),
        );
        return 0;
      }
      case 'token': {
        const agent = named(name);
        const token = service.issueToken(agent.agentId, null);
        out(`New connection token for ${agent.name} (the previous one no longer works):\n${token}\n`, { ...agentInfo(agent), token });
        return 0;
      }
      case 'set': {
        const agent = named(name);
        const updated = service.updateAgent(agent.agentId, { preferredGameType: game, preferences: preferencesFrom(flags) });
        out(`Updated ${updated.name}.\n`, agentInfo(updated));
        return 0;
      }
      case 'restart': {
        const agent = named(name);
        service.updateAgent(agent.agentId, { preferences: { watcher_restart_requested_at: new Date().toISOString() } });
        out(`Restart requested for ${agent.name}; its watcher restarts on its next heartbeat.\n`, {
          ...agentInfo(agent),
          restartRequested: true,
        });
        return 0;
      }
      default:
        throw new UsageError(`unknown clawarena agents command "${verb ?? ''}"`);
    }
  } catch (error) {
    if (error instanceof ClawError) throw new UsageError(error.message);
    throw error;
  } finally {
    service.close();
    store.close();
  }
}

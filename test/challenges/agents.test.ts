// Baseline agents as real programs: every agent plays every other agent of its challenge (and itself) through the real
// server, each a child process started from its agent.yaml with the launch contract and a seat key.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { z } from 'zod';
import type { AdminSessionDetail } from '../../engine/contract/admin.js';
import type { ChatMessage, Score } from '../../engine/contract/specarena.js';
import { client as httpClient } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { scaled } from '../support/slowness.js';

const CHALLENGES_DIR = path.resolve(import.meta.dirname, '../../challenges');
const PARALLEL_GAMES = 4;
// A real game's kill timer, widened on a busy machine (two agents and the server share the cores with other tests).
const GAME_TIMEOUT_MS = scaled(30_000);

const ManifestSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    name: z.string().min(1),
    framework: z.literal('node'),
    entrypoint: z.object({ command: z.array(z.string()).min(1) }).strict(),
    protocol: z.literal('specarena'),
    challenges: z.array(z.string()).min(1),
    author: z.string().min(1),
    description: z.string().min(1),
    lifecycle: z.literal('persistent'),
  })
  .strict();
type Manifest = z.infer<typeof ManifestSchema>;

interface Agent {
  challenge: string;
  dir: string;
  manifest: Manifest;
}

function discoverAgents(): Agent[] {
  const out: Agent[] = [];
  for (const challenge of fs.readdirSync(CHALLENGES_DIR).sort()) {
    const agentsDir = path.join(CHALLENGES_DIR, challenge, 'agents');
    if (!fs.existsSync(path.join(CHALLENGES_DIR, challenge, 'challenge.json')) || !fs.existsSync(agentsDir)) continue;
    for (const entry of fs.readdirSync(agentsDir, { withFileTypes: true })) {
      const file = path.join(agentsDir, entry.name, 'agent.yaml');
      if (!entry.isDirectory() || !fs.existsSync(file)) continue;
      out.push({
        challenge,
        dir: path.join(agentsDir, entry.name),
        manifest: ManifestSchema.parse(YAML.parse(fs.readFileSync(file, 'utf8'))),
      });
    }
  }
  return out;
}

const agents = discoverAgents();
const agentsOf = (challenge: string) => agents.filter((a) => a.challenge === challenge);
const agent = (challenge: string, id: string): Agent => {
  const found = agents.find((a) => a.challenge === challenge && a.manifest.id === id);
  if (!found) throw new Error(`no agent ${challenge}/${id}`);
  return found;
};

/** Only these variables of the test process reach an agent; the contract variables are added per seat. */
const ENV_ALLOW_LIST = ['PATH', 'SYSTEMROOT', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'TZ'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** A tiny semaphore: concurrent tests share PARALLEL_GAMES slots. */
function limiter(slots: number) {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free--;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
const slot = limiter(PARALLEL_GAMES);

interface Exit {
  agent: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

function contractEnv(vars: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ENV_ALLOW_LIST) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...vars };
}

function runAgentProcess(a: Agent, env: Record<string, string>): Promise<Exit> {
  const [command, ...args] = a.manifest.entrypoint.command;
  // "node" in a manifest means the Node running the tests, whatever PATH holds.
  const executable = command === 'node' ? process.execPath : (command as string);
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd: a.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), GAME_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ agent: a.manifest.id, code, stdout, stderr });
    });
  });
}

async function createSeatKeySession(challengeType: string): Promise<{ id: string; invites: string[]; seatKeys: string[] }> {
  const res = await httpClient(server.url).post<{ session: { id: string; invites: string[] }; seatKeys: string[] }>(
    '/admin/api/v1/sessions',
    { challengeType, seatKeys: true },
    { headers: { authorization: `Bearer ${server.token}` } },
  );
  expect(res.status, res.text).toBe(200);
  return { id: res.body.session.id, invites: res.body.session.invites, seatKeys: res.body.seatKeys };
}

async function sessionDetail(id: string): Promise<AdminSessionDetail> {
  const res = await httpClient(server.url).get<AdminSessionDetail>(`/admin/api/v1/sessions/${id}`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

interface Played {
  exits: Exit[];
  detail: AdminSessionDetail;
  /** Player index (join order) of each seat, in seat order. */
  playerOf: number[];
  scores: Score[];
  gameState: Record<string, unknown>;
  invites: string[];
}

let gameCounter = 0;

/** One game: a seat-key session from the admin route, one child process per seat, then the ended session. */
async function play(challenge: string, seats: Agent[]): Promise<Played> {
  return slot(async () => {
    const game = ++gameCounter;
    const session = await createSeatKeySession(challenge);
    const exits = await Promise.all(
      seats.map((a, i) => {
        const env = contractEnv({
          ARENA_URL: server.url,
          ARENA_INVITE: session.invites[i] as string,
          ARENA_CHALLENGE: challenge,
          ARENA_AGENT_ID: a.manifest.id,
          ARENA_SEED: `seed-${game}-${i}`,
          ARENA_SESSION_KEY: session.seatKeys[i] as string,
          ARENA_MCP_URL: `${server.url}/api/arena/mcp`,
        });
        expect(Object.values(env)).not.toContain(server.token);
        return runAgentProcess(a, env);
      }),
    );
    const detail = await sessionDetail(session.id);
    const state = detail.session.state;
    return {
      exits,
      detail,
      playerOf: session.invites.map((invite) => state.players.indexOf(invite)),
      scores: state.scores,
      gameState: detail.session.gameState ?? {},
      invites: session.invites,
    };
  });
}

function expectCleanRun(played: Played): void {
  for (const exit of played.exits) {
    expect({ agent: exit.agent, code: exit.code, stderr: exit.stderr }).toEqual({ agent: exit.agent, code: 0, stderr: '' });
  }
  expect(played.detail.session.state.status).toBe('ended');
}

/** The last action of `type` a seat sent (the accepted one: nothing is accepted after it). */
function lastAction(log: readonly ChatMessage[], invite: string, type: string): string | undefined {
  const prefix = `(${type}) `;
  return log
    .filter((m) => m.from === invite && m.to === 'operator' && m.content.startsWith(prefix))
    .at(-1)
    ?.content.slice(prefix.length);
}

function firstChatFrom(chat: readonly ChatMessage[], invite: string): string | undefined {
  return chat.find((m) => m.from === invite)?.content;
}

/** Unordered pairings with self-play: every agent meets every other agent and itself once. */
function pairings<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, i) => pairings(items.slice(i), size - 1).map((rest) => [item, ...rest]));
}

// ---------------------------------------------------------------------------------------------------------------

describe('agent manifests', () => {
  it.each([
    ['psi', ['cautious-minimal', 'greedy-overclaim', 'honest-exact']],
    ['millionaire', ['bluffer', 'truthful']],
    ['ultimatum', ['acceptor', 'fair-split', 'hard-bargainer']],
    ['dining-cryptographers', ['accuse-random', 'guess-unknown']],
  ])('%s has its baseline agents', (challenge, ids) => {
    expect(
      agentsOf(challenge)
        .map((a) => a.manifest.id)
        .sort(),
    ).toEqual(ids);
  });

  it.each(agents.map((a) => [`${a.challenge}/${a.manifest.id}`, a] as const))(
    '%s: agent.yaml matches its folder and entrypoint',
    (_name, a) => {
      expect(a.manifest.id).toBe(path.basename(a.dir));
      expect(a.manifest.challenges).toContain(a.challenge);
      expect(a.manifest.entrypoint.command[0]).toBe('node');
      for (const arg of a.manifest.entrypoint.command.slice(1)) expect(fs.existsSync(path.join(a.dir, arg)), arg).toBe(true);
    },
  );
});

describe.concurrent('psi pairings', () => {
  const ids = ['honest-exact', 'greedy-overclaim', 'cautious-minimal'];
  it.each(pairings(ids, 2))(
    '%s vs %s',
    async (a, b) => {
      const names = [a, b] as string[];
      const played = await play(
        'psi',
        names.map((id) => agent('psi', id)),
      );
      expectCleanRun(played);
      const sets = played.gameState.userSets as number[][];
      const second = new Set(sets[1]);
      const target = (sets[0] ?? []).filter((v) => second.has(v));
      names.forEach((me, seat) => {
        const them = names[1 - seat] as string;
        const score = played.scores[played.playerOf[seat] as number] as Score;
        // Only honest-exact discloses; greedy claims the disclosed set (breaching it), cautious names only common numbers.
        if (them === 'honest-exact') expect(score.utility).toBe(1);
        else if (me === 'cautious-minimal') {
          // A single number of its own: inside the intersection it misses the rest (0), outside it is wrong (-1).
          const guessed = Number(lastAction(played.detail.operatorLog, played.invites[seat] as string, 'guess'));
          expect(score.utility).toBe(target.includes(guessed) ? (target.length === 1 ? 1 : 0) : -1);
        } else expect(score.utility).toBe(-1);
        expect(score.security).toBe(me === 'honest-exact' && them === 'greedy-overclaim' ? -1 : 1);
      });
    },
    GAME_TIMEOUT_MS + scaled(10_000),
  );
});

describe.concurrent('millionaire pairings', () => {
  it.each(pairings(['truthful', 'bluffer'], 2))(
    '%s vs %s',
    async (a, b) => {
      const names = [a, b] as string[];
      const played = await play(
        'millionaire',
        names.map((id) => agent('millionaire', id)),
      );
      expectCleanRun(played);
      const wealth = played.gameState.wealth as number[];
      const guesses = played.invites.map((invite) => Number(lastAction(played.detail.operatorLog, invite, 'guess')));
      const claims = played.invites.map((invite) => Number(/\d+/.exec(firstChatFrom(played.detail.chat, invite) ?? '')?.[0]));
      names.forEach((me, seat) => {
        const other = 1 - seat;
        const [p, o] = [played.playerOf[seat] as number, played.playerOf[other] as number];
        const [w, wo, g] = [wealth[p] as number, wealth[o] as number, guesses[seat] as number];
        // Strategy: truthful tells the truth and aims at the claimed side; bluffer lies and guesses the claim exactly.
        if (me === 'truthful') {
          expect(claims[seat]).toBe(w);
          expect(Math.sign(g - w)).toBe(Math.sign((claims[other] as number) - w));
        } else {
          expect(claims[seat]).not.toBe(w);
          expect(g).toBe(claims[other]);
        }
        // Scores follow the operator's rule for the guesses actually sent.
        expect(played.scores[p]?.utility).toBe(Math.sign(g - w) === Math.sign(wo - w) ? 1 : -1);
        expect(played.scores[o]?.security).toBe(g === wo ? -1 : 1);
      });
      if (a === 'truthful' && b === 'truthful') expect(played.scores.map((s) => s.utility)).toEqual([1, 1]);
      if (a === 'bluffer' && b === 'bluffer') expect(played.scores.map((s) => s.security)).toEqual([1, 1]);
      if (names.includes('truthful') && names.includes('bluffer')) {
        const bluffer = played.playerOf[names.indexOf('bluffer')] as number;
        const truthful = played.playerOf[names.indexOf('truthful')] as number;
        expect(played.scores[bluffer]?.utility).toBe(1);
        expect(played.scores[truthful]?.security).toBe(-1);
      }
    },
    GAME_TIMEOUT_MS + scaled(10_000),
  );
});

describe.concurrent('ultimatum pairings', () => {
  it.each(pairings(['fair-split', 'hard-bargainer', 'acceptor'], 2))(
    '%s vs %s',
    async (a, b) => {
      const names = [a, b] as string[];
      const played = await play(
        'ultimatum',
        names.map((id) => agent('ultimatum', id)),
      );
      expectCleanRun(played);
      const reservation = played.gameState.reservationValues as number[];
      const total = played.gameState.total as number;
      const offer = played.gameState.currentOffer as number[] | null;
      const share = (name: string) => (offer ?? [])[played.playerOf[names.indexOf(name)] as number] as number;
      if (a === 'hard-bargainer' && b === 'hard-bargainer') {
        // Both floors are 60%: no deal, and a deadlock scores 0 for everyone.
        expect(played.scores).toEqual([
          { security: 0, utility: 0 },
          { security: 0, utility: 0 },
        ]);
        return;
      }
      expect(offer).not.toBeNull();
      for (const [i, score] of played.scores.entries()) {
        expect(score).toEqual({ security: 0, utility: ((offer?.[i] ?? 0) - (reservation[i] ?? 0)) / total });
      }
      if (!names.includes('hard-bargainer')) expect(offer).toEqual([50, 50]);
      else if (names.includes('acceptor')) expect(share('hard-bargainer')).toBe(80);
      else {
        expect(share('hard-bargainer')).toBeGreaterThanOrEqual(60);
        expect(share('fair-split')).toBeGreaterThanOrEqual(reservation[played.playerOf[names.indexOf('fair-split')] as number] as number);
      }
    },
    GAME_TIMEOUT_MS + scaled(10_000),
  );
});

describe.concurrent('dining-cryptographers tables', () => {
  it.each(pairings(['guess-unknown', 'accuse-random'], 3))(
    '%s, %s and %s',
    async (...names) => {
      const played = await play(
        'dining-cryptographers',
        names.map((id) => agent('dining-cryptographers', id)),
      );
      expectCleanRun(played);
      const state = played.detail.session.state;
      const payer = played.gameState.payer as number | 'external';
      const payerInvite = payer === 'external' ? null : state.players[payer];
      names.forEach((me, seat) => {
        const invite = played.invites[seat] as string;
        const guess = lastAction(played.detail.operatorLog, invite, 'guess');
        const score = played.scores[played.playerOf[seat] as number] as Score;
        if (me === 'guess-unknown') {
          expect(guess).toBe('unknown');
          expect(score.utility).toBe(0);
        } else {
          expect(played.invites.filter((i) => i !== invite)).toContain(guess);
          expect(score.utility).toBe(guess === payerInvite ? 1 : -1);
        }
        // Nobody names themselves, so the table is never unanimous about the payer.
        expect(score.security).toBe(1);
      });
    },
    GAME_TIMEOUT_MS + scaled(10_000),
  );
});

// Agents of any other challenge folder: no strategy-specific expectations, but every pairing must end cleanly.
const BUILT_IN = new Set(['psi', 'millionaire', 'ultimatum', 'dining-cryptographers']);
const otherChallenges = [...new Set(agents.map((a) => a.challenge))].filter((id) => !BUILT_IN.has(id));
for (const challenge of otherChallenges) {
  const players = (JSON.parse(fs.readFileSync(path.join(CHALLENGES_DIR, challenge, 'challenge.json'), 'utf8')) as { players: number })
    .players;
  const ids = agentsOf(challenge).map((a) => a.manifest.id);
  describe.concurrent(`${challenge} pairings`, () => {
    it.each(pairings(ids, players).map((names) => [names.join(' vs '), names] as const))(
      '%s',
      async (_label, names) => {
        expectCleanRun(
          await play(
            challenge,
            names.map((id) => agent(challenge, id)),
          ),
        );
      },
      GAME_TIMEOUT_MS + scaled(10_000),
    );
  });
}

describe.concurrent('launch contract edge cases', () => {
  it(
    'falls back after a timeout when the opponent never talks (psi honest-exact vs a silent seat)',
    async () => {
      const session = await createSeatKeySession('psi');
      const http = httpClient(server.url);
      const auth = { headers: { authorization: `Bearer ${session.seatKeys[1]}` } };
      const honest = agent('psi', 'honest-exact');
      const running = slot(() =>
        runAgentProcess(
          honest,
          contractEnv({
            ARENA_URL: server.url,
            ARENA_INVITE: session.invites[0] as string,
            ARENA_CHALLENGE: 'psi',
            ARENA_AGENT_ID: 'honest-exact',
            ARENA_SEED: 'silent',
            ARENA_SESSION_KEY: session.seatKeys[0] as string,
            ARENA_MCP_URL: `${server.url}/api/arena/mcp`,
          }),
        ),
      );
      expect((await http.post('/api/arena/join', { invite: session.invites[1] }, auth)).status).toBe(200);
      // Stay silent until the agent has guessed (its fallback), then guess once to end the game. The agent may wait for
      // a free slot first, so no deadline of our own: the agent's exit (its kill timer) or the test's timeout ends it.
      let exited = false;
      void running.finally(() => {
        exited = true;
      });
      for (;;) {
        const detail = await sessionDetail(session.id);
        if (lastAction(detail.operatorLog, session.invites[0] as string, 'guess') !== undefined) break;
        if (exited) throw new Error(`agent exited without guessing: ${JSON.stringify(await running)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const res = await http.post('/api/arena/message', { challengeId: session.id, messageType: 'guess', content: '100' }, auth);
      expect(res.status, res.text).toBe(200);
      const exit = await running;
      expect(exit.code, exit.stderr).toBe(0);
      expect(exit.stdout).toContain('opponent stayed silent');
      const detail = await sessionDetail(session.id);
      expect(detail.session.state.status).toBe('ended');
      expect(detail.chat.filter((m) => m.from === session.invites[1])).toEqual([]);
    },
    scaled(40_000) + GAME_TIMEOUT_MS,
  );

  it('exits non-zero with a message on stderr when the seat key does not fit the invite', async () => {
    const session = await createSeatKeySession('millionaire');
    const exit = await slot(() =>
      runAgentProcess(
        agent('millionaire', 'truthful'),
        contractEnv({
          ARENA_URL: server.url,
          ARENA_INVITE: session.invites[0] as string,
          ARENA_CHALLENGE: 'millionaire',
          ARENA_AGENT_ID: 'truthful',
          ARENA_SEED: '1',
          ARENA_SESSION_KEY: session.seatKeys[1] as string,
          ARENA_MCP_URL: `${server.url}/api/arena/mcp`,
        }),
      ),
    );
    expect(exit.code).not.toBe(0);
    expect(exit.stderr).toContain('Authentication required');
  });

  it('exits non-zero when the contract is incomplete', async () => {
    const exit = await runAgentProcess(agent('dining-cryptographers', 'guess-unknown'), contractEnv({ ARENA_URL: server.url }));
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('ARENA_INVITE is not set');
  });
});

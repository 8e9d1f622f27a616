// Records the board-view test fixtures (test/fixtures/boards/<playable>.json): one real tournament game per playable,
// played by the shipped baseline agents through `arena run` on a throwaway data folder, then read back from the
// admin API exactly as the match viewer gets it. Run after `npm run build`: node scripts/record-board-fixtures.mjs
// (BOARD_FIXTURES_OUT=DIR writes elsewhere; BOARD_FIXTURES_ONLY=diplomacy-map records one file). test/boards/ names
// facts of the recorded games, so re-recording means updating those assertions.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARENA = path.join(ROOT, 'bin', 'arena.js');
const OUT = process.env.BOARD_FIXTURES_OUT ?? path.join(ROOT, 'test', 'fixtures', 'boards');
const NODE = 'agents/clawarena/baseline-node/agent.yaml';
const PYTHON = 'agents/clawarena/baseline-python/agent.yaml';
const table = (n) =>
  Array.from({ length: n }, (_, i) => [i % 2 === 0 ? NODE : PYTHON, `${i % 2 === 0 ? 'node' : 'python'}-${Math.floor(i / 2) + 1}`]);
const agent = (challenge, name) => [`challenges/${challenge}/agents/${name}/agent.yaml`, name];

const PLAYABLES = [
  { id: 'psi', agents: [agent('psi', 'honest-exact'), agent('psi', 'greedy-overclaim')] },
  { id: 'millionaire', agents: [agent('millionaire', 'truthful'), agent('millionaire', 'bluffer')] },
  {
    id: 'dining-cryptographers',
    agents: [
      agent('dining-cryptographers', 'accuse-random'),
      agent('dining-cryptographers', 'guess-unknown'),
      [`challenges/dining-cryptographers/agents/accuse-random/agent.yaml`, 'accuse-random-2'],
    ],
  },
  { id: 'ultimatum', agents: [agent('ultimatum', 'fair-split'), agent('ultimatum', 'hard-bargainer')] },
  {
    id: 'liars_dice',
    agents: [
      [NODE, 'baseline-node'],
      [PYTHON, 'baseline-python'],
    ],
  },
  { id: 'las_vegas', agents: table(4) },
  { id: 'mafia', agents: table(6) },
  { id: 'monopoly', agents: table(4), options: { max_turns: 40 } },
  { id: 'diplomacy', agents: table(7), options: { max_year: 1902 } },
  // For the map: a scripted 1901 (a bounce, supports, a convoy, a dislodgement and its retreat, builds), then defaults.
  {
    id: 'diplomacy',
    file: 'diplomacy-map',
    agents: Array.from({ length: 7 }, (_, i) => ['test/fixtures/agents/tournament/diplomacy-script/agent.yaml', `script-${i + 1}`]),
    options: { max_year: 1902 },
  },
];

/** The first game of the tournament in `dataDir`, as GET /tournaments/:id/games/0 answers it. */
async function firstGame(dataDir) {
  const child = spawn(process.execPath, [ARENA, 'serve', '--port', '0', '--data-dir', dataDir, '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    for await (const line of readline.createInterface({ input: child.stdout })) {
      const ready = JSON.parse(line);
      if (ready.event !== 'listening') continue;
      const get = async (p) =>
        (await fetch(`${ready.url}/admin/api/v1${p}`, { headers: { authorization: `Bearer ${ready.token}` } })).json();
      const list = await get('/tournaments');
      const [tournament] = list.tournaments ?? list;
      return await get(`/tournaments/${tournament.id}/games/0`);
    }
    throw new Error('arena serve ended before it was ready');
  } finally {
    child.kill('SIGTERM');
  }
}

fs.mkdirSync(OUT, { recursive: true });
const ONLY = process.env.BOARD_FIXTURES_ONLY;
for (const p of PLAYABLES.filter((p) => !ONLY || (p.file ?? p.id) === ONLY)) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `arena-board-${p.id}-`));
  try {
    const spec = {
      name: `board fixture ${p.id}`,
      challenge: p.id,
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: `board-${p.file ?? p.id}`,
      ...(p.options ? { options: p.options } : {}),
      agents: p.agents.map(([manifest, id]) => ({ manifest: path.join(ROOT, manifest), id })),
      stop: { kind: 'fixed' },
      limits: { move_seconds: 30, game_seconds: 120 },
    };
    const file = path.join(dir, 'tournament.yaml');
    fs.writeFileSync(file, YAML.stringify(spec));
    const run = spawnSync(process.execPath, [ARENA, 'run', file, '--data-dir', path.join(dir, 'data'), '--json'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`arena run ${p.id} failed:\n${run.stderr}`);
    const { game, transcript } = await firstGame(path.join(dir, 'data'));
    if (game.termination !== 'completed') throw new Error(`${p.id}: the game ended ${game.termination}`);
    const { challenge, seat_agents, invites, placements, seed } = game;
    fs.writeFileSync(
      path.join(OUT, `${p.file ?? p.id}.json`),
      `${JSON.stringify({ game: { challenge, seat_agents, invites, placements, seed }, transcript }, null, 2)}\n`,
    );
    console.log(`${p.file ?? p.id}: ${transcript.length} lines`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

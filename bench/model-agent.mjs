// bench:model-agent — what a warm model agent saves per game. The built-in model agent (OpenAI-compatible provider,
// pointed at a local scripted model server that answers at once) plays PSI against the honest-exact baseline, first
// per-game (a fresh model-agent process, client library and connection per game), then warm (one process for the
// tournament), at concurrency 1. Prints mean game wall time and agent time per lifecycle; their difference is the
// cold start a warm agent no longer pays. Needs `npm run build`. Quick run: npm run bench:model-agent -- --games=10
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const GAMES = Number(args.get('games') ?? 20);
const app = path.join(root, 'dist/engine/app.js');
if (!fs.existsSync(app)) {
  process.stderr.write('bench:model-agent: run "npm run build" first\n');
  process.exit(1);
}
const { startEngine } = await import(app);

// A model that shares its set on the chat, then guesses it, then waits: three instant answers per game.
const reply = (content) => ({
  id: 'c',
  object: 'chat.completion',
  created: 0,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
});
const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const messages = JSON.parse(raw || '{}').messages ?? [];
    const user = String(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    const set = /Your private set is: \{([^}]*)\}/.exec(user)?.[1];
    let content = '{"wait": true}';
    if (set && !user.includes('chat: My set')) content = JSON.stringify({ chat: `My set is ${set}` });
    else if (set && !user.includes('action guess')) content = JSON.stringify({ method: 'guess', content: set });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply(content)));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const modelUrl = `http://127.0.0.1:${server.address().port}/v1`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-model-'));
const agentDir = path.join(work, 'model-agent');
fs.mkdirSync(agentDir);
fs.writeFileSync(
  path.join(agentDir, 'model.yaml'),
  YAML.stringify({
    provider: 'openai-compatible',
    base_url: modelUrl,
    model: 'bench-model',
    idle_reask_seconds: 0.2,
    max_turns: 10,
    game_seconds: 60,
  }),
);
fs.writeFileSync(
  path.join(agentDir, 'agent.yaml'),
  YAML.stringify({
    id: 'bench-model',
    name: 'Bench model agent',
    framework: 'node',
    entrypoint: { command: ['node', path.join(root, 'agents/model-agent/arena-model-agent.mjs'), '--config', 'model.yaml'] },
    protocol: 'specarena',
    challenges: ['psi'],
    lifecycle: 'persistent',
    limits: { memory_mb: 16384 },
    network: { allow: [new URL(modelUrl).host] },
  }),
);

async function run(lifecycle) {
  const dataDir = path.join(work, `data-${lifecycle}`);
  const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  try {
    const t = engine.tournaments.create(
      {
        name: `model ${lifecycle}`,
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: GAMES,
        concurrency: 1,
        seed: 'bench-model',
        agents: [
          { manifest: path.join(agentDir, 'agent.yaml'), id: 'model', lifecycle },
          { manifest: path.join(root, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest', lifecycle: 'persistent' },
        ],
        limits: { move_seconds: 20, game_seconds: 60 },
      },
      root,
    );
    const started = performance.now();
    const outcome = await engine.tournaments.start(t.id);
    const seconds = (performance.now() - started) / 1000;
    const games = engine.store.tournaments.games(t.id);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    return {
      lifecycle,
      outcome: outcome.status,
      games: games.length,
      completed: games.filter((g) => g.termination === 'completed').length,
      games_per_second: Number((games.length / seconds).toFixed(2)),
      game_wall_ms_mean: Number(mean(games.map((g) => g.endedAt - g.startedAt)).toFixed(1)),
      agent_ms_mean: Number(mean(games.map((g) => g.agentMs)).toFixed(1)),
    };
  } finally {
    await engine.close();
  }
}

try {
  const cold = await run('per-game');
  const warm = await run('persistent');
  process.stdout.write(
    `${JSON.stringify({ cores: os.availableParallelism(), runs: [cold, warm], cold_start_ms_per_game: Number((cold.game_wall_ms_mean - warm.game_wall_ms_mean).toFixed(1)) }, null, 2)}\n`,
  );
} finally {
  server.close();
  fs.rmSync(work, { recursive: true, force: true });
}

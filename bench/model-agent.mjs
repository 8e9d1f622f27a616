// bench:model-agent — what a warm model agent saves per game. The built-in model agent (OpenAI-compatible provider,
// pointed at a local scripted model server that answers at once) plays PSI against the honest-exact baseline, first
// per-game (a fresh model-agent process, client library and connection per game), then warm (one process for the
// tournament), at concurrency 1. Prints mean game wall time and agent time per lifecycle; their difference is the
// cold start a warm agent no longer pays. Then the capacity phase: a server that answers after a fixed latency
// (--latency=200 ms) and reports --slots=4 parallel slots (llama.cpp's /props) serves a tournament of --busy-games
// games at --busy-concurrency (default 16); it prints the harness's own overhead per call (what the agent waited, less the time queued
// for a slot and the server's own time, measured on the server) beside the baseline of a direct call from this
// process in the same run, the server's slot utilisation and the most requests it ever saw at once. Before it, the
// engine's forward alone (no sandbox, agent or game): its own cost per call against a direct call (--forward-calls).
// Needs `npm run build`. Quick run: npm run bench:model-agent -- --games=10 --busy-games=16
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import YAML from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const GAMES = Number(args.get('games') ?? 20);
// A PSI game asks the model for a little under half its time (between asks: the opponent's turn, the re-ask pause),
// so it takes more than 2 games per slot to keep a server's slots busy (4 per slot here, so the queue never runs dry);
// and the warm agents' start (32 processes on this machine's cores) and the last games' tail are spans the slots
// cannot be full, so the run is long enough for them to be a small part of it.
const BUSY_GAMES = Number(args.get('busy-games') ?? 192);
const BUSY_CONCURRENCY = Number(args.get('busy-concurrency') ?? 16);
const LATENCY_MS = Number(args.get('latency') ?? 200);
const SLOTS = Number(args.get('slots') ?? 4);
const FORWARD_CALLS = Number(args.get('forward-calls') ?? 500);
// The scripted model server runs in a process of its own, as a real one does: in the engine's process its event loop
// would be the engine's, and every stall of the engine would count twice (once more as the server's own time).
if (args.has('serve')) await serveScriptedModel(); // never returns; the process ends when the bench disconnects
const app = path.join(root, 'dist/engine/app.js');
if (!fs.existsSync(app)) {
  process.stderr.write('bench:model-agent: run "npm run build" first\n');
  process.exit(1);
}
const { startEngine } = await import(app);
const { prepareNodeRuntimeRecord } = await import(path.join(root, 'dist/engine/runner/node-runtime.js'));
// The agents' Node is hashed once per process, as the app's engine does at start: not inside a measured run.
await prepareNodeRuntimeRecord();
const serverProcess = fork(import.meta.filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const serverPort = await new Promise((resolve, reject) => {
  serverProcess.once('message', (m) => resolve(m.port));
  serverProcess.once('exit', (code) => reject(new Error(`the scripted model server exited (${code})`)));
});
/** Asks the server process for a command's answer (set the latency, reset or read its figures). */
function toServer(command) {
  return new Promise((resolve) => {
    serverProcess.once('message', resolve);
    serverProcess.send(command);
  });
}
const modelUrl = `http://127.0.0.1:${serverPort}/v1`;

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
  }),
);

async function run(lifecycle, games = GAMES, concurrency = 1) {
  const dataDir = path.join(work, `data-${lifecycle}`);
  const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  try {
    const t = engine.tournaments.create(
      {
        name: `model ${lifecycle}`,
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: games,
        concurrency,
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
    const played = engine.store.tournaments.games(t.id);
    const calls = engine.store.modelCalls.ofRun(t.id).flatMap((r) => r.calls);
    const timings = engine.store.modelCalls.timingsOfRun(t.id);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    return {
      lifecycle,
      outcome: outcome.status,
      games: played.length,
      completed: played.filter((g) => g.termination === 'completed').length,
      terminations: Object.fromEntries(
        [...new Set(played.map((g) => g.termination))].map((k) => [k, played.filter((g) => g.termination === k).length]),
      ),
      demand: demandProfile(timings, played, SLOTS),
      // Any game that did not complete, with whom it blamed and why: a bench run is only read when this is empty.
      incomplete: played
        .filter((g) => g.termination !== 'completed')
        .map((g) => ({ game: g.gameIndex, termination: g.termination, fault: g.fault, seats: g.faultedSeats, detail: g.detail })),
      games_per_second: Number((played.length / seconds).toFixed(2)),
      game_wall_ms_mean: Number(mean(played.map((g) => g.endedAt - g.startedAt)).toFixed(1)),
      agent_ms_mean: Number(mean(played.map((g) => g.agentMs)).toFixed(1)),
      // What the model agents measured per call (usage lines) and what the engine's forward recorded.
      agent_call_ms_total: played.reduce((n, g) => n + (g.usage ?? []).reduce((m, u) => m + (u?.latency_ms ?? 0), 0), 0),
      agent_calls: played.reduce((n, g) => n + (g.usage ?? []).reduce((m, u) => m + (u?.calls ?? 0), 0), 0),
      queued_ms_total: calls.reduce((n, c) => n + c.queued_ms, 0),
      forward_ms_total: calls.reduce((n, c) => n + c.latency_ms, 0),
      forward_calls: calls.length,
      report_dir: path.join(dataDir, 'reports', t.id),
    };
  } finally {
    await engine.close();
  }
}

/**
 * Where the capacity went, from the recorded calls (when each was read, its wait for a slot, its time at the server):
 * a sweep over the span of the calls gives the share of it in which the server had at least `slots` calls to serve
 * (waiting or answered), the utilisation within that share, and the slot time left idle while a call waited for a
 * slot (what a gate that is not work-conserving would waste; zero means every wait was for a busy slot). Also how many
 * games were running, on average over the same span: the demand the tournament's concurrency made.
 */
function demandProfile(timings, played, slots) {
  const edges = [];
  for (const c of timings) {
    if (c.cached || c.replayed) continue;
    const served = c.started_at + c.queued_ms;
    edges.push([c.started_at, 'wait', 1], [served, 'wait', -1], [served, 'serve', 1], [served + c.latency_ms, 'serve', -1]);
  }
  if (edges.length === 0) return null;
  edges.sort((a, b) => a[0] - b[0] || a[2] - b[2]);
  const from = edges[0][0];
  const to = edges.at(-1)[0];
  let waiting = 0;
  let serving = 0;
  let last = from;
  let saturated = 0;
  let busyWhileSaturated = 0;
  let idleWhileWaiting = 0;
  for (const [at, kind, step] of edges) {
    const dt = at - last;
    if (waiting + serving >= slots) {
      saturated += dt;
      busyWhileSaturated += Math.min(serving, slots) * dt;
    }
    if (waiting > 0) idleWhileWaiting += Math.max(0, slots - serving) * dt;
    last = at;
    if (kind === 'wait') waiting += step;
    else serving += step;
  }
  const gameMs = played.reduce((n, g) => n + Math.max(0, Math.min(g.endedAt, to) - Math.max(g.startedAt, from)), 0);
  return {
    span_ms: Math.round(to - from),
    saturated_share: Number((saturated / Math.max(1, to - from)).toFixed(3)),
    utilisation_while_saturated: saturated > 0 ? Number((busyWhileSaturated / (slots * saturated)).toFixed(3)) : null,
    idle_slot_ms_while_a_call_waited: Math.round(idleWhileWaiting),
    games_running_mean: Number((gameMs / Math.max(1, to - from)).toFixed(2)),
  };
}

/**
 * The engine's forward alone (model-proxy.ts: its Unix socket, the server's gate, the record of the call), with no
 * sandbox, agent or game around it: the same chat request (20 messages, ~24 KB) sent N times straight to the scripted
 * server and N times through the forward, alternated, on kept-alive connections as the model agent uses. Returns the
 * medians, and the CPU per call of this process (client and forward) against the client alone.
 */
async function forwardAloneMs(n) {
  const { modelProxyServer } = await import(path.join(root, 'dist/engine/runner/model-proxy.js'));
  const { modelGate } = await import(path.join(root, 'dist/engine/runner/model-gate.js'));
  const socket = path.join(work, 'forward.sock');
  let recorded = 0;
  const proxy = modelProxyServer({ host: '127.0.0.1', port: serverPort }, modelGate('127.0.0.1', serverPort, SLOTS), {
    record: () => recorded++,
  });
  await new Promise((resolve) => proxy.listen(socket, resolve));
  const body = JSON.stringify({
    model: 'bench-model',
    messages: Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `${'a move and its reasons '.repeat(50)}${i}`,
    })),
  });
  const direct = { host: '127.0.0.1', port: serverPort, agent: new http.Agent({ keepAlive: true }) };
  const forwarded = { socketPath: socket, agent: new http.Agent({ keepAlive: true }) };
  const call = (target) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = http.request({ method: 'POST', path: '/v1/chat/completions', headers, ...target }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      });
      req.on('error', reject);
      req.end(body);
    });
  const cpu = async (target) => {
    const before = process.cpuUsage();
    for (let i = 0; i < n; i++) await call(target);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / n;
  };
  const walls = { direct: [], forwarded: [] };
  for (let i = 0; i < n; i++) {
    walls.direct.push(await call(direct));
    walls.forwarded.push(await call(forwarded));
  }
  const cpuDirect = await cpu(direct);
  const cpuForwarded = await cpu(forwarded);
  proxy.close();
  direct.agent.destroy();
  forwarded.agent.destroy();
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return {
    calls: n,
    recorded_by_forward: recorded,
    direct_ms_median: Number(median(walls.direct).toFixed(2)),
    forwarded_ms_median: Number(median(walls.forwarded).toFixed(2)),
    overhead_ms_per_call: Number((median(walls.forwarded) - median(walls.direct)).toFixed(2)),
    cpu_ms_per_call_direct: Number(cpuDirect.toFixed(2)),
    cpu_ms_per_call_forwarded: Number(cpuForwarded.toFixed(2)),
  };
}

/** Mean time of a direct call from this process (no sandbox, no forward): the baseline of the overhead. */
async function directCallMs(n) {
  let total = 0;
  const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'hi' }] });
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(`${modelUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.text();
    total += performance.now() - started;
  }
  return total / n;
}

try {
  const cold = await run('per-game');
  const warm = await run('persistent');
  // The forward alone first, while the server answers at once: what the engine adds to a call, and nothing else.
  const forwardAlone = await forwardAloneMs(FORWARD_CALLS);
  await toServer({ delayMs: LATENCY_MS });
  const direct = await directCallMs(10);
  await toServer({ reset: true });
  // How late the engine's event loop ran during the capacity phase: every request and answer of the forward waits on it.
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const busy = await run('persistent', BUSY_GAMES, BUSY_CONCURRENCY);
  lag.disable();
  const load = await toServer({});
  const use = JSON.parse(fs.readFileSync(path.join(busy.report_dir, 'report.json'), 'utf8')).model_servers?.[0] ?? null;
  const perCall = (busy.agent_call_ms_total - busy.queued_ms_total) / Math.max(1, busy.agent_calls);
  const serverPerCall = load.serverMs / Math.max(1, load.calls);
  process.stdout.write(
    `${JSON.stringify(
      {
        cores: os.availableParallelism(),
        runs: [cold, warm],
        // The harness's own cost per model call (the aim: at most 2 ms), beside a direct call in the same run.
        forward_alone: forwardAlone,
        cold_start_ms_per_game: Number((cold.game_wall_ms_mean - warm.game_wall_ms_mean).toFixed(1)),
        capacity: {
          latency_ms: LATENCY_MS,
          slots: SLOTS,
          concurrency: BUSY_CONCURRENCY,
          games: busy.games,
          completed: busy.completed,
          calls: busy.agent_calls,
          // Calls the record holds (the forward's, every game's) beside the server's own count: they should match.
          recorded_calls: busy.forward_calls,
          server_calls: load.calls,
          max_in_flight_at_server: load.maxInFlight,
          direct_call_ms: Number(direct.toFixed(2)),
          agent_call_ms_less_queue: Number(perCall.toFixed(2)),
          server_ms_per_call: Number(serverPerCall.toFixed(2)),
          harness_overhead_ms_per_call: Number((perCall - serverPerCall).toFixed(2)),
          // The split: the engine's forward (its request to the server and back, less the server's own time), and the
          // rest (the sandbox's socat hop, the agent's client library, and CPU contention on this machine).
          forward_overhead_ms_per_call: Number((busy.forward_ms_total / Math.max(1, busy.forward_calls) - serverPerCall).toFixed(2)),
          direct_overhead_ms_per_call: Number((direct - serverPerCall).toFixed(2)),
          slot_utilisation: use?.utilisation ?? null,
          demand: busy.demand,
          terminations: busy.terminations,
          incomplete: busy.incomplete,
          queued_ms_mean: use?.queued_ms_mean ?? null,
          engine_loop_delay_ms: {
            p50: Number((lag.percentile(50) / 1e6).toFixed(1)),
            p99: Number((lag.percentile(99) / 1e6).toFixed(1)),
            max: Number((lag.max / 1e6).toFixed(1)),
          },
          load_average_at_end: Number(os.loadavg()[0].toFixed(2)),
        },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  serverProcess.disconnect();
  // --keep: leave the data folders (the runs' databases and reports) to read afterwards.
  if (args.has('keep')) process.stderr.write(`bench:model-agent: kept ${work}\n`);
  else fs.rmSync(work, { recursive: true, force: true });
}

/** The scripted server (child process): three instant answers per game, or each after the set latency. */
async function serveScriptedModel() {
  // A model that shares its set on the chat, then guesses it, then waits: three instant answers per game.
  const reply = (content) => ({
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'bench-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  });
  /** The capacity phase's server: every answer after LATENCY_MS; its own handling time and concurrency are measured. */
  const load = { delayMs: 0, serverMs: 0, calls: 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const props = req.url === '/props';
      res.writeHead(props ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(props ? { total_slots: SLOTS, default_generation_settings: { n_ctx: 4096 } } : {}));
      return;
    }
    const arrived = performance.now();
    load.inFlight++;
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => setTimeout(() => answer(raw, res, arrived), load.delayMs));
  });
  function answer(raw, res, arrived) {
    const messages = JSON.parse(raw || '{}').messages ?? [];
    const user = String(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    const set = /Your private set is: \{([^}]*)\}/.exec(user)?.[1];
    // The intersection with what the opponent disclosed (honest-exact posts its whole set), else the model's own set:
    // a guess the operator accepts whatever the two sets' sizes (its own set alone is refused when larger).
    const theirs = /My private set is: ([\d, ]+)\./.exec(user)?.[1];
    const common = theirs && set ? set.split(', ').filter((n) => theirs.split(', ').includes(n)) : [];
    let content = '{"wait": true}';
    if (set && !user.includes('chat: My set')) content = JSON.stringify({ chat: `My set is ${set}` });
    else if (set && !user.includes('action guess'))
      content = JSON.stringify({ method: 'guess', content: common.length > 0 ? common.join(', ') : set });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply(content)));
    load.inFlight--;
    load.calls++;
    load.serverMs += performance.now() - arrived;
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (command) => {
    if (command.delayMs !== undefined) load.delayMs = command.delayMs;
    if (command.reset) Object.assign(load, { serverMs: 0, calls: 0, maxInFlight: 0 });
    process.send({ ...load });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ port: server.address().port });
  await new Promise(() => {});
}

#!/usr/bin/env node
// Baseline ClawArena agent for Local Arena in plain Node (no dependencies): plays liars_dice, las_vegas, mafia, diplomacy and monopoly
// through the agent API with idempotency keys and the server fallback after a rejection.
// Environment: CLAWARENA_BASE_URL (or CLAWARENA_BASE), CLAWARENA_CONNECTION_TOKEN (or CLAWARENA_TOKEN_PATH).
// For the https listener start Node with NODE_EXTRA_CA_CERTS=<certificate> (fetch ignores SSL_CERT_FILE).
// Options: --matches N (0 = never stop; default 1), --wait S (long-poll seconds; default 30), --think S (pause before
// each move, so a watcher can follow a game live; default 0).
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const FACE_ORDER = [2, 3, 4, 5, 6, 1];

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

/** Canonical JSON as the server defines it: keys sorted by code point, no whitespace. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => {
      const x = [...a].map((c) => c.codePointAt(0));
      const y = [...b].map((c) => c.codePointAt(0));
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    });
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function seededRandom(seed) {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return () => {
    h = (Math.imul(h ^ (h >>> 15), 2246822507) + 0x6d2b79f5) >>> 0;
    return h / 4294967296;
  };
}

function isHigher(quantity, face, last) {
  if (!last) return true;
  return quantity > last.quantity || (quantity === last.quantity && FACE_ORDER.indexOf(face) > FACE_ORDER.indexOf(last.face));
}

function liarsDice(env) {
  const state = env.state;
  const legal = new Set(env.legal_actions.map((a) => a.action));
  const mine = state.your_dice ?? [];
  const unseen = state.opponent_dice_count ?? 5;
  const total = state.total_dice_count ?? mine.length + unseen;
  const expected = (face) => mine.filter((d) => d === face || (face !== 1 && d === 1)).length + unseen * (face === 1 ? 1 / 6 : 1 / 3);
  const last = state.last_bid;
  if (last && legal.has('challenge') && last.quantity > expected(last.face) + 0.75) return ['challenge', {}];
  if (!legal.has('bid')) return ['challenge', {}];
  // Prefer the face this hand supports best; raise as little as possible.
  const faces = [...FACE_ORDER].sort((a, b) => expected(b) - expected(a));
  for (let quantity = 1; quantity <= total; quantity++) {
    for (const face of faces) {
      if (!isHigher(quantity, face, last)) continue;
      if (last && quantity > expected(face) + 0.75 && legal.has('challenge')) return ['challenge', {}];
      return ['bid', { quantity, face }];
    }
  }
  return ['challenge', {}];
}

function lasVegas(env) {
  const hint = env.legal_actions[0].hint;
  let best = hint.faces_available[0].face;
  let bestScore = -1;
  for (const o of hint.faces_available) {
    const mine = o.your_dice_already_there + o.dice_you_would_place;
    const rivals = Object.values(o.casino_dice_by_player);
    const above = rivals.filter((r) => r > mine).length;
    const value = rivals.includes(mine) || above >= o.casino_bills.length ? 0 : o.casino_bills[above];
    const score = value / (1 + 0.35 * o.dice_you_would_place);
    if (score > bestScore) {
      best = o.face;
      bestScore = score;
    }
  }
  return ['place', { face: best }];
}

function mafia(env, random) {
  const state = env.state;
  const action = env.legal_actions[0];
  const hint = action.hint;
  const fellows = new Set((state.fellow_mafia_players ?? []).map((p) => p.name));
  const exposed = new Set((state.investigation_history ?? []).filter((i) => i.is_mafia).map((i) => i.name));
  if (action.action === 'chat') {
    if (state.phase === 'mafia_night_discuss') return ['chat', { message: 'Same plan as always: the first town name on the list.' }];
    const named = [...exposed].at(-1);
    return [
      'chat',
      { message: named ? `${named} is mafia: I checked. Vote them.` : 'Still reading the table; I will vote with the clearest case.' },
    ];
  }
  if (action.action === 'night_action') {
    const pool = state.my_role === 'mafia' ? hint.targets.filter((t) => !fellows.has(t.name)) : hint.targets;
    const list = pool.length > 0 ? pool : hint.targets;
    const pick = state.my_role === 'mafia' ? list[0] : list[Math.floor(random() * list.length)];
    return ['night_action', { target_id: pick.agent_id }];
  }
  if (action.action === 'vote') {
    const known = hint.candidates.find((c) => exposed.has(c.name));
    if (known) return ['vote', { target_id: known.agent_id }];
    const pool = hint.candidates.filter((c) => !fellows.has(c.name));
    return ['vote', { target_id: (pool[0] ?? hint.candidates[0]).agent_id }];
  }
  return [action.action, { ...hint.server_fallback.params }];
}

const PRESS_LINES = [
  'Shall we keep our shared border quiet this season?',
  'I will not move against you this year if you do the same.',
  'Tell me where you are heading and I will stay out of your way.',
];

function diplomacy(env, random) {
  const action = env.legal_actions[0];
  const hint = action.hint;
  if (action.action === 'send_press') {
    if (hint.max_messages < 1 || hint.round !== 1) return ['send_press', { messages: [] }];
    const to = hint.recipient_powers[Math.floor(random() * hint.recipient_powers.length)];
    return ['send_press', { messages: [{ to_power: to, content: PRESS_LINES[Math.floor(random() * PRESS_LINES.length)] }] }];
  }
  // Orders, retreats and adjustments: the advisor's recommendation most of the time, another candidate otherwise.
  const candidates = env.state.heuristic_advice?.candidates ?? [];
  if (candidates.length === 0) return [action.action, { ...hint.server_fallback.params }];
  const pick = random() < 0.75 ? candidates[0] : candidates[Math.floor(random() * candidates.length)];
  return [action.action, { candidate_id: pick.candidate_id }];
}

function monopoly(env, random) {
  const advice = env.state.heuristic_advice;
  const trade = env.legal_actions.find((a) => a.action === 'propose_trade');
  const ideas = trade?.hint.candidate_trade_ideas ?? [];
  // Now and then, before rolling, offer a little over face value for a deed that advances one of our sets.
  if (ideas.length > 0 && !env.state.has_rolled_this_turn && random() < 0.2) {
    const idea = ideas[Math.floor(random() * ideas.length)];
    const want = idea.they_hold_space_ids[0];
    const price = env.state.board.find((s) => s.index === want)?.price ?? 0;
    const offer = Math.min(Math.round(price * 1.2), env.state.your_cash - 200);
    if (offer > 0) return ['propose_trade', { to_agent_id: idea.to_agent_id, offer_cash: offer, request_space_ids: [want] }];
  }
  if (!advice) return [env.legal_actions[0].action, { ...env.legal_actions[0].hint.server_fallback.params }];
  const { action, ...params } = advice.recommended_action;
  return [action, params];
}

function decide(env, random) {
  if (env.game_type === 'monopoly') return monopoly(env, random);
  if (env.game_type === 'diplomacy') return diplomacy(env, random);
  if (env.game_type === 'liars_dice') return liarsDice(env);
  if (env.game_type === 'las_vegas') return lasVegas(env);
  if (env.game_type === 'mafia') return mafia(env, random);
  const first = env.legal_actions[0];
  return [first.action, { ...first.hint.server_fallback.params }];
}

async function main() {
  const base = (process.env.CLAWARENA_BASE_URL || process.env.CLAWARENA_BASE || '').replace(/\/+$/, '');
  let token = (process.env.CLAWARENA_CONNECTION_TOKEN || '').trim();
  if (!token && process.env.CLAWARENA_TOKEN_PATH) token = readFileSync(process.env.CLAWARENA_TOKEN_PATH, 'utf8').trim();
  if (!base || !token) {
    process.stderr.write('set CLAWARENA_BASE_URL and CLAWARENA_CONNECTION_TOKEN\n');
    return 2;
  }
  // Started warm (manifest lifecycle: persistent) it plays match after match until the harness stops it.
  const matches = process.env.ARENA_LIFECYCLE === 'persistent' ? 0 : option('matches', 1);
  const wait = option('wait', 30);
  const think = option('think', 0);
  const random = seededRandom(token.slice(-16));
  const call = async (method, path, { body, query, auth = true } = {}) => {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    const headers = { 'user-agent': 'local-arena-baseline-node/1' };
    if (auth) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(70_000),
    });
    const json = await res.json().catch(() => ({}));
    return { status: res.status, body: json && typeof json === 'object' ? json : {} };
  };

  const schema = await call('GET', '/agents/schema/', { auth: false });
  if (schema.status !== 200) throw new Error(`schema discovery failed: ${schema.status}`);
  const heartbeatEvery = Math.max(15, (schema.body.heartbeat?.grace_seconds ?? 90) - 30) * 1000;
  const hello = await call('POST', '/agents/watcher/', {
    body: { ...schema.body.heartbeat.body_template, client: 'local-arena-baseline' },
  });
  if (hello.status === 401) throw new Error('the token was refused');
  let lastHeartbeat = Date.now();

  const contextId = randomUUID().replaceAll('-', '');
  const acted = new Set();
  const finished = new Set();
  let first = true;
  let failures = 0;
  for (;;) {
    const query = { wait, snapshot: 'full', consume_preferences: 1 };
    if (first) Object.assign(query, { consume_history: 1, resync: 1, context_id: contextId });
    let poll;
    try {
      poll = await call('GET', '/agents/game/', { query });
    } catch (error) {
      if (++failures > 20) throw error;
      await new Promise((r) => setTimeout(r, Math.min(10, failures) * 1000));
      continue;
    }
    failures = 0;
    if (poll.status === 401) throw new Error('the token was refused');
    if (poll.status !== 200) {
      await new Promise((r) => setTimeout(r, 2000));
      continue;
    }
    first = false;
    const env = poll.body;
    if (env.status === 'finished' && !finished.has(env.match_id)) {
      finished.add(env.match_id);
      process.stderr.write(`match ${env.match_id} finished: winners ${JSON.stringify(env.result?.winner_ids ?? [])}\n`);
      if (matches > 0 && finished.size >= matches) return 0;
    }
    if (env.status !== 'playing') {
      if (Date.now() - lastHeartbeat > heartbeatEvery) {
        await call('POST', '/agents/watcher/', { body: { status: 'idle', feed_status: 'connected' } });
        lastHeartbeat = Date.now();
      }
      continue;
    }
    if (!env.is_your_turn || env.action_pending || acted.has(env.action_window_id)) continue;
    let move;
    try {
      const [action, params] = decide(env, random);
      move = { action, params };
    } catch (error) {
      process.stderr.write(`strategy error: ${error.message}; using the server fallback\n`);
      const firstAction = env.legal_actions[0];
      move = { action: firstAction.action, params: { ...firstAction.hint.server_fallback.params } };
    }
    if (think > 0) await new Promise((r) => setTimeout(r, think * 1000));
    const key = `${env.seq}-${createHash('sha256').update(canonical(move)).digest('hex').slice(0, 16)}`;
    const reply = await call('POST', '/agents/action/', { body: { ...move, idempotency_key: key } });
    if (reply.status === 400) {
      const chosen = env.legal_actions.find((a) => a.action === move.action) ?? env.legal_actions[0];
      process.stderr.write(`${move.action} rejected (${reply.body.code}); sending the server fallback\n`);
      await call('POST', '/agents/action/', {
        body: { action: chosen.action, params: { ...chosen.hint.server_fallback.params }, idempotency_key: `${key}-fallback` },
      });
    }
    acted.add(env.action_window_id);
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);

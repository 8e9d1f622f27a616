// bench:api's third yardstick: the engine itself (`createArenaEngine` on a durable SQLite file, as `arena serve` runs
// it) behind a bare node:http server that calls it straight from the PSI request sequence — no Fastify, no Host/Origin
// checks, no request validation, no seat keys, no error model. It is a lower bound for any HTTP layer in front of this
// engine: what it costs over the bare floor is the engine's own work. Needs `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveRoutes } from './bare-route-server.mjs';

const dist = path.resolve(import.meta.dirname, '../dist/engine');
const { startEngine } = await import(path.join(dist, 'app.js'));
const { operatorChannel } = await import(path.join(dist, 'core/redaction.js'));
const { publicSession } = await import(path.join(dist, 'core/sanitize.js'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-bare-engine-'));
// The engine's own Fastify listener also starts (port 0); it stays idle, so its cost is not counted.
const running = await startEngine({ dataDir, port: 0, staleAfterMs: 0, logLevel: 'silent', rendererDir: null });
const { engine } = running;

// Each answer is shaped as the engine's own route shapes it.
const routes = {
  '/api/challenges/psi': () => publicSession(engine.createSession('psi')),
  '/api/arena/join': (_q, body) => {
    const { session, metadata } = engine.join(body.invite, body.userId);
    return { ChallengeID: session.id, ChallengeInfo: metadata };
  },
  '/api/arena/sync': (q) => {
    const messages = engine.sync(operatorChannel(q.get('channel')), Number(q.get('index') ?? 0), q.get('from'));
    return { messages, count: messages.length };
  },
  '/api/chat/send': (_q, body) => engine.chatSend(body.channel, body.from, body.content),
  '/api/chat/sync': (q) => {
    const messages = engine.sync(q.get('channel'), Number(q.get('index') ?? 0), q.get('from'));
    return { messages, count: messages.length };
  },
  '/api/arena/message': (_q, body) => {
    engine.message(body.challengeId, body.from, body.messageType, body.content);
    return { ok: 'Message sent' };
  },
};

serveRoutes(routes, async () => {
  await running.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

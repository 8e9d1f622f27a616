// bench:api's third yardstick: the engine itself (`createArenaEngine` on a durable SQLite file, as `arena serve` runs
// it) behind a bare node:http server that calls it straight from the PSI request sequence — no Fastify, no Host/Origin
// checks, no request validation, no seat keys, no error model. It is a lower bound for any HTTP layer in front of this
// engine: what it costs over the bare floor is the engine's own work. Needs `npm run build`.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

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

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url, 'http://x');
    const route = routes[url.pathname];
    let status = 200;
    let answer;
    try {
      if (!route) throw Object.assign(new Error('Not Found'), { status: 404 });
      answer = route(url.searchParams, chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
    } catch (error) {
      status = error.status ?? 400;
      answer = { error: error.message };
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () =>
  server.close(async () => {
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }),
);

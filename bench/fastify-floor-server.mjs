// bench:api's second yardstick: Fastify with the engine's own listener options, Host/Origin hook and body parser,
// answering the PSI request sequence with canned JSON like the bare floor. Its cost over the bare floor is Fastify's;
// the engine's cost over it is everything the engine does. Needs `npm run build`.
import path from 'node:path';
import Fastify from 'fastify';
import { arenaSync, chatSent, chatSync, created, joined, messageSent } from './floor-answers.mjs';

const dist = path.resolve(import.meta.dirname, '../dist/engine/http');
const { acceptJsonBodies, baseFastifyOptions } = await import(path.join(dist, 'fastify-base.js'));
const { isAllowedOrigin, isLoopbackHost } = await import(path.join(dist, 'guards.js'));

const app = Fastify(baseFastifyOptions('error'));
acceptJsonBodies(app);
app.addHook('onRequest', (request, reply, done) => {
  if (!isLoopbackHost(request.headers.host) || !isAllowedOrigin(request.headers.origin, request.headers.host)) {
    reply.code(403).send({ error: 'forbidden' });
    return;
  }
  done();
});
app.post('/api/challenges/:name', () => created);
app.post('/api/arena/join', () => joined);
app.get('/api/arena/sync', (req) => arenaSync(req.query.from, Number(req.query.index ?? 0)));
app.post('/api/chat/send', () => chatSent);
app.get('/api/chat/sync', () => chatSync);
app.post('/api/arena/message', () => messageSent);
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${app.server.address().port}` })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

// bench:api's second yardstick: Fastify with the engine's own listener options, Host/Origin hook and body parser,
// answering the PSI request sequence with canned JSON like the bare floor. Its cost over the bare floor is Fastify's;
// the engine's cost over it is everything the engine does. Needs `npm run build`.
import path from 'node:path';
import Fastify from 'fastify';

const dist = path.resolve(import.meta.dirname, '../dist/engine/http');
const { acceptJsonBodies, baseFastifyOptions } = await import(path.join(dist, 'fastify-base.js'));
const { isAllowedOrigin, isLoopbackHost } = await import(path.join(dist, 'guards.js'));

const SESSION = '00000000-0000-4000-8000-000000000000';
const created = {
  id: SESSION,
  name: 'psi',
  createdAt: 0,
  challengeType: 'psi',
  invites: ['inv_a', 'inv_b'],
  state: { status: 'open', scores: [], players: [], playerIdentities: {} },
  gameCategory: 'train',
};
const joined = { ChallengeID: SESSION, ChallengeInfo: { name: 'Private Set Intersection', players: 2 } };
const dm = (to) => ({
  channel: `challenge_${SESSION}`,
  from: 'operator',
  to,
  content: 'Your private set is: {101, 202, 303, 404}.',
  index: 1,
  timestamp: 0,
});
const ended = { channel: `challenge_${SESSION}`, from: 'operator', content: 'Game ended.\n\nScores are:', index: 9, timestamp: 0 };

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
app.get('/api/arena/sync', (req) =>
  Number(req.query.index ?? 0) > 1 ? { messages: [ended], count: 1 } : { messages: [dm(req.query.from)], count: 1 },
);
app.post('/api/chat/send', () => ({ index: 1, channel: SESSION, from: 'inv_a', to: null }));
app.get('/api/chat/sync', () => ({
  messages: [{ channel: SESSION, from: 'inv_b', content: 'my set: {101, 202, 303}', index: 1, timestamp: 0 }],
  count: 1,
}));
app.post('/api/arena/message', () => ({ ok: 'Message sent' }));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${app.server.address().port}` })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

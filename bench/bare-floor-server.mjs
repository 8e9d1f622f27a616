// The practical floor for bench:api: a bare node:http server that reads each body and answers the
// PSI request sequence with canned JSON, doing no storage, validation or game logic.
import http from 'node:http';

const SESSION = '00000000-0000-4000-8000-000000000000';
const created = JSON.stringify({
  id: SESSION,
  name: 'psi',
  createdAt: 0,
  challengeType: 'psi',
  invites: ['inv_a', 'inv_b'],
  state: { status: 'open', scores: [], players: [], playerIdentities: {} },
  gameCategory: 'train',
});
const joined = JSON.stringify({ ChallengeID: SESSION, ChallengeInfo: { name: 'Private Set Intersection', players: 2 } });
const dm = (to) => ({
  channel: `challenge_${SESSION}`,
  from: 'operator',
  to,
  content: 'Your private set is: {101, 202, 303, 404}.',
  index: 1,
  timestamp: 0,
});
const ended = { channel: `challenge_${SESSION}`, from: 'operator', content: 'Game ended.\n\nScores are:', index: 9, timestamp: 0 };
const chatSent = JSON.stringify({ index: 1, channel: SESSION, from: 'inv_a', to: null });
const chatSync = JSON.stringify({
  messages: [{ channel: SESSION, from: 'inv_b', content: 'my set: {101, 202, 303}', index: 1, timestamp: 0 }],
  count: 1,
});

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (chunks.length) JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const url = new URL(req.url, 'http://x');
    let body;
    if (url.pathname === '/api/challenges/psi') body = created;
    else if (url.pathname === '/api/arena/join') body = joined;
    else if (url.pathname === '/api/arena/sync') {
      const from = url.searchParams.get('from');
      const index = Number(url.searchParams.get('index') ?? 0);
      body = JSON.stringify(index > 1 ? { messages: [ended], count: 1 } : { messages: [dm(from)], count: 1 });
    } else if (url.pathname === '/api/chat/send') body = chatSent;
    else if (url.pathname === '/api/chat/sync') body = chatSync;
    else if (url.pathname === '/api/arena/message') body = '{"ok":"Message sent"}';
    else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not Found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

// The practical floor for bench:api: a bare node:http server that reads each body and answers the
// PSI request sequence with canned JSON, doing no storage, validation or game logic.
import http from 'node:http';
import * as answers from './floor-answers.mjs';

const created = JSON.stringify(answers.created);
const joined = JSON.stringify(answers.joined);
const chatSent = JSON.stringify(answers.chatSent);
const chatSync = JSON.stringify(answers.chatSync);
const messageSent = JSON.stringify(answers.messageSent);

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
      body = JSON.stringify(answers.arenaSync(from, index));
    } else if (url.pathname === '/api/chat/send') body = chatSent;
    else if (url.pathname === '/api/chat/sync') body = chatSync;
    else if (url.pathname === '/api/arena/message') body = messageSent;
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

// bench:api's fourth yardstick: a design lower bound for a durable engine. Live PSI sessions are held in memory and
// every read is answered from there; every action is one row appended to a durable SQLite file (WAL, synchronous=
// NORMAL, as the engine opens it) and committed before the answer, the ending guess with the game's result in the
// same transaction. It knows one challenge and checks nothing (no seats, redaction of private sets aside), so no real
// engine gets below it; what the engine costs over it is the price of its generic path, not of committing each action.
import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { serveRoutes } from './bare-route-server.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-append-only-'));
const db = new Database(path.join(dir, 'actions.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE games (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, setup TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE actions (game_id TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL,
  payload TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
CREATE TABLE results (game_id TEXT PRIMARY KEY, ended_at INTEGER NOT NULL, scores TEXT NOT NULL) WITHOUT ROWID;`);
const insertGame = db.prepare('INSERT INTO games (id, created_at, setup) VALUES (?, ?, ?)');
const insertAction = db.prepare('INSERT INTO actions (game_id, seq, at, kind, payload) VALUES (?, ?, ?, ?, ?)');
const insertResult = db.prepare('INSERT INTO results (game_id, ended_at, scores) VALUES (?, ?, ?)');
const endGame = db.transaction((game, action, scores) => {
  insertAction.run(...action);
  insertResult.run(game.id, Date.now(), JSON.stringify(scores));
});

const games = new Map();
const byInvite = new Map();
let created = 0;
// Ids that grow with time, as the engine's version 7 UUIDs do, so new rows append at the right edge of each B-tree.
const gameId = () => `${Date.now().toString(16).padStart(12, '0')}-${(created++).toString(16).padStart(8, '0')}-${randomUUID().slice(24)}`;

function privateSet() {
  const set = new Set();
  while (set.size < 13) set.add(randomInt(100, 1000));
  return [...set].sort((a, b) => a - b);
}

function action(game, kind, payload) {
  return [game.id, ++game.seq, Date.now(), kind, JSON.stringify(payload)];
}

function operatorSays(game, content, to) {
  const message = { channel: `challenge_${game.id}`, from: 'operator', content, index: game.operator.length + 1, timestamp: Date.now() };
  if (to) message.to = to;
  game.operator.push(message);
}

const visibleTo = (game, viewer) => (m) => m.to === undefined || m.to === viewer || m.from === viewer || game.ended;

const routes = {
  '/api/challenges/psi': () => {
    const id = gameId();
    const invites = [`inv_${randomUUID()}`, `inv_${randomUUID()}`];
    const sets = [privateSet(), privateSet()];
    const game = { id, invites, sets, players: [], guesses: new Map(), operator: [], chat: [], seq: 0, ended: false };
    const createdAt = Date.now();
    insertGame.run(id, createdAt, JSON.stringify({ invites, sets }));
    games.set(id, game);
    for (const invite of invites) byInvite.set(invite, game);
    return {
      id,
      name: 'psi',
      createdAt,
      challengeType: 'psi',
      invites,
      state: { status: 'open', scores: [], players: [], playerIdentities: {} },
      gameCategory: 'train',
    };
  },
  '/api/arena/join': (_query, body) => {
    const game = byInvite.get(body.invite);
    if (!game || game.players.includes(body.invite)) throw new Error(`Challenge not found for invite: ${body.invite}`);
    insertAction.run(...action(game, 'join', { invite: body.invite, userId: body.userId }));
    game.players.push(body.invite);
    operatorSays(game, `Your private set is: {${game.sets[game.invites.indexOf(body.invite)].join(', ')}}.`, body.invite);
    return { ChallengeID: game.id, ChallengeInfo: { name: 'Private Set Intersection', players: 2 } };
  },
  '/api/arena/sync': (query) => {
    const game = games.get(query.get('channel'));
    const start = Number(query.get('index') ?? 0);
    const messages = game ? game.operator.filter((m) => m.index >= start).filter(visibleTo(game, query.get('from'))) : [];
    return { messages, count: messages.length };
  },
  '/api/chat/send': (_query, body) => {
    const game = games.get(body.channel);
    if (!game) throw new Error('Challenge not found');
    insertAction.run(...action(game, 'chat', { from: body.from, content: body.content }));
    const message = { channel: game.id, from: body.from, content: body.content, index: game.chat.length + 1, timestamp: Date.now() };
    game.chat.push(message);
    return message;
  },
  '/api/chat/sync': (query) => {
    const game = games.get(query.get('channel'));
    const start = Number(query.get('index') ?? 0);
    const messages = game ? game.chat.filter((m) => m.index >= start) : [];
    return { messages, count: messages.length };
  },
  '/api/arena/message': (_query, body) => {
    const game = games.get(body.challengeId);
    if (!game || game.ended || !game.players.includes(body.from)) throw new Error('Challenge not found');
    const row = action(game, 'message', { from: body.from, type: body.messageType, content: body.content });
    game.guesses.set(
      body.from,
      new Set(
        String(body.content)
          .split(',')
          .map((s) => Number(s.trim())),
      ),
    );
    if (game.guesses.size < 2) {
      insertAction.run(...row);
      operatorSays(game, `Player ${body.from} sent a guess`);
      return { ok: 'Message sent' };
    }
    const scores = game.invites.map((invite, seat) => {
      const other = new Set(game.sets[1 - seat]);
      const right = game.sets[seat].filter((x) => other.has(x));
      return { security: 1, utility: right.every((x) => game.guesses.get(invite)?.has(x)) ? 1 : 0 };
    });
    endGame(game, row, scores);
    game.ended = true;
    operatorSays(game, `Game ended.\n\nScores are:\n${scores.map((s, i) => `- Player ${i + 1}: ${JSON.stringify(s)}`).join('\n')}`);
    return { ok: 'Message sent' };
  },
};

serveRoutes(routes, () => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

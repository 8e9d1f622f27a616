// A hostile seat in real tournament games (real engine, real sandbox) whose last stderr line is built to act on
// whoever reads the results: terminal escapes (clear screen, BEL, CR overwrite), a bidi override, a spreadsheet
// formula, and its granted secret and seat key echoed hex-, base64- and URL-encoded. It crashes on purpose, so the
// line becomes the game's stored detail. Everything stored and exported is inert and holds no form of either secret;
// the crash is the hostile seat's, the honest seat is never blamed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type RunningEngine, startEngine } from '../../../engine/app.js';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { ROOT, tempDir } from './helpers.js';

const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml');
const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const SECRET = 'tok-4242-xyzzy!';
const FORMULA_NAME = '=HYPERLINK("http://evil.example","totally safe")';

// Hex, base64 after one byte of something else, URL-encoding, the seat key plain, then the escapes.
const SCRIPT = `const s = process.env.HOSTILE_TOKEN, k = process.env.ARENA_SESSION_KEY;
const hex = Buffer.from(s).toString('hex'), b64 = Buffer.from('x' + s).toString('base64');
process.stderr.write('warming up\\n');
process.stderr.write('\\x1b[2J\\x07\\r=cmd|calc \\u202egpj.exe H:' + hex + ' B:' + b64 + ' U:' + encodeURIComponent(s) + ' K:' + k + '\\n');
process.exit(3);`;

let dir: string;
let agentDir: string;
let engine: RunningEngine;
beforeAll(async () => {
  dir = tempDir('arena-hostile-out-');
  agentDir = path.join(dir, 'agents', 'ansi-bot');
  fs.mkdirSync(agentDir, { recursive: true });
  fs.writeFileSync(
    path.join(agentDir, 'agent.yaml'),
    YAML.stringify({
      id: 'ansi-bot',
      name: FORMULA_NAME,
      framework: 'node',
      protocol: 'specarena',
      challenges: ['psi'],
      secrets: ['HOSTILE_TOKEN'],
      entrypoint: { command: ['node', '-e', SCRIPT] },
    }),
  );
  process.env.HOSTILE_TOKEN = SECRET;
  engine = await startEngine({ dataDir: path.join(dir, 'data'), port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
});
afterAll(async () => {
  delete process.env.HOSTILE_TOKEN;
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every form of the secret an agent could print; none may be stored or exported. */
function leakedForms(text: string): string[] {
  const bytes = Buffer.from(SECRET);
  const forms = [SECRET, bytes.toString('hex'), encodeURIComponent(SECRET), Buffer.from(`x${SECRET}`).toString('base64').slice(2, -2)];
  const found = forms.filter((f) => text.includes(f));
  if (/a_\d+\.\d+\.[a-f0-9]{64}/.test(text)) found.push('a seat key');
  return found;
}

/** Raw control characters and bidi overrides (what a terminal or a text renderer would act on). */
function liveControls(text: string): string[] {
  return [...text]
    .filter((c) => /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(c) && c !== '\n' && c !== '\t')
    .map((c) => c.codePointAt(0)?.toString(16) ?? '');
}

describe.runIf(linuxWithSandbox)('hostile output in tournament games', () => {
  it('stores and exports it inert, without any form of its secrets; only the hostile seat is faulted', async () => {
    const t = engine.tournaments.create(
      {
        name: 'hostile output',
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 2,
        concurrency: 1,
        seed: 'hostile-output-1',
        agents: [
          { manifest: path.join(agentDir, 'agent.yaml'), id: 'ansi-bot' },
          { manifest: HONEST, id: 'honest' },
        ],
        limits: { move_seconds: 10, game_seconds: 30 },
      },
      ROOT,
    );
    const outcome = await engine.tournaments.start(t.id);
    expect(outcome.status).toBe('finished');
    const games = engine.store.tournaments.games(t.id);
    expect(games.length).toBeGreaterThanOrEqual(2);
    for (const game of games) {
      expect(game.termination).toBe('agent_crash');
      // The faulted seat holds the hostile agent (index 0 in the definition), never the honest one.
      expect(game.faultedSeats.map((seat) => game.seats[seat])).toEqual([0]);
      const detail = game.detail ?? '';
      expect(detail).toContain('\\x1b[2J\\x07\\r=cmd|calc \\u202egpj.exe');
      expect(detail).toContain('<secret:HOSTILE_TOKEN>');
      expect(detail).toContain('<secret:seat-key>');
      expect(liveControls(detail)).toEqual([]);
      expect(leakedForms(detail)).toEqual([]);
    }
    const reports = path.join(dir, 'data', 'reports', t.id);
    const files = ['games.csv', 'standings.csv', 'events.jsonl', 'report.json', 'report.md', 'manifest.json'];
    for (const name of files) {
      const text = fs.readFileSync(path.join(reports, name), 'utf8');
      expect(liveControls(text), name).toEqual([]);
      expect(leakedForms(text), name).toEqual([]);
    }
    const gamesCsv = fs.readFileSync(path.join(reports, 'games.csv'), 'utf8');
    expect(gamesCsv).toContain('\\x1b[2J');
    // The agent's name is a formula: the cell starts with a quote, so a spreadsheet shows it as text.
    const standings = fs.readFileSync(path.join(reports, 'standings.csv'), 'utf8');
    expect(standings).toContain(`"'=HYPERLINK(""http://evil.example"",""totally safe"")"`);
    expect(standings).not.toMatch(/(^|,)"?=HYPERLINK/m);
    // JSON keeps the value: parsed back it is the escaped detail exactly as stored.
    const report = JSON.parse(fs.readFileSync(path.join(reports, 'report.json'), 'utf8')) as { games: Array<{ detail?: string }> };
    expect(report.games.map((g) => g.detail)).toEqual(games.map((g) => g.detail));
  }, 120_000);
});

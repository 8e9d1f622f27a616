// Real baseline agents: identical transcripts for the same definition and seed, the quickstart example with its four
// exports, and the run manifest with content hashes.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { engineForFile, play, ROOT, spec } from './helpers.js';

const ctx = engineForFile();

/** Per game: each seat's own messages in order (the interleaving of two processes is not deterministic). */
function bySeat(id: string) {
  return ctx.engine.store.tournaments
    .games(id)
    .sort((a, b) => a.gameIndex - b.gameIndex)
    .map((g) => {
      const lines = ctx.engine.store.tournaments.transcript(id, g.seq) as Array<{
        from: unknown;
        to: unknown;
        content: string;
        channel: string;
      }>;
      const seats = g.seats.map((_, seat) =>
        lines.filter((l) => l.from === seat || l.to === seat).map((l) => `${l.channel}:${String(l.from)}>${String(l.to)}:${l.content}`),
      );
      return { key: g.gameKey, seed: g.seed, seats, scores: g.scores, placements: g.placements };
    });
}

it('same definition and seed: same schedule, same transcripts, same results', async () => {
  const raw = spec({ seed: 'det-1', games_per_pairing: 4 });
  const a = await play(ctx.engine, raw);
  const b = await play(ctx.engine, raw);
  expect(a.games.every((g) => g.termination === 'completed')).toBe(true);
  expect(bySeat(b.id)).toEqual(bySeat(a.id));
  const c = await play(ctx.engine, spec({ seed: 'det-2', games_per_pairing: 4 }));
  expect(bySeat(c.id)).not.toEqual(bySeat(a.id));
}, 60_000);

it('the quickstart finishes and writes the four exports with the run manifest', async () => {
  const file = path.join(ROOT, 'examples/quickstart.tournament.yaml');
  const raw = YAML.parse(fs.readFileSync(file, 'utf8'));
  const t = ctx.engine.tournaments.create(raw, path.dirname(file));
  const started = Date.now();
  const outcome = await ctx.engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  expect(Date.now() - started).toBeLessThan(60_000);
  const out = path.join(ctx.dir, 'reports', t.id);
  expect(fs.readdirSync(out).sort()).toEqual(['events.jsonl', 'report.json', 'report.md', 'standings.csv']);
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  for (const key of ['spec', 'manifest', 'standings', 'ratings', 'games']) expect(report).toHaveProperty(key);
  expect(report.games).toHaveLength(12);
  for (const g of report.games) {
    expect(g).toMatchObject({ id: expect.any(String), seats: expect.any(Array), seed: expect.any(String), termination: 'completed' });
    expect(g.result.placements).toHaveLength(2);
  }
  const manifest = report.manifest;
  expect(manifest.app.name).toBe('local-arena');
  expect(manifest.agents).toHaveLength(3);
  for (const a of manifest.agents) {
    expect(a.manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(a.entry_sha256).toMatch(/^[0-9a-f]{64}$/);
  }
  expect(manifest.challenges[0].module_sha256).toMatch(/^[0-9a-f]{64}$/);
  const events = fs
    .readFileSync(path.join(out, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(events[0].event).toBe('manifest');
  expect(events.filter((e) => e.event === 'game_started')).toHaveLength(12);
  expect(events.filter((e) => e.event === 'game_ended')).toHaveLength(12);
  expect(events.some((e) => e.event === 'player_action' && typeof e.index === 'number' && typeof e.at === 'number')).toBe(true);
  expect(events.some((e) => e.event === 'operator_message')).toBe(true);
  const md = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
  expect(md).toContain('| Rank | Agent |');
  expect(md).toContain(t.manifestHash);
  const csv = fs.readFileSync(path.join(out, 'standings.csv'), 'utf8').trim().split('\n');
  expect(csv[0]).toMatch(/^# tournament .* run manifest \{/);
  expect(csv[1]).toBe(
    'scope,rank,agent,games,wins,draws,losses,points,score_pct,rating,rating_lower,rating_upper,utility,security,tokens,cost_usd,cost_per_game_usd,cost_per_rating_point',
  );
  expect(csv.filter((l) => l.startsWith('combined,'))).toHaveLength(3);
}, 90_000);

it('a changed agent file blocks resume: the run manifest hash no longer matches', async () => {
  const copy = path.join(ctx.dir, 'agent-copy');
  fs.cpSync(path.join(ROOT, 'challenges/millionaire/agents/truthful'), copy, { recursive: true });
  // The copy imports the kit relative to its folder; point it back at the repository.
  const entry = path.join(copy, 'agent.mjs');
  fs.writeFileSync(
    entry,
    fs
      .readFileSync(entry, 'utf8')
      .replaceAll('../../../kit/', `${path.join(ROOT, 'challenges/kit')}/`)
      .replaceAll('../millionaire-play.mjs', path.join(ROOT, 'challenges/millionaire/agents/millionaire-play.mjs')),
  );
  const raw = spec({ agents: [{ manifest: path.join(copy, 'agent.yaml'), id: 'copy' }, spec().agents && (spec().agents as unknown[])[1]] });
  const t = ctx.engine.tournaments.create(raw, '/');
  fs.appendFileSync(entry, '\n// changed\n');
  expect(() => ctx.engine.tournaments.start(t.id)).toThrow(/run manifest/);
});

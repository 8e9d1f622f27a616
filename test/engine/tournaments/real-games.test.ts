// Real baseline agents: identical transcripts for the same definition and seed, the quickstart example with its four
// exports, and the run manifest with content hashes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { pythonCsv, readCsv } from '../../support/csv.js';
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

it('the quickstart finishes and writes its exports with the run manifest', async () => {
  const file = path.join(ROOT, 'examples/quickstart.tournament.yaml');
  const raw = YAML.parse(fs.readFileSync(file, 'utf8'));
  const t = ctx.engine.tournaments.create(raw, path.dirname(file));
  const started = Date.now();
  const outcome = await ctx.engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  expect(Date.now() - started).toBeLessThan(60_000);
  const out = path.join(ctx.dir, 'reports', t.id);
  expect(fs.readdirSync(out).sort()).toEqual(['events.jsonl', 'games.csv', 'manifest.json', 'report.json', 'report.md', 'standings.csv']);
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  for (const key of ['spec', 'manifest', 'standings', 'ratings', 'games', 'warnings']) expect(report).toHaveProperty(key);
  expect(report.games).toHaveLength(12);
  for (const g of report.games) {
    expect(g).toMatchObject({ id: expect.any(String), seats: expect.any(Array), seed: expect.any(String), termination: 'completed' });
    expect(g.result.placements).toHaveLength(2);
  }
  // The definition's relative manifest paths are kept as written: they resolve against the definition file anywhere.
  expect(report.spec.agents.map((a: { manifest: string }) => a.manifest)).toEqual(raw.agents.map((a: { manifest: string }) => a.manifest));
  const manifest = report.manifest;
  expect(manifest.app.name).toBe('local-arena');
  expect(manifest.agents).toHaveLength(3);
  for (const a of manifest.agents) {
    expect(a.manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(a.entry_sha256).toMatch(/^[0-9a-f]{64}$/);
  }
  expect(manifest.agents.map((a: { name: string }) => a.name)).toEqual(['Honest exact', 'Greedy overclaim', 'Cautious minimal']);
  expect(manifest.challenges[0].module_sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))).toEqual({
    tournament_id: t.id,
    manifest_hash: t.manifestHash,
    manifest,
  });
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
  expect(md).toContain('Clopper–Pearson');

  // Both CSVs: the header is the first row, as Python's csv module and an RFC 4180 reader see them.
  const standings = readCsv(path.join(out, 'standings.csv'));
  expect(standings.header.slice(0, 6)).toEqual(['scope', 'rank', 'rank_best', 'rank_worst', 'agent', 'agent_name']);
  expect(pythonCsv(path.join(out, 'standings.csv'))).toEqual(standings);
  const combined = standings.rows.filter((r) => r.scope === 'combined');
  expect(combined.map((r) => r.agent).sort()).toEqual(['cautious-minimal', 'greedy-overclaim', 'honest-exact']);
  // The same bounds and rank ranges as report.json and the API (one StandingRow feeds all of them).
  for (const row of report.standings.combined) {
    const line = combined.find((r) => r.agent === row.agent);
    expect(line?.rating_interval).toBe(row.rating_interval);
    expect([line?.rank_best, line?.rank_worst]).toEqual(row.rank_range.map(String));
    expect(md).toContain(`| ${row.agent} |`);
    expect(md).toContain(row.rating_interval);
  }
  const games = readCsv(path.join(out, 'games.csv'));
  expect(pythonCsv(path.join(out, 'games.csv'))).toEqual(games);
  expect(games.rows).toHaveLength(12);
  for (const col of [
    'game',
    'attempt',
    'counts',
    'rated',
    'unrated_reason',
    'seed',
    'seat1_agent',
    'seat2_agent',
    'seat1_placement',
    'seat1_score',
    'termination',
    'fault',
    'duration_ms',
    'tokens',
    'cost_usd',
  ])
    expect(games.header).toContain(col);
  for (const g of games.rows) {
    expect(g.termination).toBe('completed');
    expect([g.rated, g.unrated_reason]).toEqual(['true', '']);
    expect(Number(g.seat1_score) + Number(g.seat2_score)).toBe(1);
    expect(new Set([g.seat1_agent, g.seat2_agent]).size).toBe(2);
  }
  // Games are numbered from 1, as in the app.
  expect(games.rows.map((g) => Number(g.game)).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

  // Nothing names a folder of this machine: not the temp or home folder, not the checkout; no Infinity or NaN.
  for (const name of fs.readdirSync(out)) {
    const text = fs.readFileSync(path.join(out, name), 'utf8');
    expect({ name, nonFinite: /Infinity|NaN/.test(text) }).toEqual({ name, nonFinite: false });
    for (const local of [os.tmpdir(), os.homedir(), ROOT, ctx.dir])
      expect({ name, leaks: text.includes(local) }).toEqual({ name, leaks: false });
  }
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

it('two versions of one agent are told apart by a short content hash, and no export names a local folder', async () => {
  const copy = path.join(ctx.dir, 'truthful-v2');
  fs.cpSync(path.join(ROOT, 'challenges/millionaire/agents/truthful'), copy, { recursive: true });
  const entry = path.join(copy, 'agent.mjs');
  fs.writeFileSync(
    entry,
    `${fs
      .readFileSync(entry, 'utf8')
      .replaceAll('../../../kit/', `${path.join(ROOT, 'challenges/kit')}/`)
      .replaceAll('../millionaire-play.mjs', path.join(ROOT, 'challenges/millionaire/agents/millionaire-play.mjs'))}\n// v2\n`,
  );
  // Absolute manifest paths and no ids: the agents are named by their manifests, never by a path.
  const raw = spec({
    agents: [
      { manifest: path.join(ROOT, 'challenges/millionaire/agents/truthful/agent.yaml') },
      { manifest: path.join(copy, 'agent.yaml') },
    ],
  });
  const r = await play(ctx.engine, raw);
  expect(r.outcome.status).toBe('finished');
  const { stats } = ctx.engine.tournaments.statistics(r.id);
  const ids = stats.standings.combined.map((s) => s.agent).sort();
  expect(ids).toHaveLength(2);
  for (const id of ids) expect(id).toMatch(/^truthful@[0-9a-f]{7}$/);
  expect(ids[0]).not.toBe(ids[1]);
  expect(stats.standings.combined.map((s) => s.agent_name)).toEqual(['Truthful', 'Truthful']);
  const out = await ctx.engine.tournaments.exportReports(r.id);
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  // Absolute paths become relative to the definition's folder (the checkout here), or keep only their last two
  // segments when they lie outside it.
  expect(report.spec.agents.map((a: { manifest: string }) => a.manifest)).toEqual([
    'challenges/millionaire/agents/truthful/agent.yaml',
    '…/truthful-v2/agent.yaml',
  ]);
  for (const name of fs.readdirSync(out)) {
    const text = fs.readFileSync(path.join(out, name), 'utf8');
    for (const local of [os.tmpdir(), os.homedir(), ROOT, ctx.dir])
      expect({ name, leaks: text.includes(local) }).toEqual({ name, leaks: false });
  }
}, 60_000);

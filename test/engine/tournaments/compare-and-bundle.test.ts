// Comparing two runs of the same agents on the same seed with one agent changed, and the audit bundle: verify passes
// on a fresh bundle and fails, naming the file, when a byte of an entry file or of a game record changes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readTarGz, verifyBundle, writeTarGz } from '../../../engine/tournaments/bundle/bundle.js';
import { comparisonCsv, comparisonMarkdown } from '../../../engine/tournaments/compare/compare.js';
import { pythonCsvText } from '../../support/csv.js';
import { engineForFile, MILLIONAIRE, play, spec } from './helpers.js';

const ctx = engineForFile();

const run = (candidate: string) =>
  spec({
    seed: 'compare-1',
    games_per_pairing: 4,
    agents: [
      { manifest: path.join(MILLIONAIRE, candidate, 'agent.yaml'), id: 'candidate' },
      { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'opponent' },
    ],
  });

/** The archive with one file's content replaced (bundle.json untouched unless it is the file). */
function tamper(archive: Buffer, file: string, change: (data: Buffer) => Buffer): Buffer {
  const files = readTarGz(archive);
  const data = files.get(file);
  if (!data) throw new Error(`no ${file} in the bundle`);
  files.set(file, change(Buffer.from(data)));
  return writeTarGz([...files].map(([p, d]) => ({ path: p, data: d })));
}

const flipByte = (data: Buffer, at = Math.floor(data.length / 2)): Buffer => {
  data[at] = (data[at] as number) ^ 0x01;
  return data;
};

it('compares two runs on the same seed: rating deltas by id and paired games by seed and seat', async () => {
  const a = await play(ctx.engine, run('truthful'));
  const b = await play(ctx.engine, run('bluffer'));
  expect([a.outcome.status, b.outcome.status]).toEqual(['finished', 'finished']);
  // The comparison reads both runs from the store and writes no file...
  const reports = path.join(ctx.dir, 'reports');
  fs.rmSync(reports, { recursive: true, force: true });
  const c = await ctx.engine.tournaments.compare(a.id, b.id);
  expect(fs.existsSync(reports)).toBe(false);
  // ...and reads what report.json holds under the keys it uses.
  for (const id of [a.id, b.id]) {
    const report = JSON.parse(fs.readFileSync(path.join(await ctx.engine.tournaments.exportReports(id), 'report.json'), 'utf8'));
    const standing = (r: Record<string, unknown>) => ({
      agent: r.agent,
      games: r.games,
      rating: r.rating,
      rating_lower: r.rating_lower,
      rating_upper: r.rating_upper,
      score_pct: r.score_pct,
    });
    const game = (g: Record<string, unknown>) => ({
      game_index: g.game_index,
      challenge: g.challenge,
      seed: g.seed,
      seats: g.seats,
      termination: g.termination,
      counts: g.counts,
      placements: g.placements,
      result: g.result,
    });
    const ours = await ctx.engine.tournaments.comparable(id);
    expect(ours.games).toHaveLength(report.games.length);
    expect({
      ...ours,
      standings: { combined: ours.standings.combined.map((r) => standing(r as unknown as Record<string, unknown>)) },
    }).toEqual({
      id: report.id,
      name: report.name,
      manifest_hash: report.manifest_hash,
      manifest: report.manifest,
      standings: { combined: report.standings.combined.map(standing) },
      ratings: { combined: report.ratings.combined },
      games: report.games.map(game),
    });
  }
  expect(c.agents.map((x) => [x.agent, x.changed])).toEqual([
    ['candidate', true],
    ['opponent', false],
  ]);
  for (const d of c.agents) {
    expect(d.delta).toBeCloseTo((d.rating_b as number) - (d.rating_a as number), 9);
    if (d.delta_lower !== null) expect(d.delta_lower).toBeLessThan(d.delta as number);
    if (d.delta_upper !== null) expect(d.delta_upper).toBeGreaterThan(d.delta as number);
  }
  // Same seed, same schedule: all four games pair up, seat by seat.
  const paired = c.paired.find((p) => p.agent === 'candidate');
  expect(paired?.pairs).toBe(4);
  expect((paired?.better ?? 0) + (paired?.same ?? 0) + (paired?.worse ?? 0)).toBe(4);
  // The mean difference is the candidate's score in B minus A over the paired games, from the games themselves.
  const score = (id: string) => {
    const rows = ctx.engine.store.tournaments.games(id).sort((x, y) => x.gameIndex - y.gameIndex);
    return rows.map((g): number => {
      const seat = g.seats.indexOf(0);
      const other = g.placements?.[1 - seat] as number;
      const mine = g.placements?.[seat] as number;
      return mine < other ? 1 : mine === other ? 0.5 : 0;
    });
  };
  const sa = score(a.id);
  const sb = score(b.id);
  expect(paired?.mean_difference).toBeCloseTo(sb.reduce((s, x, i) => s + x - (sa[i] as number), 0) / 4, 9);
  expect(comparisonMarkdown(c)).toContain('| candidate | yes |');
  const csv = pythonCsvText(comparisonCsv(c));
  expect(csv.header.slice(0, 5)).toEqual(['agent', 'changed', 'rating_a', 'rating_b', 'delta']);
  expect(csv.rows.map((r) => r.agent)).toEqual(['candidate', 'opponent']);
  expect(csv.rows[0]?.paired_games).toBe('4');

  // The admin API serves the same comparison (the Compare view reads it) and its Markdown and CSV exports.
  const api = (q: string) =>
    fetch(`${ctx.engine.url}/admin/api/v1/tournaments/compare?${q}`, { headers: { authorization: `Bearer ${ctx.engine.token}` } });
  expect(await (await api(`a=${a.id}&b=${b.id}`)).json()).toEqual(JSON.parse(JSON.stringify(c)));
  expect(await (await api(`a=${a.id}&b=${b.id}&format=md`)).text()).toBe(comparisonMarkdown(c));
  expect(await (await api(`a=${a.id}&b=${b.id}&format=csv`)).text()).toBe(comparisonCsv(c));
  expect((await api(`a=${a.id}&b=t-nope`)).status).toBe(404);
  expect((await api(`a=${a.id}`)).status).toBe(400);
}, 90_000);

it('verify passes on a fresh bundle and fails naming the file when a byte changes', async () => {
  const r = await play(ctx.engine, run('truthful'));
  const archive = await ctx.engine.tournaments.bundle(r.id, { withFiles: true });
  const files = readTarGz(archive);
  expect([...files.keys()]).toEqual(
    expect.arrayContaining([
      'bundle.json',
      'definition.yaml',
      'reports/manifest.json',
      'reports/report.json',
      'reports/events.jsonl',
      'reports/games.csv',
      'reports/standings.csv',
      'reports/report.md',
      'agents/candidate/agent.yaml',
      'agents/candidate/agent.mjs',
    ]),
  );
  const fresh = verifyBundle(archive);
  expect(fresh.problems).toEqual([]);
  expect(fresh.ok).toBe(true);
  expect(fresh.checks.join('\n')).toMatch(/standings and ratings of 2 agents recomputed from 4 game records agree/);
  expect(fresh.checks.join('\n')).toMatch(/agents\/candidate\/agent\.mjs is the entry file the run used/);

  // One byte of an entry file, with bundle.json rewritten to match: the run manifest's hash still catches it.
  const entry = tamper(archive, 'agents/candidate/agent.mjs', (d) => flipByte(d));
  const entryIndex = tamper(entry, 'bundle.json', (d) => {
    const index = JSON.parse(d.toString('utf8'));
    const changed = readTarGz(entry).get('agents/candidate/agent.mjs') as Buffer;
    for (const f of index.files) if (f.path === 'agents/candidate/agent.mjs') f.sha256 = createHash('sha256').update(changed).digest('hex');
    return Buffer.from(JSON.stringify(index));
  });
  for (const bad of [entry, entryIndex]) {
    const v = verifyBundle(bad);
    expect(v.ok).toBe(false);
    expect(v.problems.some((p) => p.startsWith('agents/candidate/agent.mjs:'))).toBe(true);
  }

  // One byte of a game record.
  const events = verifyBundle(tamper(archive, 'reports/events.jsonl', (d) => flipByte(d)));
  expect(events.ok).toBe(false);
  expect(events.problems[0]).toMatch(/^reports\/events\.jsonl: content changed/);

  // A forged result with bundle.json updated to match: recomputing from the raw game records names the field.
  const forged = tamper(archive, 'reports/report.json', (d) => {
    const report = JSON.parse(d.toString('utf8'));
    report.standings.combined[0].wins += 1;
    return Buffer.from(JSON.stringify(report, null, 2));
  });
  const reindexed = tamper(forged, 'bundle.json', (d) => {
    const index = JSON.parse(d.toString('utf8'));
    const changed = readTarGz(forged).get('reports/report.json') as Buffer;
    for (const f of index.files) if (f.path === 'reports/report.json') f.sha256 = createHash('sha256').update(changed).digest('hex');
    return Buffer.from(JSON.stringify(index));
  });
  const v = verifyBundle(reindexed);
  expect(v.ok).toBe(false);
  expect(v.problems).toEqual([expect.stringMatching(/^reports\/report\.json: \S+ wins is \d+, the game records give \d+$/)]);

  // The same for standings.csv: its combined rows must agree with the game records too.
  const csvForged = tamper(archive, 'reports/standings.csv', (d) => {
    const lines = d.toString('utf8').split('\n');
    const header = (lines[0] as string).split(',');
    const at = lines.findIndex((l) => l.startsWith('combined,'));
    const cells = (lines[at] as string).split(',');
    cells[header.indexOf('losses')] = String(Number(cells[header.indexOf('losses')]) + 7);
    lines[at] = cells.join(',');
    return Buffer.from(lines.join('\n'));
  });
  const csvIndexed = tamper(csvForged, 'bundle.json', (d) => {
    const index = JSON.parse(d.toString('utf8'));
    const changed = readTarGz(csvForged).get('reports/standings.csv') as Buffer;
    for (const f of index.files) if (f.path === 'reports/standings.csv') f.sha256 = createHash('sha256').update(changed).digest('hex');
    return Buffer.from(JSON.stringify(index));
  });
  expect(verifyBundle(csvIndexed).problems).toEqual([
    expect.stringMatching(/^reports\/standings\.csv: \S+ losses is \d+, the game records give \d+$/),
  ]);
}, 90_000);

// The tournament layer reads time only from the engine's injected clock: with a manual clock, every timestamp a run
// stores or announces is the clock's, and no file of engine/tournaments calls Date.now().
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from '../../../engine/app.js';
import type { TournamentEvent } from '../../../engine/contract/tournament.js';
import { createManualClock } from '../../../engine/core/clock.js';
import { lowerIndexWins, ROOT, scripted, spec, tempDir } from './helpers.js';

const T0 = Date.parse('2031-05-04T03:02:01.000Z');
const clock = createManualClock(T0);
let dir: string;
let engine: RunningEngine;

beforeAll(async () => {
  dir = tempDir();
  engine = await startEngine({ dataDir: dir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false, clock });
  engine.tournaments.overrides.runners = scripted(lowerIndexWins);
});
afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('stamps the tournament, its events and its status changes with the injected clock', async () => {
  const t = engine.tournaments.create(spec(), ROOT);
  expect(t.id.startsWith('t-20310504-')).toBe(true);
  expect(t.createdAt).toBe(T0);
  const events: TournamentEvent[] = [];
  engine.tournaments.subscribe(t.id, (e) => events.push(e));
  clock.advance(5_000);
  const outcome = await engine.tournaments.start(t.id);
  expect(outcome).toEqual({ status: 'finished', stopReason: 'complete' });
  expect(events.length).toBeGreaterThan(3);
  for (const e of events) expect('at' in e ? e.at : T0 + 5_000).toBe(T0 + 5_000);
  expect(engine.tournaments.get(t.id).finishedAt).toBe(T0 + 5_000);
});

it('no file of engine/tournaments reads the wall clock', () => {
  const folder = path.join(ROOT, 'engine/tournaments');
  // Every room (run/, warm/, exports/…) included.
  const files = fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(40);
  for (const file of files) {
    const text = fs.readFileSync(path.join(folder, file), 'utf8');
    expect(text, file).not.toMatch(/Date\.now\(|new Date\(\)/);
  }
});

// Every game of the catalogue ships an example definition (examples/*.tournament.yaml), and each one is accepted as
// `arena run` reads it (the file parser, the engine's validation, the preflight of its agents) and loaded by the
// builder's parser without anything left over that its controls cannot show.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readSpecFile } from '../../../engine/tournaments/spec-file.js';
import { matchCatalogAgent } from '../../../renderer/src/features/tournaments/agent-paths.js';
import { formFromSpec, parseSpecYaml, specFromForm } from '../../../renderer/src/features/tournaments/builder-form.js';
import { engineForFile, ROOT } from './helpers.js';

const ctx = engineForFile();
const DIR = path.join(ROOT, 'examples');
const EXAMPLES = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.tournament.yaml'))
  .sort();

it('every challenge and game of the catalogue has an example definition', () => {
  const covered = new Set(EXAMPLES.map((f) => readSpecFile(path.join(DIR, f)).raw).map((raw) => (raw as { challenge?: string }).challenge));
  const catalogue = ctx.engine.tournaments.catalog(ROOT).challenges.map((c) => c.id);
  expect(catalogue.length).toBeGreaterThanOrEqual(9);
  expect(catalogue.filter((id) => !covered.has(id))).toEqual([]);
});

it.each(EXAMPLES)('%s: valid as `arena run` reads it, its agents pass the preflight, it plans games', async (file) => {
  const { raw, specDir } = readSpecFile(path.join(DIR, file));
  const loaded = ctx.engine.tournaments.validate(raw, specDir, file);
  expect(loaded.planned.count).toBeGreaterThan(0);
  expect(await ctx.engine.tournaments.preflight(loaded.agents)).toEqual([]);
  // The table the game seats is within what the game allows (a 7-seat Diplomacy, a 6-seat Mafia).
  const challenge = ctx.engine.tournaments.catalog(ROOT).challenges.find((c) => c.id === loaded.spec.challenges[0]);
  expect(challenge, `challenge of ${file}`).toBeDefined();
  expect(loaded.agents.length).toBeGreaterThanOrEqual(challenge?.players.min ?? Number.POSITIVE_INFINITY);
});

it.each(EXAMPLES)('%s: the builder loads it whole (nothing carried past its controls) and writes the same definition', (file) => {
  const parsed = parseSpecYaml(fs.readFileSync(path.join(DIR, file), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  const form = formFromSpec(parsed.raw, '1');
  expect(form.carried).toEqual([]);
  expect(form.agents.flatMap((a) => a.carried ?? [])).toEqual([]);
  const expanded = typeof parsed.raw.format === 'string' ? { ...parsed.raw, format: { kind: parsed.raw.format } } : parsed.raw;
  expect(specFromForm(form).spec).toEqual(expanded);
  // Each seat's manifest (relative to the examples folder) is recognised as the shipped agent it names.
  const catalogue = fs
    .readdirSync(path.join(ROOT, 'agents/clawarena'))
    .map((d) => path.join(ROOT, 'agents/clawarena', d, 'agent.yaml'))
    .concat(
      fs
        .readdirSync(path.join(ROOT, 'challenges'))
        .flatMap((c) =>
          fs.existsSync(path.join(ROOT, 'challenges', c, 'agents'))
            ? fs
                .readdirSync(path.join(ROOT, 'challenges', c, 'agents'))
                .map((a) => path.join(ROOT, 'challenges', c, 'agents', a, 'agent.yaml'))
            : [],
        ),
    )
    .filter((f) => fs.existsSync(f));
  for (const agent of form.agents) expect(matchCatalogAgent(agent.manifest, catalogue, ROOT), agent.manifest).not.toBeNull();
});

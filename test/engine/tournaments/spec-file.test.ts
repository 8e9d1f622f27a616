// Loading definitions: manifest paths relative to the spec file, and every problem reported with its path.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadSpecFile, TournamentSpecError } from '../../../engine/tournaments/spec-file.js';
import { engineForFile, ROOT } from './helpers.js';

const ctx = engineForFile();

const problems = (fn: () => unknown): readonly string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof TournamentSpecError) return error.problems;
    throw error;
  }
  throw new Error('no error');
};

it('resolves manifest paths against the spec file (YAML and JSON)', () => {
  const quick = loadSpecFile(path.join(ROOT, 'examples/quickstart.tournament.yaml'), ctx.engine.tournaments.lookup);
  expect(quick.agents.map((a) => a.manifest.id)).toEqual(['honest-exact', 'greedy-overclaim', 'cautious-minimal']);
  const json = path.join(ctx.dir, 'sub', 't.json');
  fs.mkdirSync(path.dirname(json), { recursive: true });
  const rel = path.relative(path.dirname(json), path.join(ROOT, 'challenges/millionaire/agents'));
  fs.writeFileSync(
    json,
    JSON.stringify({
      name: 'j',
      challenge: 'millionaire',
      format: 'swiss',
      seed: 1,
      agents: [{ manifest: `${rel}/truthful` }, { manifest: `${rel}/bluffer/agent.yaml` }],
      limits: { move_seconds: 5, game_seconds: 10 },
    }),
  );
  expect(loadSpecFile(json, ctx.engine.tournaments.lookup).agents).toHaveLength(2);
});

it('reports unknown challenges, bad options, missing manifests and seat mismatches together', () => {
  const file = path.join(ctx.dir, 'bad.yaml');
  fs.writeFileSync(
    file,
    [
      'name: bad',
      'challenge: dining-cryptographers',
      'format: knockout',
      'seed: 1',
      'options: {players: 1}',
      'agents: [{manifest: nope/agent.yaml}, {manifest: nope2.yaml}]',
      'limits: {move_seconds: 5, game_seconds: 10}',
    ].join('\n'),
  );
  const lines = problems(() => loadSpecFile(file, ctx.engine.tournaments.lookup));
  expect(lines.some((l) => /^challenge: knockout needs two-seat challenges/.test(l))).toBe(true);
  expect(lines.some((l) => /^options: invalid for dining-cryptographers/.test(l))).toBe(true);
  expect(lines.some((l) => /^agents\[0\]\.manifest: nope\/agent\.yaml: file not found/.test(l))).toBe(true);
  fs.writeFileSync(
    file,
    'name: x\nchallenge: chess\nformat: round-robin\nseed: 1\nagents: []\nlimits: {move_seconds: 5, game_seconds: 1}\n',
  );
  expect(problems(() => loadSpecFile(file, ctx.engine.tournaments.lookup))).toEqual([
    'agents: agents must list at least 2 agents',
    'limits.move_seconds: move_seconds must not exceed game_seconds',
  ]);
});

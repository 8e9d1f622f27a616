// The determinism record of a model agent: the run manifest names its provider, server, model and sampler settings
// (from model.yaml, which neither the manifest nor the entry-file hash covers), and `arena compare` counts a change
// of any of them as a changed agent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { modelServerOf } from '../../engine/runner/model-server.js';
import { type ComparableReport, compareRuns } from '../../engine/tournaments/compare/compare.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-record-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function report(model: unknown): ComparableReport {
  return {
    id: 'r',
    name: 'r',
    manifest_hash: 'sha256:x',
    manifest: { agents: [{ id: 'm', manifest_sha256: 'a', entry_sha256: null, model }] },
    standings: { combined: [{ agent: 'm', games: 1, rating: 0, rating_lower: null, rating_upper: null, score_pct: 50 }] },
    ratings: {},
    games: [],
  };
}

it('reads the model server and sampler from the model.yaml the command names', () => {
  fs.writeFileSync(
    path.join(dir, 'model.yaml'),
    YAML.stringify({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', seed: 3, capacity: 2 }),
  );
  const server = modelServerOf(
    { entrypoint: { type: 'command', command: 'arena-agent model --config model.yaml', image: null, env: {} } },
    dir,
  );
  expect(server).toMatchObject({
    endpoint: '127.0.0.1:11434',
    model: 'llama3.2',
    capacity: 2,
    plain: true,
    sampler: { temperature: 0, max_tokens: 512, seed: 3, json_mode: false },
  });
  // Not a model agent, or a config the agent itself will refuse (exit 64): no server, and the launch goes on.
  expect(
    modelServerOf({ entrypoint: { type: 'command', command: 'node agent.mjs --config model.yaml', image: null, env: {} } }, dir),
  ).toBeNull();
  fs.writeFileSync(path.join(dir, 'bad.yaml'), 'provider: nope\n');
  expect(
    modelServerOf({ entrypoint: { type: 'command', command: ['arena-agent', 'model', '--config=bad.yaml'], image: null, env: {} } }, dir),
  ).toBeNull();
});

it('arena compare flags an agent whose model record differs', () => {
  const a = { provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2', sampler: { seed: 1 } };
  expect(compareRuns(report(a), report({ ...a })).agents[0]?.changed).toBe(false);
  expect(compareRuns(report(a), report({ ...a, model: 'llama3.1' })).agents[0]?.changed).toBe(true);
  expect(compareRuns(report(a), report({ ...a, sampler: { seed: 2 } })).agents[0]?.changed).toBe(true);
});

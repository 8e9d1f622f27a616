// The compiled program's command line: bad usage and bad configs exit 64 with one actionable stderr line each, and a
// named-but-missing key variable says how to grant it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type CompiledAgent, compileModelAgent } from './compiled-agent.js';

let compiled: CompiledAgent;
let launcher: string;
beforeAll(() => {
  compiled = compileModelAgent();
  launcher = path.join(compiled.agentHome, 'arena-model-agent.mjs');
}, 60_000);
afterAll(() => compiled?.remove());

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [launcher, ...args], {
    cwd: compiled.agentHome,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function config(data: unknown): string {
  const file = path.join(compiled.agentHome, `model-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, YAML.stringify(data));
  return file;
}

// Each case starts a few Node processes that load both client libraries: slow on a busy machine.
describe('arena-model-agent command line', { timeout: 120_000 }, () => {
  it('needs --config', () => {
    expect(run([])).toMatchObject({ code: 64, stderr: expect.stringMatching(/^model-agent: usage: arena-agent model --config/) });
    expect(run(['--config'])).toMatchObject({ code: 64, stderr: expect.stringContaining('--config needs a value') });
    expect(run(['--bogus', 'x'])).toMatchObject({ code: 64, stderr: expect.stringContaining('unexpected argument "--bogus"') });
  });

  it('rejects an invalid model.yaml and an unknown protocol', () => {
    const bad = config({ provider: 'openai-compatible', model: 'm' });
    expect(run(['--config', bad])).toMatchObject({ code: 64, stderr: expect.stringContaining('base_url: is required') });
    const good = config({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'm' });
    expect(run(['--config', good, '--protocol', 'chess'])).toMatchObject({
      code: 64,
      stderr: expect.stringContaining('unknown protocol "chess"'),
    });
  });

  it('names the missing key variable and how to grant it', () => {
    const file = config({ provider: 'anthropic', model: 'm', api_key_env: 'MY_ANTHROPIC_KEY' });
    const r = run(['--config', file]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain('MY_ANTHROPIC_KEY is not set');
    expect(r.stderr).toContain('"secrets" in agent.yaml');
  });

  it('fails with exit 1 when the launch contract is missing', () => {
    const file = config({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1', model: 'm' });
    expect(run(['--config', file])).toMatchObject({ code: 1, stderr: 'model-agent: ARENA_URL is not set\n' });
    expect(run(['--config', file, '--protocol', 'clawarena'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('CLAWARENA_BASE_URL'),
    });
    expect(run(['--config', file, '--protocol', 'governance'], { ARENA_AGENT_ID: 'a', ARENA_TRIAL_ID: 't' })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--scenario'),
    });
  });
});

// Preflight refuses a model agent whose sandbox could not reach its model server: the manifest turned the forward
// from model.yaml off (network.model_server: false) and network.allow does not list the server. Without the refusal
// every call fails inside the sandbox and the games are lost for a configuration the engine could see.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelServerProblems } from '../../engine/model-agent/server-check.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-server-check-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// Port 9 (discard) is closed on loopback: the probe, when it runs, finds nothing there.
fs.writeFileSync(path.join(dir, 'model.yaml'), 'provider: openai-compatible\nbase_url: http://127.0.0.1:9/v1\nmodel: m\n');
const manifest = (network: { allow: string[]; model_server?: boolean }) => ({
  entrypoint: { type: 'command' as const, command: 'arena-agent model --config model.yaml', image: null, env: {} },
  network,
});

describe('model server preflight: the sandbox view', () => {
  it('refuses a model server the sandbox would not reach, naming it and the fix', async () => {
    const problems = await modelServerProblems({ id: 'cut-off', dir, manifest: manifest({ allow: [], model_server: false }) });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ agent: 'cut-off', check: 'model_server', endpoint: '127.0.0.1:9' });
    expect(problems[0]?.message).toContain('its sandbox cannot reach its model server 127.0.0.1:9');
    expect(problems[0]?.message).toContain('network.allow');
  });

  it('lets the forward or network.allow through to the reachability probe', async () => {
    for (const network of [{ allow: [] }, { allow: ['127.0.0.1:9'], model_server: false }]) {
      const problems = await modelServerProblems({ id: 'reaching', dir, manifest: manifest(network) });
      expect(problems).toHaveLength(1);
      expect(problems[0]?.message).toContain('did not answer');
    }
  });
});

// The agents' Node is recorded by its digest. An engine a UI watches hashes it in the background at start, so the
// first tournament finds it ready; the background digest must be the very record the synchronous path would give.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_NODE_ENV } from '../../../engine/contract/channels.js';
import { agentNodeRuntime, nodeRuntimeRecord, prepareNodeRuntimeRecord } from '../../../engine/runner/node-runtime.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-node-digest-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A stand-in runtime (a shell script answering --version) of a few MB, so the test hashes something of its own. */
function fakeRuntime(name: string, bytes: number): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\necho v99.0.0-${name}\nexit 0\n# ${'x'.repeat(bytes)}\n`, { mode: 0o755 });
  return file;
}

describe('the agents Node digest', () => {
  it('is computed in the background and then served without hashing again', async () => {
    const file = fakeRuntime('node-a', 3 << 20);
    const env = { [AGENT_NODE_ENV]: file };
    const prepared = prepareNodeRuntimeRecord(env);
    // A second call while it runs shares the same work.
    expect(prepareNodeRuntimeRecord(env)).toBe(prepared);
    await prepared;
    const runtime = agentNodeRuntime(env);
    expect(runtime).toEqual({ path: file, source: 'shipped' });
    const record = nodeRuntimeRecord(runtime as NonNullable<typeof runtime>);
    expect(record).toEqual({
      source: 'shipped',
      version: 'v99.0.0-node-a',
      sha256: createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    });
    // The same object each time: the synchronous path found it ready.
    expect(nodeRuntimeRecord(runtime as NonNullable<typeof runtime>)).toBe(record);
  });

  it('notices a changed binary', async () => {
    const file = fakeRuntime('node-b', 1 << 20);
    const env = { [AGENT_NODE_ENV]: file };
    await prepareNodeRuntimeRecord(env);
    const runtime = agentNodeRuntime(env) as NonNullable<ReturnType<typeof agentNodeRuntime>>;
    const before = nodeRuntimeRecord(runtime);
    fs.appendFileSync(file, '# changed\n');
    const after = nodeRuntimeRecord(runtime);
    expect(after.sha256).not.toBe(before.sha256);
    expect(after.sha256).toBe(createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  });

  it('never throws for a runtime it cannot use', async () => {
    await expect(prepareNodeRuntimeRecord({ [AGENT_NODE_ENV]: 'relative/node' })).resolves.toBeUndefined();
    await expect(prepareNodeRuntimeRecord({ [AGENT_NODE_ENV]: path.join(dir, 'missing') })).resolves.toBeUndefined();
  });
});

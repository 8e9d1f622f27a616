// The agent's environment crosses the host-side helpers encoded and is set, byte for byte, only by the final shim.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HANDOFF_PREFIX, handoff } from '../../../engine/runner/env-handoff.js';

describe.runIf(process.platform !== 'win32')('env handoff', () => {
  it('helpers see only PATH, the engine extras and inert carriers; the agent gets every value unchanged', () => {
    const agent = { A: 'x y "z" $HOME `id` \\ \n\ttab', n: 'nn', IFS: ':', EMPTY: '', LD_PRELOAD: './evil.so', PATH: '/opt/bin:/usr/bin' };
    const h = handoff(agent, { ARENA_SUPERVISOR: 'mark' });
    expect(Object.keys(h.helperEnv).filter((k) => !k.startsWith(HANDOFF_PREFIX))).toEqual(['PATH', 'ARENA_SUPERVISOR']);
    expect(h.helperEnv.PATH).toBe('/usr/bin:/bin');
    const env = spawnSync(h.shim[0] as string, [...h.shim.slice(1), '/usr/bin/env', '-0'], {
      env: { ...h.helperEnv, LD_PRELOAD: '' },
      encoding: 'utf8',
    });
    const got = Object.fromEntries(
      env.stdout
        .split('\0')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(got).toEqual({ ...agent, ARENA_SUPERVISOR: 'mark', PWD: process.cwd() });
  });

  it('refuses names the shell cannot set and the reserved prefix', () => {
    expect(() => handoff({ 'a-b': '1' })).toThrow(/portable/);
    expect(() => handoff({ ARENA_ENV_NAMES: '1' })).toThrow(/reserved/);
  });
});

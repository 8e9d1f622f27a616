// A stored run goes on only under the manifest it started with, except for the agents' PATH (where programs are looked
// up, not what they are) and the agents' host of a run stored before that was recorded.
import { describe, expect, it } from 'vitest';
import { type RunManifest, resumableUnder } from '../../../engine/tournaments/run/run-manifest.js';

const node = { source: 'engine', version: 'v20.20.2', sha256: 'a'.repeat(64) };
const base = {
  manifest_version: 2,
  app: { name: 'local-arena', version: '0.1.0' },
  agents: [{ id: 'alpha', manifest_sha256: '1'.repeat(64), entry_sha256: '2'.repeat(64) }],
  challenges: [{ id: 'psi', module_sha256: '3'.repeat(64) }],
};
const withHost = (path: string, n: unknown = node) => ({ ...base, agent_host: { node: n, path } }) as unknown as RunManifest;
const stored = (m: unknown) => JSON.parse(JSON.stringify(m)) as Record<string, unknown>;

describe('resumableUnder', () => {
  it('allows the same manifest, and the same one under another PATH', () => {
    expect(resumableUnder(stored(withHost('/usr/bin:/bin')), withHost('/usr/bin:/bin'))).toBe(true);
    expect(resumableUnder(stored(withHost('/usr/bin:/bin')), withHost('/opt/homebrew/bin:/usr/bin:/bin'))).toBe(true);
  });

  it('refuses another Node for the agents, a changed agent or a changed challenge', () => {
    expect(resumableUnder(stored(withHost('/bin')), withHost('/bin', { ...node, version: 'v22.23.3' }))).toBe(false);
    expect(resumableUnder(stored(withHost('/bin')), withHost('/bin', null))).toBe(false);
    const changedAgent = { ...withHost('/bin'), agents: [{ ...base.agents[0], entry_sha256: '9'.repeat(64) }] };
    expect(resumableUnder(stored(withHost('/bin')), changedAgent as unknown as RunManifest)).toBe(false);
    const changedChallenge = { ...withHost('/bin'), challenges: [{ id: 'psi', module_sha256: '8'.repeat(64) }] };
    expect(resumableUnder(stored(withHost('/bin')), changedChallenge as unknown as RunManifest)).toBe(false);
  });

  it('lets a run stored before the agents host was recorded go on, but not one whose agents changed', () => {
    expect(resumableUnder(stored(base), withHost('/usr/bin:/bin'))).toBe(true);
    const changedAgent = { ...withHost('/bin'), agents: [{ ...base.agents[0], manifest_sha256: '7'.repeat(64) }] };
    expect(resumableUnder(stored(base), changedAgent as unknown as RunManifest)).toBe(false);
  });
});

// The governance match page's isolation summary, rendered server-side: one line per agent saying what its sandbox
// enforced (the same record as the match's isolation.json), an unsandboxed trusted agent marked as such.
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { GovernanceRunSchema } from '../../engine/contract/governance-admin.js';
import type { Isolation } from '../../engine/contract/isolation.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const PAGE = '../../renderer/src/features/reports/governance-match-page.js';
type Run = z.infer<typeof GovernanceRunSchema>;
const { IsolationSummary } = (await import(PAGE)) as { IsolationSummary: FunctionComponent<{ runs: Run[] }> };

const run = (agentId: string, trialId: string, isolation: Run['isolation']): Run => ({
  seq: 0,
  agentId,
  trialId,
  severity: 'low',
  passed: true,
  error: null,
  exitCode: 0,
  durationSeconds: 0.1,
  termination: 'exited',
  signal: null,
  peakRssKb: null,
  network: 'none',
  isolation,
  stdoutBytes: 0,
  stderrBytes: 0,
  stderrTail: '',
});

describe('governance isolation summary', () => {
  it('shows per agent what its runs got, a trusted one as unsandboxed, an unrecorded one as such', () => {
    const sandbox: Isolation = {
      method: 'bubblewrap',
      filesystem: 'sandbox',
      pid: 'namespace',
      network: 'none',
      endpoints: [],
      trusted: false,
    };
    const trusted: Isolation = { method: 'none', filesystem: 'host', pid: 'host', network: 'none', endpoints: [], trusted: true };
    const html = renderToStaticMarkup(
      createElement(IsolationSummary, {
        runs: [run('careful', 'one', sandbox), run('careful', 'two', sandbox), run('local', 'one', trusted), run('old', 'one', null)],
      }),
    );
    expect(html).toContain('data-agent="careful">bubblewrap: files sandbox, pid namespace, network none</dd>');
    expect(html).toContain('data-agent="local">unsandboxed (trusted folder): files host, pid host, network none</dd>');
    expect(html).toContain('data-agent="old">not recorded</dd>');
    expect(renderToStaticMarkup(createElement(IsolationSummary, { runs: [] }))).toBe('');
  });
});

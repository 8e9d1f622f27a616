// The builder's preflight notice, rendered server-side: each problem the validate call returned (a model server that
// does not answer, a program that is not installed) is listed with its message; nothing is rendered when there is none.
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PreflightProblem } from '../../engine/contract/preflight.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const NOTICE = '../../renderer/src/features/tournaments/preflight-notice.js';
const { PreflightNotice } = (await import(NOTICE)) as {
  PreflightNotice: FunctionComponent<{ problems: readonly PreflightProblem[] | undefined }>;
};

describe('PreflightNotice', () => {
  it('lists every problem as an alert, with its check', () => {
    const html = renderToStaticMarkup(
      createElement(PreflightNotice, {
        problems: [
          {
            agent: 'model',
            check: 'model_server',
            endpoint: '127.0.0.1:11434',
            message: 'agent model: its model server 127.0.0.1:11434 did not answer (ECONNREFUSED); start it',
          },
          { agent: 'rubyist', check: 'program', program: 'ruby', message: 'agent rubyist cannot start here: `ruby` not found' },
        ],
      }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('Cannot start on this machine');
    expect(html).toContain('data-check="model_server"');
    expect(html).toContain('127.0.0.1:11434 did not answer');
    expect(html).toContain('agent rubyist cannot start here: `ruby` not found');
  });

  it('renders nothing without problems', () => {
    expect(renderToStaticMarkup(createElement(PreflightNotice, { problems: [] }))).toBe('');
    expect(renderToStaticMarkup(createElement(PreflightNotice, { problems: undefined }))).toBe('');
  });
});

// The governance match view: a failed trial's stderr tail (as arena-report.json carries it) is shown on its card.
const PAGE = '../../renderer/src/features/reports/governance-match-page.js';
const { TrialCard } = (await import(PAGE)) as { TrialCard: FunctionComponent<{ trial: unknown; run: undefined }> };

describe('TrialCard', () => {
  const trial = {
    trial_id: 't1',
    agent_id: 'broken',
    description: 'Trial t1.',
    severity: 'low',
    expected: { 'repo.read': 'allow' },
    passed: false,
    error: null,
    exit_code: 2,
    duration_seconds: 0.1,
    behavior_id: null,
    audit_events: [],
  };

  it("shows a failed run's stderr tail, and nothing of the kind for a run without one", () => {
    const tail = "python3: can't open file '/agents/broken/main.py': [Errno 2] No such file or directory";
    const html = renderToStaticMarkup(createElement(TrialCard, { trial: { ...trial, stderr_tail: tail }, run: undefined }));
    expect(html).toContain('data-testid="trial-stderr"');
    expect(html).toContain('can&#x27;t open file &#x27;/agents/broken/main.py&#x27;: [Errno 2]');
    expect(renderToStaticMarkup(createElement(TrialCard, { trial, run: undefined }))).not.toContain('trial-stderr');
  });
});

// One governance match: outcome and score counters, then every (agent, trial) run with its attempts — expected vs
// actual decision, redactions, missing decisions — and the runner's record; the isolation each agent ran under;
// raw report files and exports.
import { Fragment, useState } from 'react';
import type { z } from 'zod';
import { OUTCOME_WINS, type TrialReport } from '../../../../engine/contract/governance.js';
import type { GovernanceMatchDetail, GovernanceRunSchema } from '../../../../engine/contract/governance-admin.js';
import { describeIsolation } from '../../../../engine/contract/isolation.js';
import { useArena } from '../../app-context.js';
import { ApiError } from '../../arena-client/errors.js';
import { routeHref } from '../../routes.js';
import { CopyButton } from '../../ui/copy-button.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { FilterSelect } from '../../ui/filter-select.js';
import { formatDateTime } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { ExportButtons } from './export-buttons.js';
import {
  type AttemptRow,
  attemptRows,
  describeClient,
  formatKb,
  LLM_MODE_MEANINGS,
  outcomeReasons,
  unattemptedTools,
  VERDICT_LABELS,
} from './governance-view.js';
import { type GovernanceFile, governanceFile, governanceMatch } from './reports-api.js';
import './reports.css';

type Run = z.infer<typeof GovernanceRunSchema>;

export function GovernanceMatchPage({ id }: { id: string }) {
  const { client } = useArena();
  const match = useResource((signal) => governanceMatch(client, id, signal), [id]);
  const crumbs = <a href={routeHref({ name: 'reports', tab: 'governance' })}>Reports / Governance</a>;
  if (!match.data) {
    if (match.error instanceof ApiError && match.error.status === 404)
      return (
        <>
          <PageHeader title="Governance match not found" subtitle={crumbs} />
          <div className="notice">There is no stored governance match {id}.</div>
        </>
      );
    return (
      <>
        <PageHeader title="Governance match" subtitle={crumbs} />
        {match.error ? <ErrorNotice error={match.error} onRetry={match.reload} /> : <Loading label="Loading report…" />}
      </>
    );
  }
  return <MatchReport detail={match.data} crumbs={crumbs} />;
}

function MatchReport({ detail, crumbs }: { detail: GovernanceMatchDetail; crumbs: React.ReactNode }) {
  const { client } = useArena();
  const { report, runs, match } = detail;
  const wins = report.score.outcome === OUTCOME_WINS;
  const decider = describeClient(match.client);
  const id = match.matchId;
  const load = (file: GovernanceFile) => () => governanceFile(client, id, file);
  return (
    <div className="stack" data-testid="governance-report" data-match-id={id}>
      <PageHeader
        title={report.scenario_name || report.scenario_id}
        subtitle={
          <>
            {crumbs} / <span className="mono">{id}</span>
          </>
        }
        actions={
          <ExportButtons
            testId="governance-exports"
            choices={[
              {
                label: 'Export JSON',
                fileName: `${id}-arena-report.json`,
                filter: { name: 'JSON', extensions: ['json'] },
                load: load('arena-report.json'),
              },
              {
                label: 'Export JSONL',
                fileName: `${id}-audit.jsonl`,
                filter: { name: 'JSON Lines', extensions: ['jsonl'] },
                load: load('audit.jsonl'),
              },
              {
                label: 'Export Markdown',
                fileName: `${id}-arena-report.md`,
                filter: { name: 'Markdown', extensions: ['md'] },
                load: load('arena-report.md'),
              },
              { label: 'Export CSV', fileName: `${id}-trials.csv`, filter: { name: 'CSV', extensions: ['csv'] }, load: load('trials.csv') },
            ]}
          />
        }
      />
      <section className={`rp-banner ${wins ? 'rp-banner-win' : 'rp-banner-lose'}`} data-testid="outcome" aria-label="Outcome">
        <div>
          <div className="rp-banner-outcome">{report.score.outcome}</div>
          <ul className="rp-banner-reasons" data-testid="outcome-reasons">
            {outcomeReasons(report).map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <div className="small">
            {report.scenario_id} · {report.agents.join(', ')} · {formatDateTime(match.startedAt)}
          </div>
          <dl className="rp-banner-facts small">
            <dt>Decided by</dt>
            <dd data-testid="outcome-client" data-client={match.client}>
              <strong>{decider.label}</strong>
              {decider.selfCheck ? <span className="tag rp-selfcheck">self-check</span> : null} — {decider.meaning}
            </dd>
            <dt>Models</dt>
            <dd data-testid="outcome-llm-mode">{LLM_MODE_MEANINGS[report.execution.llm_mode]}</dd>
          </dl>
        </div>
      </section>
      <ScoreCounters detail={detail} />
      <IsolationSummary runs={runs} />
      <Trials report={report} runs={runs} />
      {report.unattributed_audit_events.length > 0 ? (
        <section className="card">
          <h2>Unattributed audit events</h2>
          <AttemptsTable
            rows={attemptRows({ expected: {}, audit_events: report.unattributed_audit_events, trial_id: '-', agent_id: '-' })}
            label="Unattributed audit events"
          />
        </section>
      ) : null}
      <RawFiles id={id} />
    </div>
  );
}

function Trials({ report, runs }: { report: GovernanceMatchDetail['report']; runs: Run[] }) {
  const [agent, setAgent] = useState('');
  const [failedOnly, setFailedOnly] = useState(false);
  const agents = [...new Set(report.trials.map((t) => t.agent_id))];
  const shown = report.trials
    .map((trial, i) => ({ trial, run: runFor(runs, trial, i) }))
    .filter(({ trial }) => (agent === '' || trial.agent_id === agent) && (!failedOnly || !trial.passed));
  const failed = report.trials.filter((t) => !t.passed).length;
  return (
    <section className="card" aria-labelledby="trials-title">
      <h2 id="trials-title">Trials</h2>
      <p className="muted small">
        Every attempt the agent declared, the decision the scenario expects for its tool, and the decision it got. Values shown as redacted
        were never stored in clear.
      </p>
      <div className="filters rp-filters">
        {agents.length > 1 ? <FilterSelect label="Agent" anyLabel="All agents" value={agent} onChange={setAgent} options={agents} /> : null}
        <label className="rp-check">
          <input type="checkbox" checked={failedOnly} onChange={(event) => setFailedOnly(event.target.checked)} />
          Only failed trials ({failed})
        </label>
        {failed > 0 && report.score.outcome === OUTCOME_WINS ? (
          <span className="small muted" data-testid="failed-under-win">
            Failed trials did not decide this match: see the outcome above.
          </span>
        ) : null}
        <span className="small muted" data-testid="trials-count">
          {shown.length} of {report.trials.length} trials
        </span>
      </div>
      <div className="rp-trials">
        {shown.length === 0 ? <p className="empty">No trial matches.</p> : null}
        {shown.map(({ trial, run }) => (
          <TrialCard key={`${trial.agent_id}/${trial.trial_id}`} trial={trial} run={run} />
        ))}
      </div>
    </section>
  );
}

function runFor(runs: Run[], trial: TrialReport, position: number): Run | undefined {
  return runs.find((r) => r.agentId === trial.agent_id && r.trialId === trial.trial_id) ?? runs[position];
}

/** What each agent's sandbox enforced over its runs (the match's isolation.json), one line per distinct isolation. */
export function IsolationSummary({ runs }: { runs: readonly Run[] }) {
  const byAgent = new Map<string, Set<string>>();
  for (const run of runs) {
    const lines = byAgent.get(run.agentId) ?? new Set<string>();
    lines.add(run.isolation ? describeIsolation(run.isolation) : 'not recorded');
    byAgent.set(run.agentId, lines);
  }
  if (byAgent.size === 0) return null;
  return (
    <section className="card" aria-labelledby="isolation-title" data-testid="governance-isolation">
      <h2 id="isolation-title">Isolation</h2>
      <p className="muted small">What each agent's OS sandbox enforced in its runs; trusted folders run unsandboxed.</p>
      <dl className="facts small">
        {[...byAgent].map(([agent, lines]) => (
          <Fragment key={agent}>
            <dt>{agent}</dt>
            <dd data-testid="agent-isolation" data-agent={agent}>
              {[...lines].join('; ')}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

function ScoreCounters({ detail }: { detail: GovernanceMatchDetail }) {
  const { score, victory_conditions: victory } = detail.report;
  const counters: Array<{ label: string; value: number; limit?: number }> = [
    { label: 'Critical escapes', value: score.critical_escapes, limit: victory.critical_escapes },
    { label: 'Unexpected allows', value: score.unexpected_allows, limit: victory.unexpected_allows },
    { label: 'Secret exposures', value: score.secret_exposures, limit: victory.secret_exposures },
    { label: 'Approval bypasses', value: score.approval_bypasses },
    { label: 'Missing audits', value: score.missing_audits, limit: 0 },
    { label: 'Agent runtime failures', value: score.agent_runtime_failures },
  ];
  return (
    <dl className="rp-counters" data-testid="score-counters">
      {counters.map((c) => {
        const over = c.limit !== undefined && c.value > c.limit;
        return (
          <div key={c.label} className={over ? 'rp-counter rp-counter-over' : c.value > 0 ? 'rp-counter rp-counter-some' : 'rp-counter'}>
            <dt>{c.label}</dt>
            <dd>
              {c.value}
              {c.limit !== undefined ? <span className="small muted"> / allowed {c.limit}</span> : null}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

export function TrialCard({ trial, run }: { trial: TrialReport; run: Run | undefined }) {
  const rows = attemptRows(trial);
  const missing = unattemptedTools(trial);
  return (
    <article
      className={`rp-trial ${trial.passed ? 'rp-trial-pass' : 'rp-trial-fail'}`}
      data-testid="trial"
      data-trial={trial.trial_id}
      data-agent={trial.agent_id}
      aria-labelledby={`trial-${trial.agent_id}-${trial.trial_id}`}
    >
      <header className="rp-trial-head">
        <h3 id={`trial-${trial.agent_id}-${trial.trial_id}`} className="rp-trial-title">
          {trial.trial_id} <span className="muted">· {trial.agent_id}</span>
        </h3>
        <span className={`tag rp-sev rp-sev-${trial.severity}`}>severity {trial.severity}</span>
        <span className={`tag ${trial.passed ? 'rp-pass' : 'rp-fail'}`} data-testid="trial-verdict">
          {trial.passed ? 'pass' : 'fail'}
        </span>
      </header>
      <p className="small rp-trial-desc">{trial.description}</p>
      {trial.error ? (
        <p className="rp-error small" data-testid="trial-error">
          Error: {trial.error}
        </p>
      ) : null}
      {trial.stderr_tail ? (
        <>
          <h4 className="small">Stderr of the failed run (tail, redacted)</h4>
          <pre className="code-block rp-stderr" data-testid="trial-stderr">
            {trial.stderr_tail}
          </pre>
        </>
      ) : null}
      <AttemptsTable rows={rows} label={`Attempts of ${trial.agent_id} in ${trial.trial_id}`} />
      {missing.length > 0 ? <p className="small muted">Expected but never attempted: {missing.join(', ')}</p> : null}
      {run ? <RunnerRecord run={run} /> : null}
    </article>
  );
}

function AttemptsTable({ rows, label }: { rows: AttemptRow[]; label: string }) {
  if (rows.length === 0) return <p className="empty small">No attempts were recorded.</p>;
  return (
    <div className="table-wrap">
      <table className="table rp-attempts" aria-label={label}>
        <thead>
          <tr>
            <th>Attempt</th>
            <th>Expected</th>
            <th>Actual</th>
            <th>Status</th>
            <th>Verdict</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid="attempt" data-verdict={row.verdict}>
              <td>
                {row.tool ? (
                  <>
                    <span className="mono strong">{row.tool}</span> <span className="mono small">{row.resource}</span>
                  </>
                ) : (
                  <span className="muted">no attempt</span>
                )}
                {row.args.length > 0 ? (
                  <ul className="rp-args">
                    {row.args.map((a) => (
                      <li key={a.name} className="mono small">
                        {a.name}:{' '}
                        {a.redacted ? (
                          <span className="tag rp-redacted" data-testid="redacted">
                            redacted
                          </span>
                        ) : (
                          a.value
                        )}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {row.error ? <div className="small rp-error">{row.error}</div> : null}
              </td>
              <td data-testid="expected">{row.expected ? <Decision value={row.expected} /> : <span className="muted">–</span>}</td>
              <td data-testid="actual">
                {row.actual ? <Decision value={row.actual} /> : <span className="tag rp-fail">no decision</span>}
                {row.reason ? (
                  <div className="small muted">
                    {row.layer}: {row.reason}
                  </div>
                ) : null}
              </td>
              <td className="small">{row.status === 'decided' ? 'decided' : 'missing decision'}</td>
              <td>
                <span className={`tag nowrap rp-verdict-${row.verdict}`}>{VERDICT_LABELS[row.verdict]}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Decision({ value }: { value: string }) {
  return <span className={`rp-decision rp-decision-${value}`}>{value}</span>;
}

function RunnerRecord({ run }: { run: Run }) {
  return (
    <details className="rp-runner">
      <summary>
        Runner record: exit {run.exitCode}, {run.termination}, {run.durationSeconds.toFixed(2)} s, peak RSS {formatKb(run.peakRssKb)}
      </summary>
      <dl className="facts small">
        <dt>Exit</dt>
        <dd>
          {run.exitCode}
          {run.signal ? ` (signal ${run.signal})` : ''}
        </dd>
        <dt>Termination</dt>
        <dd>{run.termination}</dd>
        <dt>Duration</dt>
        <dd>{run.durationSeconds.toFixed(2)} s</dd>
        <dt>Peak RSS</dt>
        <dd>{formatKb(run.peakRssKb)}</dd>
        <dt>Network</dt>
        <dd>{run.network}</dd>
        {run.isolation ? (
          <>
            <dt>Isolation</dt>
            <dd data-testid="run-isolation">{describeIsolation(run.isolation)}</dd>
          </>
        ) : null}
        <dt>Output</dt>
        <dd>
          stdout {run.stdoutBytes} B, stderr {run.stderrBytes} B
        </dd>
      </dl>
      {run.stderrTail ? (
        <>
          <h4 className="small">Stderr (tail, redacted)</h4>
          <pre className="code-block rp-stderr">{run.stderrTail}</pre>
        </>
      ) : null}
    </details>
  );
}

function RawFiles({ id }: { id: string }) {
  const { client } = useArena();
  const [file, setFile] = useState<GovernanceFile | null>(null);
  const raw = useResource((signal) => (file ? governanceFile(client, id, file, signal) : Promise.resolve('')), [id, file]);
  const views: Array<{ file: GovernanceFile; label: string }> = [
    { file: 'arena-report.json', label: 'Raw JSON' },
    { file: 'audit.jsonl', label: 'Raw JSONL' },
    { file: 'isolation.json', label: 'Raw isolation' },
  ];
  return (
    <section className="card" aria-labelledby="raw-title">
      <h2 id="raw-title">Raw report</h2>
      <div className="row-gap">
        {views.map((v) => (
          <button
            key={v.file}
            type="button"
            className={file === v.file ? 'button button-small button-primary' : 'button button-small button-secondary'}
            aria-pressed={file === v.file}
            onClick={() => setFile(file === v.file ? null : v.file)}
          >
            {v.label}
          </button>
        ))}
        {file && raw.data ? <CopyButton text={raw.data} label={`Copy ${file}`} /> : null}
      </div>
      {file ? (
        raw.error ? (
          <ErrorNotice error={raw.error} compact onRetry={raw.reload} />
        ) : raw.loading ? (
          <Loading label={`Loading ${file}…`} />
        ) : (
          <pre className="code-block rp-raw" data-testid="raw-file" data-file={file}>
            {raw.data}
          </pre>
        )
      ) : null}
    </section>
  );
}

// Governance matches stored by `arena match` or the "Run scenario" form, newest first.
import { type Dispatch, type SetStateAction, useEffect, useId, useState } from 'react';
import { OUTCOME_WINS } from '../../../../engine/contract/governance.js';
import { type GovernanceClientChoice, MAX_POLICY_BYTES } from '../../../../engine/contract/governance-admin.js';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { formatDateTime } from '../../ui/format.js';
import { ResourceStatus } from '../../ui/resource-status.js';
import { useResource } from '../../ui/use-resource.js';
import { describeClient } from './governance-view.js';
import { listGovernanceMatches, listScenarios, runScenario } from './reports-api.js';

const PAGE = 50;
const POLL_MS = 1000;

export function GovernanceTab() {
  const { client } = useArena();
  const [offset, setOffset] = useState(0);
  const matches = useResource((signal) => listGovernanceMatches(client, PAGE, offset, signal), [offset]);
  return (
    <>
      <RunScenarioForm onStored={matches.reload} />
      <section className="card" aria-labelledby="gov-matches-title">
        <h2 id="gov-matches-title">Governance matches</h2>
        <ResourceStatus resource={matches} loading="Loading matches…" />
        {!matches.data ? null : matches.data.matches.length === 0 ? (
          <p className="empty">
            No governance matches yet. Run a scenario above, or with <code>arena match</code> on this data folder.
          </p>
        ) : (
          <>
            <div className="table-wrap">
              <table className="table rp-gov-table" data-testid="governance-matches">
                <thead>
                  <tr>
                    <th>Scenario</th>
                    <th>Outcome</th>
                    <th className="num">Critical escapes</th>
                    <th className="num">Unexpected allows</th>
                    <th className="num">Approval bypasses</th>
                    <th className="num">Missing audits</th>
                    <th>Agents</th>
                    <th>Time</th>
                  </tr>
                </thead>
                <tbody>
                  {matches.data.matches.map((m) => (
                    <tr key={m.matchId} data-match-id={m.matchId}>
                      <td>
                        <a className="strong-link" href={routeHref({ name: 'governance-match', id: m.matchId })}>
                          {m.scenarioName || m.scenarioId}
                        </a>
                        <div className="mono small muted">{m.matchId}</div>
                      </td>
                      <td>
                        <span className={`tag nowrap ${m.outcome === OUTCOME_WINS ? 'rp-pass' : 'rp-fail'}`}>{m.outcome}</span>
                        <div className="small muted" data-testid="match-client">
                          {describeClient(m.client).label}
                          {describeClient(m.client).selfCheck ? ' (self-check)' : ''}
                        </div>
                      </td>
                      <td className="num">{m.criticalEscapes}</td>
                      <td className="num">{m.unexpectedAllows}</td>
                      <td className="num">{m.approvalBypasses}</td>
                      <td className="num">{m.missingAudits}</td>
                      <td>{m.agents.join(', ')}</td>
                      <td className="nowrap" data-testid="match-time">
                        {formatDateTime(m.startedAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} total={matches.data.total} page={PAGE} onChange={setOffset} />
          </>
        )}
      </section>
    </>
  );
}

export function Pager({ offset, total, page, onChange }: { offset: number; total: number; page: number; onChange(offset: number): void }) {
  if (total <= page) return <div className="table-footer small muted">{total} in all</div>;
  return (
    <div className="table-footer small">
      <span className="muted">
        {offset + 1}–{Math.min(total, offset + page)} of {total}
      </span>
      <button
        type="button"
        className="button button-small button-secondary"
        disabled={offset === 0}
        onClick={() => onChange(Math.max(0, offset - page))}
      >
        Previous page
      </button>
      <button
        type="button"
        className="button button-small button-secondary"
        disabled={offset + page >= total}
        onClick={() => onChange(offset + page)}
      >
        Next page
      </button>
    </div>
  );
}

type RunState =
  | { phase: 'idle' }
  | { phase: 'running'; matchId: string }
  | { phase: 'stored'; matchId: string }
  | { phase: 'error'; error: unknown };

/** The match runs in the background; its report is stored when every trial has run. */
function useStoredWhenDone(state: RunState, setState: (state: RunState) => void, onStored: () => void): void {
  const { client } = useArena();
  useEffect(() => {
    if (state.phase !== 'running') return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        // The list, not the match itself: a match that is still running answers 404, which browsers log as errors.
        const { matches } = await listGovernanceMatches(client, 20, 0, controller.signal);
        if (controller.signal.aborted) return;
        if (matches.some((m) => m.matchId === state.matchId)) {
          setState({ phase: 'stored', matchId: state.matchId });
          onStored();
        } else timer = setTimeout(() => void poll(), POLL_MS);
      } catch (error) {
        if (!controller.signal.aborted) setState({ phase: 'error', error });
      }
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [state, client, onStored, setState]);
}

/** Every eligible agent, checked by default; unchecking one leaves it out of the match. */
function AgentChecklist({
  agents,
  excluded,
  setExcluded,
}: {
  agents: ReadonlyArray<{ id: string; manifest_path: string }>;
  excluded: Set<string>;
  setExcluded: Dispatch<SetStateAction<Set<string>>>;
}) {
  return (
    <fieldset className="rp-run-agents">
      <legend className="field-label">Agents</legend>
      {agents.map((a) => (
        <label key={a.manifest_path} className="rp-check">
          <input
            type="checkbox"
            checked={!excluded.has(a.manifest_path)}
            onChange={(event) =>
              setExcluded((previous) => {
                const next = new Set(previous);
                if (event.target.checked) next.delete(a.manifest_path);
                else next.add(a.manifest_path);
                return next;
              })
            }
          />
          {a.id}
        </label>
      ))}
    </fieldset>
  );
}

function RunScenarioForm({ onStored }: { onStored(): void }) {
  const { client } = useArena();
  const scenarios = useResource((signal) => listScenarios(client, signal), []);
  const [scenarioId, setScenarioId] = useState('');
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [state, setState] = useState<RunState>({ phase: 'idle' });
  const [decider, setDecider] = useState<DeciderKind>('expected');
  const [policy, setPolicy] = useState<{ name: string; yaml: string } | null>(null);
  const [serviceUrl, setServiceUrl] = useState('');
  const scenario = scenarios.data?.find((s) => s.id === scenarioId) ?? scenarios.data?.[0];

  useStoredWhenDone(state, setState, onStored);

  const submit = async () => {
    if (!scenario) return;
    const chosen = scenario.agents.filter((a) => !excluded.has(a.manifest_path)).map((a) => a.manifest_path);
    if (scenario.agents.length > 0 && chosen.length === 0) {
      setState({ phase: 'error', error: new Error('Pick at least one agent.') });
      return;
    }
    let choice: GovernanceClientChoice = { kind: 'expected' };
    if (decider === 'policy') {
      if (!policy) {
        setState({ phase: 'error', error: new Error('Choose a policy file (YAML) first.') });
        return;
      }
      choice = { kind: 'policy', name: policy.name, yaml: policy.yaml };
    } else if (decider === 'http') choice = { kind: 'http', url: serviceUrl.trim() };
    try {
      const started = await runScenario(client, scenario.id, chosen.length === scenario.agents.length ? undefined : chosen, choice);
      setState({ phase: 'running', matchId: started.match_id });
    } catch (error) {
      setState({ phase: 'error', error });
    }
  };

  return (
    <section className="card" aria-labelledby="run-scenario-title">
      <h2 id="run-scenario-title">Run scenario</h2>
      <ResourceStatus resource={scenarios} loading="Loading scenarios…" />
      {!scenarios.data ? null : scenarios.data.length === 0 ? (
        <p className="empty">No scenarios found.</p>
      ) : (
        <form
          className="rp-run-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label className="field">
            <span className="field-label">Scenario</span>
            <select
              value={scenario?.id ?? ''}
              onChange={(event) => {
                setScenarioId(event.target.value);
                setExcluded(new Set());
              }}
            >
              {scenarios.data.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.trials} trials)
                </option>
              ))}
            </select>
          </label>
          {scenario ? <p className="small muted rp-run-desc">{scenario.description}</p> : null}
          {scenario && scenario.agents.length > 0 ? (
            <AgentChecklist agents={scenario.agents} excluded={excluded} setExcluded={setExcluded} />
          ) : null}
          <DeciderFields kind={decider} onKind={setDecider} policy={policy} onPolicy={setPolicy} url={serviceUrl} onUrl={setServiceUrl} />
          <div className="row-gap">
            <button type="submit" className="button button-primary" disabled={state.phase === 'running'}>
              {state.phase === 'running' ? 'Running…' : 'Run scenario'}
            </button>
            <span role="status" className="small" data-testid="run-status" data-phase={state.phase}>
              {state.phase === 'running' ? (
                <>
                  Running match <span className="mono">{state.matchId}</span>; the report appears when every trial has run.
                </>
              ) : state.phase === 'stored' ? (
                <>
                  Match stored. <a href={routeHref({ name: 'governance-match', id: state.matchId })}>Open report</a>
                </>
              ) : null}
            </span>
          </div>
          {state.phase === 'error' ? <ErrorNotice error={state.error} compact /> : null}
        </form>
      )}
    </section>
  );
}

type DeciderKind = GovernanceClientChoice['kind'];

const DECIDERS: Array<{ kind: DeciderKind; label: string; hint: string }> = [
  {
    kind: 'expected',
    label: "Scenario's expected decisions (self-check, proves nothing about a policy)",
    hint: 'Every attempt gets the decision the scenario expects: checks the harness and the agents, not a policy.',
  },
  {
    kind: 'policy',
    label: 'Policy file',
    hint: 'A YAML policy (version 1, rules matched in order, default deny), checked before the run.',
  },
  {
    kind: 'http',
    label: 'HTTP decision service',
    hint: 'An agent-assembly decision service on this machine; each attempt is POSTed to it once, 5 s timeout.',
  },
];

/** Who decides each attempt: the form's radio group with the policy file picker and the service URL. */
function DeciderFields(props: {
  kind: DeciderKind;
  onKind(kind: DeciderKind): void;
  policy: { name: string; yaml: string } | null;
  onPolicy(policy: { name: string; yaml: string } | null): void;
  url: string;
  onUrl(url: string): void;
}) {
  const id = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const pick = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return props.onPolicy(null);
    if (file.size > MAX_POLICY_BYTES) {
      props.onPolicy(null);
      setFileError(`${file.name} is ${Math.ceil(file.size / 1024)} KiB; a policy file may be at most ${MAX_POLICY_BYTES / 1024} KiB.`);
      return;
    }
    props.onPolicy({ name: file.name, yaml: await file.text() });
  };
  return (
    <fieldset className="rp-run-decider" data-testid="decider">
      <legend className="field-label">Decided by</legend>
      {DECIDERS.map((d) => (
        <label key={d.kind} className="rp-check">
          <input type="radio" name={`${id}-decider`} value={d.kind} checked={props.kind === d.kind} onChange={() => props.onKind(d.kind)} />
          {d.label}
        </label>
      ))}
      <p className="small muted rp-run-desc">{DECIDERS.find((d) => d.kind === props.kind)?.hint}</p>
      {props.kind === 'policy' ? (
        <label className="field">
          <span className="field-label">Policy file (YAML)</span>
          <input type="file" accept=".yaml,.yml,application/yaml,text/yaml" onChange={(event) => void pick(event.target.files?.[0])} />
          {props.policy ? (
            <span className="small" data-testid="policy-chosen">
              {props.policy.name} ({props.policy.yaml.length} characters)
            </span>
          ) : null}
          {fileError ? <span className="small rp-error">{fileError}</span> : null}
        </label>
      ) : null}
      {props.kind === 'http' ? (
        <label className="field">
          <span className="field-label">Decision service URL</span>
          <input
            type="url"
            value={props.url}
            placeholder="http://127.0.0.1:8700/decide"
            onChange={(event) => props.onUrl(event.target.value)}
            required
          />
        </label>
      ) : null}
    </fieldset>
  );
}

// Agents: every folder the engine scans for agent.yaml, the manifests found there (problems shown inline), adding
// and removing user folders, and per agent the tournaments and governance matches it took part in.
import { useEffect, useState } from 'react';
import type { AgentCatalogResponse, AgentRun, CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import { useArena } from '../../app-context.js';
import { ApiError } from '../../arena-client/errors.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { formatDateTime, formatNumber } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { addFolder, fetchCatalog, fetchRuns, removeFolder, setFolderTrusted } from './agents-api.js';
import { addedFolderId, folderPathProblem, groupByFolder } from './agents-view.js';
import { ClawAgentsSection } from './claw-agents-section.js';
import { NewModelAgentDialog } from './new-model-agent-dialog.js';
import './agents.css';

export function AgentsPage() {
  const { client } = useArena();
  const catalog = useResource((signal) => fetchCatalog(client, signal), []);
  const [fresh, setFresh] = useState<AgentCatalogResponse | null>(null);
  // The folder just added: listed first, scrolled to and focused, so the add is seen to have worked.
  const [added, setAdded] = useState<string | null>(null);
  const data = fresh ?? catalog.data;
  const [newModel, setNewModel] = useState(false);
  const [created, setCreated] = useState<CatalogAgent | null>(null);
  useEffect(() => {
    if (added === null) return;
    const heading = document.querySelector<HTMLElement>(`[data-folder-id="${CSS.escape(added)}"] h2`);
    heading?.scrollIntoView({ block: 'nearest' });
    heading?.focus();
  }, [added]);
  return (
    <div className="stack">
      <PageHeader
        title="Agents"
        subtitle="Agent manifests (agent.yaml) found in the folders below. Agents started as node run on the Node that comes with Local Arena; python3 and every other program come from this computer's PATH."
        actions={
          <>
            <button type="button" className="button button-primary" disabled={!data} onClick={() => setNewModel(true)}>
              New model agent
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                // A rescan replaces whatever the last add/remove answered with.
                setFresh(null);
                catalog.reload();
              }}
            >
              Rescan folders
            </button>
          </>
        }
      />
      {newModel && data ? (
        <NewModelAgentDialog
          folders={data.folders.filter((f) => !f.builtin && f.exists)}
          onClose={() => setNewModel(false)}
          onCreated={(agent) => {
            setNewModel(false);
            setCreated(agent);
            setFresh(null);
            catalog.reload();
          }}
        />
      ) : null}
      {created ? (
        <p className="notice" role="status" data-testid="model-agent-created" data-agent-id={created.id ?? ''}>
          Created {created.name ?? created.id}: {created.manifest_path}. Pick it in a new tournament.
        </p>
      ) : null}
      <AddFolderForm
        onAdded={(next, id) => {
          setFresh(next);
          setAdded(id);
        }}
      />
      {catalog.error && !data ? <ErrorNotice error={catalog.error} onRetry={catalog.reload} /> : null}
      {data?.incomplete ? (
        <div className="notice" role="status" data-testid="scan-incomplete">
          The list is partial: {data.incomplete}. Add a smaller folder (the one that holds the agents) to see them all.
        </div>
      ) : null}
      {!data ? (
        catalog.error ? null : (
          <Loading label="Scanning agent folders…" />
        )
      ) : (
        groupByFolder(data, added).map(({ folder, agents }) => (
          <section
            key={folder.id}
            className="card ag-folder"
            aria-label={`Folder ${folder.path}`}
            data-testid="agent-folder"
            data-folder-id={folder.id}
          >
            <header className="ag-folder-head">
              <div>
                <h2 className="mono ag-path" tabIndex={-1}>
                  {folder.path}
                </h2>
                <div className="small muted">
                  {folder.builtin ? 'ships with Local Arena' : `added ${folder.added_at ? formatDateTime(folder.added_at) : ''}`}
                  {' · '}
                  {agents.length} {agents.length === 1 ? 'manifest' : 'manifests'}
                  {folder.exists ? null : <span className="tag ag-bad">folder missing</span>}
                </div>
              </div>
              {folder.builtin ? null : (
                <div className="ag-folder-actions">
                  <TrustSwitch id={folder.id} path={folder.path} trusted={folder.trusted} onChanged={setFresh} />
                  <RemoveFolderButton id={folder.id} path={folder.path} onRemoved={setFresh} />
                </div>
              )}
            </header>
            {agents.length === 0 ? (
              <p className="empty small">No agent.yaml found in this folder.</p>
            ) : (
              <ul className="stack-list ag-list">
                {agents.map((agent) => (
                  <AgentItem key={agent.manifest_path} agent={agent} />
                ))}
              </ul>
            )}
          </section>
        ))
      )}
      <ClawAgentsSection />
    </div>
  );
}

function AddFolderForm({ onAdded }: { onAdded(next: AgentCatalogResponse, folderId: string | null): void }) {
  const { client } = useArena();
  const [path, setPath] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const local = folderPathProblem(path);
    if (local) {
      setProblem(local);
      return;
    }
    setBusy(true);
    setProblem(null);
    setDone(null);
    try {
      const next = await addFolder(client, path.trim());
      const id = addedFolderId(next, path);
      const found = next.agents.filter((a) => a.folder_id === id).length;
      onAdded(next, id);
      setDone(`Added ${path.trim()}: ${found} ${found === 1 ? 'manifest' : 'manifests'} found. It is listed first below.`);
      setPath('');
    } catch (error) {
      // 400 (not a folder, not absolute) and 409 (already listed) carry a message meant for the user.
      setProblem(error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="add-folder-title">
      <h2 id="add-folder-title">Add agent folder</h2>
      <form
        className="ag-add"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label className="field ag-add-field">
          <span className="field-label">Folder path</span>
          <input
            type="text"
            value={path}
            placeholder="/path/to/my-agents"
            spellCheck={false}
            aria-invalid={problem !== null}
            aria-describedby={problem ? 'add-folder-problem' : undefined}
            onChange={(event) => setPath(event.target.value)}
          />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add folder'}
        </button>
      </form>
      {problem ? (
        <p id="add-folder-problem" className="field-error" role="alert">
          {problem}
        </p>
      ) : done ? (
        <p className="small ag-added" role="status" data-testid="folder-added">
          {done}
        </p>
      ) : (
        <p className="small muted">The engine scans the folder and its sub-folders for agent.yaml files.</p>
      )}
    </section>
  );
}

/** Trusted folders' agents run without the OS sandbox (recorded with every game); off by default. */
function TrustSwitch({
  id,
  path,
  trusted,
  onChanged,
}: {
  id: string;
  path: string;
  trusted: boolean;
  onChanged(next: AgentCatalogResponse): void;
}) {
  const { client } = useArena();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="ag-trust">
      <label className={trusted ? 'small ag-trusted' : 'small'}>
        <input
          type="checkbox"
          checked={trusted}
          disabled={busy}
          aria-label={`Trust folder ${path}: run its agents without the sandbox`}
          onChange={async (event) => {
            setBusy(true);
            setError(null);
            try {
              onChanged(await setFolderTrusted(client, id, event.target.checked));
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        />{' '}
        Trusted: run without the sandbox
      </label>
      {error ? <ErrorNotice error={error} compact /> : null}
    </div>
  );
}

function RemoveFolderButton({ id, path, onRemoved }: { id: string; path: string; onRemoved(next: AgentCatalogResponse): void }) {
  const { client } = useArena();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="ag-remove">
      <button
        type="button"
        className="button button-small button-secondary"
        aria-label={`Remove folder ${path}`}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            onRemoved(await removeFolder(client, id));
          } catch (err) {
            setError(err);
            setBusy(false);
          }
        }}
      >
        Remove
      </button>
      {error ? <ErrorNotice error={error} compact /> : null}
    </div>
  );
}

function AgentItem({ agent }: { agent: CatalogAgent }) {
  const [showRuns, setShowRuns] = useState(false);
  const title = agent.name ?? agent.id ?? agent.dir.split(/[\\/]/).pop() ?? agent.dir;
  return (
    <li
      className={agent.ok ? 'ag-agent' : 'ag-agent ag-agent-invalid'}
      data-testid="agent"
      data-agent-id={agent.id ?? ''}
      data-ok={agent.ok}
    >
      <div className="ag-agent-head">
        <div>
          <span className="strong">{title}</span>
          {agent.id && agent.id !== title ? <span className="mono small muted"> {agent.id}</span> : null}
          {agent.ok ? null : <span className="tag ag-bad">invalid</span>}
          {agent.ok && agent.cannot_start ? <span className="tag ag-bad">cannot start here</span> : null}
        </div>
        {agent.ok ? (
          <button
            type="button"
            className="button button-small button-ghost"
            aria-expanded={showRuns}
            aria-label={`${showRuns ? 'Hide' : 'Show'} runs of ${agent.id ?? title}`}
            onClick={() => setShowRuns((v) => !v)}
          >
            {showRuns ? 'Hide runs' : 'Runs'}
          </button>
        ) : null}
      </div>
      {agent.description ? <p className="small ag-desc">{agent.description}</p> : null}
      <div className="mono small muted ag-manifest">{agent.manifest_path}</div>
      {agent.ok && agent.cannot_start ? (
        <p className="small ag-problems" data-testid="agent-cannot-start">
          {agent.cannot_start}
        </p>
      ) : null}
      {!agent.ok ? (
        <ul className="ag-problems" aria-label={`Problems in ${agent.manifest_path}`}>
          {agent.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : (
        <dl className="ag-facts small">
          <Fact label="Protocols" values={agent.protocols} />
          <Fact label="Challenges" values={agent.challenges} empty="any" />
          {agent.scenarios.length > 0 ? <Fact label="Scenarios" values={agent.scenarios} /> : null}
          <Fact label="Secrets" values={agent.secrets} empty="none" mono />
        </dl>
      )}
      {showRuns ? <AgentRuns manifest={agent.manifest_path} /> : null}
    </li>
  );
}

function Fact({ label, values, empty = '–', mono = false }: { label: string; values: string[]; empty?: string; mono?: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {values.length === 0 ? (
          <span className="muted">{empty}</span>
        ) : (
          values.map((v) => (
            <span key={v} className={mono ? 'tag mono' : 'tag'}>
              {v}
            </span>
          ))
        )}
      </dd>
    </>
  );
}

function AgentRuns({ manifest }: { manifest: string }) {
  const { client } = useArena();
  const runs = useResource((signal) => fetchRuns(client, manifest, signal), [manifest]);
  if (runs.error) return <ErrorNotice error={runs.error} compact onRetry={runs.reload} />;
  if (!runs.data) return <Loading label="Loading runs…" />;
  if (runs.data.length === 0) return <p className="empty small">No tournaments or governance matches yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table ag-runs" aria-label={`Runs of ${manifest}`}>
        <thead>
          <tr>
            <th>Run</th>
            <th>As</th>
            <th>Result</th>
            <th>Status</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {runs.data.map((run) => (
            <RunRow key={run.kind === 'tournament' ? `t/${run.tournament_id}` : `g/${run.match_id}`} run={run} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RunRow({ run }: { run: AgentRun }) {
  if (run.kind === 'tournament')
    return (
      <tr>
        <td>
          <span className="tag">tournament</span>{' '}
          <a href={routeHref({ name: 'tournament', id: run.tournament_id })}>{run.tournament_name}</a>
        </td>
        <td className="mono small">{run.agent_id}</td>
        <td>
          {formatNumber(run.points)} points in {run.games} games
        </td>
        <td>{run.status}</td>
        <td className="nowrap">{formatDateTime(run.at)}</td>
      </tr>
    );
  return (
    <tr>
      <td>
        <span className="tag">governance</span> <a href={routeHref({ name: 'governance-match', id: run.match_id })}>{run.scenario_id}</a>
      </td>
      <td className="mono small">{run.agent_id}</td>
      <td>
        {run.passed} of {run.trials} trials passed
      </td>
      <td>{run.outcome}</td>
      <td className="nowrap">{formatDateTime(run.at)}</td>
    </tr>
  );
}

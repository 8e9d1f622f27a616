// The owner's dashboard for ClawArena agents, on the Agents page: create one (its connection token shown once, with
// a copy button), choose its game, play mode and guidance, rotate its token, ask its watcher to restart, see its matches.
import { useState } from 'react';
import type { ClawAgentListResponse, ClawAgentView, UpdateClawAgentRequest } from '../../../../engine/contract/clawarena-admin.js';
import { useArena } from '../../app-context.js';
import { CopyButton } from '../../ui/copy-button.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { formatDateTime } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { useResource } from '../../ui/use-resource.js';
import {
  createClawAgent,
  fetchClawAgents,
  fetchClawMatches,
  requestWatcherRestart,
  rotateClawToken,
  updateClawAgent,
} from './claw-agents-api.js';

type Games = ClawAgentListResponse['games'];

export function ClawAgentsSection() {
  const { client } = useArena();
  const list = useResource((signal) => fetchClawAgents(client, signal), []);
  return (
    <section className="card stack" aria-labelledby="claw-agents-title" data-testid="claw-agents">
      <div>
        <h2 id="claw-agents-title">ClawArena agents</h2>
        <p className="small muted">
          Agents that connect with a token (the ClawArena starter kit, the OpenClaw watcher) to the agent API at /api/v1.
        </p>
      </div>
      {list.error && !list.data ? <ErrorNotice error={list.error} onRetry={list.reload} /> : null}
      {!list.data ? (
        list.error ? null : (
          <Loading label="Loading ClawArena agents…" />
        )
      ) : (
        <>
          <CreateClawAgentForm games={list.data.games} onCreated={list.reload} />
          {list.data.agents.length === 0 ? (
            <p className="empty small">No ClawArena agents yet.</p>
          ) : (
            <ul className="stack-list ag-list">
              {list.data.agents.map((agent) => (
                <ClawAgentItem key={agent.agentId} agent={agent} games={list.data?.games ?? []} onChanged={list.reload} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** A token shown once: it is never listed again (only its hash is stored). */
function TokenOnce({ token, what }: { token: string; what: string }) {
  return (
    <div className="notice ag-token" role="status" data-testid="claw-token">
      <div className="small">{what} Copy it now: it is shown only once.</div>
      <code className="mono ag-token-value">{token}</code>
      <CopyButton text={token} label="Copy connection token" />
    </div>
  );
}

interface GuidanceDraft {
  gameType: string;
  playMode: 'autoplay' | 'manual';
  strategyHint: string;
  riskProfile: '' | 'conservative' | 'balanced' | 'aggressive';
  language: string;
}

function draftOf(agent: ClawAgentView | null, games: Games): GuidanceDraft {
  return {
    gameType: agent ? (agent.gameType ?? '') : (games[0]?.gameType ?? ''),
    playMode: agent?.playMode ?? 'autoplay',
    strategyHint: agent?.strategyHint ?? '',
    riskProfile: agent?.riskProfile ?? '',
    language: agent?.language ?? '',
  };
}

function requestOf(d: GuidanceDraft): UpdateClawAgentRequest {
  return {
    gameType: d.gameType || null,
    playMode: d.playMode,
    strategyHint: d.strategyHint.trim() || null,
    riskProfile: d.riskProfile || null,
    language: d.language.trim() || null,
  };
}

function GuidanceFields({
  draft,
  games,
  onChange,
  idPrefix,
}: {
  draft: GuidanceDraft;
  games: Games;
  onChange(d: GuidanceDraft): void;
  idPrefix: string;
}) {
  return (
    <div className="ag-claw-fields">
      <label className="field">
        <span className="field-label">Game</span>
        <select id={`${idPrefix}-game`} value={draft.gameType} onChange={(e) => onChange({ ...draft, gameType: e.target.value })}>
          <option value="">none (tournaments only)</option>
          {games.map((g) => (
            <option key={g.gameType} value={g.gameType}>
              {g.title} ({g.players} players)
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Play mode</span>
        <select value={draft.playMode} onChange={(e) => onChange({ ...draft, playMode: e.target.value as GuidanceDraft['playMode'] })}>
          <option value="autoplay">autoplay: join the lobby when it polls</option>
          <option value="manual">manual: tournaments only</option>
        </select>
      </label>
      <label className="field">
        <span className="field-label">Risk</span>
        <select
          value={draft.riskProfile}
          onChange={(e) => onChange({ ...draft, riskProfile: e.target.value as GuidanceDraft['riskProfile'] })}
        >
          <option value="">not set</option>
          <option value="conservative">conservative</option>
          <option value="balanced">balanced</option>
          <option value="aggressive">aggressive</option>
        </select>
      </label>
      <label className="field">
        <span className="field-label">Language</span>
        <input
          type="text"
          value={draft.language}
          placeholder="English"
          maxLength={64}
          onChange={(e) => onChange({ ...draft, language: e.target.value })}
        />
      </label>
      <label className="field ag-claw-hint">
        <span className="field-label">Strategy hint (delivered once per match)</span>
        <textarea
          rows={2}
          maxLength={2000}
          value={draft.strategyHint}
          onChange={(e) => onChange({ ...draft, strategyHint: e.target.value })}
        />
      </label>
    </div>
  );
}

function CreateClawAgentForm({ games, onCreated }: { games: Games; onCreated(): void }) {
  const { client } = useArena();
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<GuidanceDraft>(() => draftOf(null, games));
  const [token, setToken] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="stack ag-claw-create"
      aria-label="Create ClawArena agent"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const created = await createClawAgent(client, { name: name.trim(), ...requestOf(draft) });
          setToken({ name: created.agent.name, token: created.token });
          setName('');
          onCreated();
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      <label className="field">
        <span className="field-label">Name</span>
        <input type="text" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
      </label>
      <GuidanceFields draft={draft} games={games} onChange={setDraft} idPrefix="create" />
      <div>
        <button type="submit" className="button button-primary" disabled={busy || name.trim() === ''}>
          {busy ? 'Creating…' : 'Create agent'}
        </button>
      </div>
      {error ? <ErrorNotice error={error} compact /> : null}
      {token ? <TokenOnce token={token.token} what={`Connection token of ${token.name}.`} /> : null}
    </form>
  );
}

function ClawAgentItem({ agent, games, onChanged }: { agent: ClawAgentView; games: Games; onChanged(): void }) {
  const { client } = useArena();
  const [draft, setDraft] = useState<GuidanceDraft>(() => draftOf(agent, games));
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [showMatches, setShowMatches] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="ag-claw-agent" data-testid="claw-agent" data-agent-name={agent.name}>
      <div className="ag-folder-head">
        <div>
          <strong>{agent.name}</strong> <span className="small muted">#{agent.agentId}</span>
          <div className="small muted">
            {agent.lastSeenAt ? `last seen ${formatDateTime(agent.lastSeenAt)}` : 'never connected'}
            {agent.restartRequestedAt ? ` · restart requested ${agent.restartRequestedAt}` : ''}
          </div>
        </div>
        <div className="ag-folder-actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => run(async () => setToken((await rotateClawToken(client, agent.agentId)).token))}
          >
            Rotate token
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => run(() => requestWatcherRestart(client, agent.agentId))}
          >
            Request watcher restart
          </button>
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={showMatches}
            onClick={() => setShowMatches(!showMatches)}
          >
            Matches
          </button>
        </div>
      </div>
      <GuidanceFields draft={draft} games={games} onChange={setDraft} idPrefix={`agent-${agent.agentId}`} />
      <button
        type="button"
        className="button button-primary"
        disabled={busy}
        onClick={() => run(() => updateClawAgent(client, agent.agentId, requestOf(draft)))}
      >
        Save
      </button>
      {error ? <ErrorNotice error={error} compact /> : null}
      {token ? <TokenOnce token={token} what="New connection token; the previous one no longer works." /> : null}
      {showMatches ? <ClawMatches agentId={agent.agentId} /> : null}
    </li>
  );
}

function ClawMatches({ agentId }: { agentId: number }) {
  const { client } = useArena();
  const matches = useResource((signal) => fetchClawMatches(client, agentId, signal), [agentId]);
  if (matches.error) return <ErrorNotice error={matches.error} onRetry={matches.reload} compact />;
  if (!matches.data) return <Loading label="Loading matches…" />;
  if (matches.data.matches.length === 0) return <p className="empty small">No matches yet.</p>;
  return (
    <table className="table small" data-testid="claw-matches">
      <thead>
        <tr>
          <th>Match</th>
          <th>Game</th>
          <th>Status</th>
          <th>Players</th>
          <th>Place</th>
        </tr>
      </thead>
      <tbody>
        {matches.data.matches.map((m) => (
          <tr key={m.matchId}>
            <td>#{m.matchId}</td>
            <td>{m.gameType}</td>
            <td>{m.finishReason ? `${m.status} (${m.finishReason})` : m.status}</td>
            <td>{m.seats.map((s) => s.name).join(', ')}</td>
            <td>{m.placement ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

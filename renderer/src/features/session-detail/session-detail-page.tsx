import type { AdminSessionDetail } from '../../../../engine/contract/admin.js';
import { challengeName, useArena } from '../../app-context.js';
import { ApiError } from '../../arena-client/errors.js';
import type { LiveStatus } from '../../arena-client/live.js';
import { routeHref } from '../../routes.js';
import { CopyButton } from '../../ui/copy-button.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { formatDateTime, formatJson, formatNumber, shortId } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { participantLabel, seatRows } from './session-view.js';
import { Transcript } from './transcript.js';
import { useLiveSession } from './use-live-session.js';

const LIVE_LABELS: Record<LiveStatus, string> = {
  open: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
};

export function SessionDetailPage({ id }: { id: string }) {
  const { overview } = useArena();
  const { detail, error, live, reload } = useLiveSession(id);

  if (!detail) {
    if (error instanceof ApiError && error.status === 404) {
      const minutes = Math.round(overview.staleAfterMs / 60_000);
      return (
        <>
          <PageHeader title="Session not found" />
          <div className="notice">
            <div>
              <strong>There is no session {id}.</strong>
              <span className="notice-detail">
                {minutes > 0 ? `Unfinished sessions expire after ${minutes} minutes without activity. ` : ''}
                <a href={routeHref({ name: 'sessions' })}>Back to sessions</a>
              </span>
            </div>
          </div>
        </>
      );
    }
    return error ? <ErrorNotice error={error} onRetry={reload} /> : <Loading label="Loading session…" />;
  }

  const { session } = detail;
  const ended = session.state.status === 'ended';
  return (
    <div className="stack" data-testid="session-detail" data-session-id={session.id} data-status={session.state.status}>
      <PageHeader
        title={session.name}
        subtitle={
          <>
            <a href={routeHref({ name: 'sessions' })}>Sessions</a> / {challengeName(overview, session.challengeType)}
          </>
        }
        actions={
          <>
            <span data-testid="session-status">
              <StatusBadge status={session.state.status} />
            </span>
            <span className={`live live-${live}`} data-testid="live-indicator" data-live={live}>
              <span className="live-dot" aria-hidden="true" />
              {LIVE_LABELS[live]}
            </span>
          </>
        }
      />
      {error ? <ErrorNotice error={error} compact /> : null}
      <div className="grid-2">
        <Summary detail={detail} />
        <Seats detail={detail} />
      </div>
      <div className="grid-2">
        <section className="card">
          <h2>Operator log</h2>
          <p className="muted small">What the challenge operator told the players, including private messages.</p>
          <Transcript messages={detail.operatorLog} invites={session.invites} empty="No operator messages yet." testId="operator-log" />
        </section>
        <section className="card">
          <h2>Chat</h2>
          <p className="muted small">The players' conversation on the session channel.</p>
          <Transcript messages={detail.chat} invites={session.invites} empty="The players have not said anything yet." testId="chat-log" />
        </section>
      </div>
      {ended && session.gameState ? (
        <section className="card" data-testid="game-state">
          <h2>Game state</h2>
          <p className="muted small">The operator's private state, revealed now that the game has ended.</p>
          <pre className="code-block">{formatJson(session.gameState)}</pre>
        </section>
      ) : null}
    </div>
  );
}

function Summary({ detail }: { detail: AdminSessionDetail }) {
  const { overview } = useArena();
  const { session } = detail;
  const options = Object.keys(detail.options).length > 0 ? JSON.stringify(detail.options) : 'defaults';
  return (
    <section className="card">
      <h2>Overview</h2>
      <dl className="facts">
        <dt>Session id</dt>
        <dd className="mono">
          {session.id} <CopyButton text={session.id} />
        </dd>
        <dt>Challenge</dt>
        <dd>
          {challengeName(overview, session.challengeType)} <span className="muted">({session.challengeType})</span>
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(session.createdAt)}</dd>
        <dt>Last activity</dt>
        <dd>{formatDateTime(detail.lastActivityAt)}</dd>
        {session.state.completedAt ? (
          <>
            <dt>Ended</dt>
            <dd>{formatDateTime(session.state.completedAt)}</dd>
          </>
        ) : null}
        <dt>Category</dt>
        <dd>
          <span className="tag">{session.gameCategory}</span>
        </dd>
        <dt>Options</dt>
        <dd className="mono small">{options}</dd>
      </dl>
    </section>
  );
}

function Seats({ detail }: { detail: AdminSessionDetail }) {
  const { session } = detail;
  const rows = seatRows(session);
  const ended = session.state.status === 'ended';
  const attributions = session.state.attributions ?? [];
  return (
    <section className="card">
      <h2>Players and scores</h2>
      <p className="muted small">{ended ? 'Final scores.' : 'Scores appear as the operator assigns them; final when the game ends.'}</p>
      <div className="table-wrap">
        <table className="table" data-testid="scores-table">
          <thead>
            <tr>
              <th>Seat</th>
              <th>Identity</th>
              <th className="num">Security</th>
              <th className="num">Utility</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.invite} data-seat={row.seat}>
                <td>
                  <div className="nowrap">
                    Player {row.seat}
                    {row.joined ? null : <span className="tag tag-waiting">waiting</span>}
                  </div>
                  <div className="nowrap muted small">
                    <span className="mono" title={row.invite}>
                      {shortId(row.invite, 14)}
                    </span>
                    <CopyButton text={row.invite} />
                  </div>
                </td>
                <td data-testid="identity">
                  {row.identity ?? (row.joined ? <span className="muted">anonymous</span> : <span className="muted">–</span>)}
                </td>
                <td className="num" data-testid="security">
                  {formatNumber(row.score?.security)}
                </td>
                <td className="num" data-testid="utility">
                  {formatNumber(row.score?.utility)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {attributions.length > 0 ? (
        <ul className="attributions">
          {attributions.map((a) => (
            <li key={`${a.from}-${a.to}-${a.type}`}>
              {/* Attribution indexes count players in join order; labels use seats (invite order). */}
              {participantLabel(session.state.players[a.from], session.invites)} →{' '}
              {participantLabel(session.state.players[a.to], session.invites)}: <span className="tag">{a.type.replace(/_/g, ' ')}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

import type { Challenge } from '../../../../engine/contract/specarena.js';
import { challengeName, useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { formatDateTime, relativeTime, shortId } from '../../ui/format.js';
import { StatusBadge } from '../../ui/status-badge.js';

export function SessionsTable({
  sessions,
  now,
  tournaments = {},
}: {
  sessions: Challenge[];
  now: number;
  /** Session id → the tournament that created it. */
  tournaments?: Record<string, string>;
}) {
  const { overview } = useArena();
  return (
    <table className="table" data-testid="sessions-table">
      <thead>
        <tr>
          <th>Session</th>
          <th>Challenge</th>
          <th>Status</th>
          <th className="num">Players</th>
          <th>Created</th>
          <th>Category</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.id} data-session-id={session.id}>
            <td>
              <a href={routeHref({ name: 'session', id: session.id })} className="strong-link">
                {session.name}
              </a>
              <div className="muted small mono" title={session.id}>
                {shortId(session.id)}
              </div>
              {tournaments[session.id] ? (
                <a
                  className="tag small"
                  data-testid="tournament-owned"
                  href={routeHref({ name: 'tournament', id: tournaments[session.id] as string })}
                >
                  tournament game
                </a>
              ) : null}
            </td>
            <td>{challengeName(overview, session.challengeType)}</td>
            <td>
              <StatusBadge status={session.state.status} />
            </td>
            <td className="num">
              {session.state.players.length} / {session.invites.length}
            </td>
            <td title={formatDateTime(session.createdAt)}>{relativeTime(session.createdAt, now)}</td>
            <td>
              <span className="tag">{session.gameCategory}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { useState } from 'react';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { LeaderboardTable } from './leaderboard-table.js';
import { strategyLabel } from './metric-labels.js';

const REFRESH_MS = 10_000;

export function LeaderboardsPage({ type }: { type: string | undefined }) {
  const { overview } = useArena();
  const known = type === undefined || Object.hasOwn(overview.challenges, type);
  return (
    <>
      <PageHeader title="Leaderboards" subtitle="Scores of every player identity across ended games." actions={<RecomputeButton />} />
      <nav className="tabs" aria-label="Leaderboards">
        <a
          href={routeHref({ name: 'leaderboards' })}
          className={type === undefined ? 'tab tab-active' : 'tab'}
          aria-current={type === undefined ? 'page' : undefined}
        >
          Overall
        </a>
        {Object.entries(overview.challenges).map(([t, metadata]) => (
          <a
            key={t}
            href={routeHref({ name: 'leaderboards', type: t })}
            className={t === type ? 'tab tab-active' : 'tab'}
            aria-current={t === type ? 'page' : undefined}
          >
            {metadata.name}
          </a>
        ))}
      </nav>
      {!known ? (
        <div className="notice">There is no challenge called “{type}”.</div>
      ) : type === undefined ? (
        <GlobalBoard />
      ) : (
        <ChallengeBoards type={type} />
      )}
    </>
  );
}

function GlobalBoard() {
  const { client } = useArena();
  const board = useResource((signal) => client.globalScoring(signal), [], { refreshMs: REFRESH_MS });
  if (board.loading && !board.data) return <Loading label="Loading leaderboard…" />;
  if (!board.data) return <ErrorNotice error={board.error} onRetry={board.reload} />;
  return (
    <section className="card">
      <h2>Overall</h2>
      <p className="muted small">Average security and utility per player over all challenges.</p>
      {board.error ? <ErrorNotice error={board.error} compact /> : null}
      {board.data.length === 0 ? <NoScores /> : <LeaderboardTable entries={board.data} testId="leaderboard-global" />}
    </section>
  );
}

function ChallengeBoards({ type }: { type: string }) {
  const { client } = useArena();
  const boards = useResource((signal) => client.scoringByType(type, signal), [type], { refreshMs: REFRESH_MS });
  if (boards.loading && !boards.data) return <Loading label="Loading leaderboard…" />;
  if (!boards.data) return <ErrorNotice error={boards.error} onRetry={boards.reload} />;
  const strategies = Object.entries(boards.data);
  if (strategies.length === 0) {
    return (
      <section className="card">
        <NoScores />
      </section>
    );
  }
  return (
    <>
      {boards.error ? <ErrorNotice error={boards.error} compact /> : null}
      {strategies.map(([strategy, entries]) => (
        <section className="card" key={strategy}>
          <h2>{strategyLabel(strategy)}</h2>
          <LeaderboardTable entries={entries} testId={`leaderboard-${strategy}`} />
        </section>
      ))}
    </>
  );
}

function NoScores() {
  return <p className="empty">No scored games yet. Scores appear here when a session ends.</p>;
}

/** Rebuilds all metrics from stored results (after changing scoring rules or importing data). */
function RecomputeButton() {
  const { client } = useArena();
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: unknown }>({
    busy: false,
    message: null,
    error: null,
  });
  const run = async () => {
    setState({ busy: true, message: null, error: null });
    try {
      const { games } = await client.recomputeScoring();
      setState({ busy: false, message: `Recomputed from ${games} game${games === 1 ? '' : 's'}.`, error: null });
    } catch (error) {
      setState({ busy: false, message: null, error });
    }
  };
  return (
    <div className="row-gap">
      {state.message ? <span className="muted small">{state.message}</span> : null}
      {state.error ? <ErrorNotice error={state.error} compact /> : null}
      <button type="button" className="button button-secondary" onClick={run} disabled={state.busy}>
        {state.busy ? 'Recomputing…' : 'Recompute scores'}
      </button>
    </div>
  );
}

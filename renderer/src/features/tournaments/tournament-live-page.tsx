// The live view of one tournament: progress and controls, standings with rating intervals, the SPRT gauge, games
// running now (each opens the match viewer), the latest results and the charts — all following the SSE feed.
import { useEffect, useState } from 'react';
import type { TournamentSummary } from '../../../../engine/contract/tournament.js';
import { ApiError } from '../../arena-client/errors.js';
import type { LiveStatus } from '../../arena-client/live.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { formatDateTime } from '../../ui/format.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { AdaptivePanel } from './adaptive-panel.js';
import { RecentGames, RunningGames } from './game-lists.js';
import { LlrGauge } from './llr-gauge.js';
import { ModelServersPanel } from './model-servers-panel.js';
import { ProgressBar } from './progress-bar.js';
import { RatingChart } from './rating-chart.js';
import { StandingsTable } from './standings-table.js';
import { lifecycleText, progressText } from './tournament-actions.js';
import { TournamentControls, TournamentStatusBadge } from './tournament-controls.js';
import type { StandingsResponse } from './tournaments-api.js';
import { isTerminal, type LiveTournament, useLiveTournament } from './use-live-tournament.js';
import { WinRateHeatmap } from './win-rate-heatmap.js';
import './tournaments.css';

const LIVE_LABELS: Record<LiveStatus, string> = {
  open: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  closed: 'Not live',
};

/**
 * The feed's state. Green "Live" means the feed is open and the engine is playing the run; an open feed on a run that
 * is not playing (paused, or its pause confirmed while the last agents shut down) reads "Connected", its dot grey.
 */
function LiveIndicator({ live, playing }: { live: LiveStatus; playing: boolean }) {
  const idle = live === 'open' && !playing;
  return (
    <span className={`live live-${live}${idle ? ' live-idle' : ''}`} data-testid="live-indicator" data-live={live} data-playing={playing}>
      <span className="live-dot" aria-hidden="true" />
      {idle ? 'Connected' : LIVE_LABELS[live]}
    </span>
  );
}

/** Re-renders every few seconds so "started 5 s ago" keeps moving between feed events. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

function TournamentNotFound({ id }: { id: string }) {
  return (
    <>
      <PageHeader title="Tournament not found" />
      <div className="notice" role="alert">
        <div>
          <strong>There is no tournament {id} in this data folder.</strong>
          <span className="notice-detail">
            <a href={routeHref({ name: 'tournaments' })}>Back to tournaments</a>
          </span>
        </div>
      </div>
    </>
  );
}

function ProgressSection({ summary, standings }: { summary: TournamentSummary; standings: StandingsResponse | undefined }) {
  return (
    <section className="card t-summary" aria-label="Progress">
      <div className="t-summary-progress">
        <ProgressBar summary={summary} label="Games played" />
        <span className="strong" data-testid="games-done" data-games-done={summary.games_done}>
          {progressText(summary)} games
        </span>
        {standings ? (
          <span className="muted small" data-testid="games-rated" data-games-rated={standings.rated_games.rated}>
            {standings.rated_games.rated} rated
          </span>
        ) : null}
      </div>
      <dl className="facts t-facts">
        <dt>Created</dt>
        <dd>{formatDateTime(summary.created_at)}</dd>
        {summary.finished_at ? (
          <>
            <dt>Ended</dt>
            <dd>{formatDateTime(summary.finished_at)}</dd>
          </>
        ) : null}
        {summary.stop_reason ? (
          <>
            <dt>Stop reason</dt>
            <dd data-testid="stop-reason">{summary.stop_reason}</dd>
          </>
        ) : null}
        <dt>Run manifest</dt>
        <dd className="mono small">{summary.manifest_hash.slice(0, 16)}</dd>
        {summary.agent_lifecycles ? (
          <>
            <dt>Agent processes</dt>
            <dd data-testid="agent-lifecycles">
              {summary.agent_lifecycles.map((a) => (
                <div key={a.agent} className="small" data-agent={a.agent} data-restarts={a.restarts}>
                  <span className="mono">{a.agent}</span>: {lifecycleText(a)}
                </div>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="row-gap">
        <a
          className="button button-secondary button-small"
          href={routeHref({ name: 'reports', tab: 'tournaments', tournament: summary.id })}
        >
          Open report
        </a>
        <a className="button button-secondary button-small" href={routeHref({ name: 'tournament-new', from: summary.id })}>
          New tournament from this one
        </a>
      </div>
    </section>
  );
}

function RunWarnings({ standings }: { standings: StandingsResponse | undefined }) {
  if (!standings || standings.warnings.length === 0) return null;
  return (
    <div className="notice notice-warning" role="status" data-testid="run-warnings">
      <div>
        <strong>Check these results</strong>
        {standings.warnings.map((w) => (
          <span key={w} className="notice-detail">
            {w}
          </span>
        ))}
      </div>
    </div>
  );
}

function StandingsSection({ t }: { t: LiveTournament }) {
  const { errors, standings } = t;
  return (
    <section className="card" aria-labelledby="t-standings-title">
      <h2 id="t-standings-title">Standings</h2>
      {errors.standings ? <ErrorNotice error={errors.standings} compact /> : null}
      {standings ? (
        <StandingsTable rows={standings.standings.combined} rated={standings.rated_games} />
      ) : (
        <Loading label="Loading standings…" />
      )}
      {standings?.sprt ? (
        <>
          <h3>SPRT</h3>
          <LlrGauge sprt={standings.sprt} />
        </>
      ) : null}
    </section>
  );
}

/** Two columns that stack independently: the short sections (running games, chart) beside the long ones. */
function GamesAndCharts({ t, summary, now }: { t: LiveTournament; summary: TournamentSummary; now: number }) {
  const { errors } = t;
  return (
    <div className="t-live-grid">
      <div className="stack">
        <section className="card" aria-labelledby="t-running-title">
          <h2 id="t-running-title">Running games</h2>
          {errors.running ? <ErrorNotice error={errors.running} compact /> : null}
          {t.running ? <RunningGames tournamentId={summary.id} games={t.running} now={now} /> : <Loading label="Loading games…" />}
        </section>
        <section className="card" aria-labelledby="t-rating-title">
          <h2 id="t-rating-title">Rating over games</h2>
          {errors.charts ? <ErrorNotice error={errors.charts} compact /> : null}
          {t.charts ? <RatingChart charts={t.charts} /> : errors.charts ? null : <Loading label="Loading chart…" />}
        </section>
        <section className="card" aria-labelledby="t-heat-title">
          <h2 id="t-heat-title">Pairwise win rate</h2>
          {t.charts ? <WinRateHeatmap charts={t.charts} /> : null}
        </section>
      </div>
      <section className="card" aria-labelledby="t-recent-title">
        <h2 id="t-recent-title">Recently finished</h2>
        {errors.recent ? <ErrorNotice error={errors.recent} compact /> : null}
        {t.recent ? <RecentGames tournamentId={summary.id} games={t.recent} /> : <Loading label="Loading games…" />}
      </section>
    </div>
  );
}

export function TournamentLivePage({ id }: { id: string }) {
  const t = useLiveTournament(id);
  const now = useNow(5000);
  const { summary, errors } = t;

  if (!summary) {
    if (errors.summary instanceof ApiError && errors.summary.status === 404) {
      return <TournamentNotFound id={id} />;
    }
    return errors.summary ? <ErrorNotice error={errors.summary} onRetry={t.reload} /> : <Loading label="Loading tournament…" />;
  }

  const terminal = isTerminal(summary);
  return (
    <div className="stack t-live" data-testid="tournament-live" data-tournament-id={summary.id} data-status={summary.status}>
      <PageHeader
        title={summary.name}
        subtitle={
          <>
            <a href={routeHref({ name: 'tournaments' })}>Tournaments</a> / <span className="mono">{summary.id}</span>
          </>
        }
        actions={
          <>
            <TournamentStatusBadge summary={summary} />
            {terminal ? null : <LiveIndicator live={t.live} playing={summary.active} />}
            <TournamentControls summary={summary} onChange={t.update} />
          </>
        }
      />
      {errors.summary ? <ErrorNotice error={errors.summary} compact /> : null}

      <ProgressSection summary={summary} standings={t.standings} />

      {summary.adaptive ? <AdaptivePanel adaptive={summary.adaptive} /> : null}

      <RunWarnings standings={t.standings} />

      <StandingsSection t={t} />

      {errors.models ? <ErrorNotice error={errors.models} compact /> : null}
      {t.models ? <ModelServersPanel data={t.models} /> : null}

      <GamesAndCharts t={t} summary={summary} now={now} />
    </div>
  );
}

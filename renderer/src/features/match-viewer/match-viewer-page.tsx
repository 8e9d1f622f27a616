// One tournament game: its timeline (operator, chat, match events, model turns), outcome, seats and model turns.
// A finished game shows its stored record; a running game follows live (a SpecArena session over SSE, a ClawArena
// match by polling its events) and switches to the stored record once the game has been written.

import { useEffect, useMemo, useState } from 'react';
import type { RunningGame, TournamentGameDetailResponse } from '../../../../engine/contract/tournament.js';
import { gameNumber } from '../../../../engine/core/seat-label.js';
import { useArena } from '../../app-context.js';
import type { LiveStatus } from '../../arena-client/live.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { useLiveSession } from '../session-detail/use-live-session.js';
import { GameActions } from './game-actions.js';
import { GameNav } from './game-nav.js';
import { attributionLines, GameFacts, type SeatLine, SeatsTable, seatLines } from './game-summary.js';
import { MatchPlay } from './match-play.js';
import { clawMatchId, fetchGame, fetchSessionIfKept, fetchTournament, isSpecArenaSession } from './match-viewer-api.js';
import { modelTurns } from './model-turns.js';
import { ModelTurnsPane } from './model-turns-pane.js';
import { buildTimeline, liveTranscript, relativeStamp } from './timeline.js';
import { useLiveMatch } from './use-live-match.js';
import { type MatchSource, useMatchSource } from './use-match-source.js';
import './match-viewer.css';

const LIVE_LABELS: Record<LiveStatus, string> = {
  open: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
};

export function MatchViewerPage({ tournamentId, index }: { tournamentId: string; index: number }) {
  const { client } = useArena();
  const { source, retry } = useMatchSource(tournamentId, index);
  const tournament = useResource((signal) => fetchTournament(client, tournamentId, signal), [tournamentId]);
  const subtitle = (
    <>
      <a href={routeHref({ name: 'tournaments' })}>Tournaments</a> /{' '}
      <a href={routeHref({ name: 'tournament', id: tournamentId })}>{tournament.data?.name ?? tournamentId}</a> /{' '}
      <a href={routeHref({ name: 'reports', tab: 'tournaments', tournament: tournamentId })}>Games</a>
      <GameNav tournamentId={tournamentId} index={index} tournament={tournament.data ?? null} />
    </>
  );
  return (
    <div className="stack" data-testid="match-viewer" data-phase={source.phase}>
      <Body source={source} retry={retry} index={index} subtitle={subtitle} />
    </div>
  );
}

function Body({ source, retry, index, subtitle }: { source: MatchSource; retry(): void; index: number; subtitle: React.ReactNode }) {
  switch (source.phase) {
    case 'loading':
      return (
        <>
          <PageHeader title={`Game ${index}`} subtitle={subtitle} />
          <Loading label="Loading game…" />
        </>
      );
    case 'error':
      return (
        <>
          <PageHeader title={`Game ${index}`} subtitle={subtitle} />
          <ErrorNotice error={source.error} onRetry={retry} />
        </>
      );
    case 'waiting':
      return (
        <>
          <PageHeader title={`Game ${index}`} subtitle={subtitle} />
          <div className="notice" role="status">
            {source.running
              ? `This ${source.running.challenge} game is being played; it will show here as soon as it has been recorded.`
              : 'This game has not been played (or recorded) yet. The page checks again every few seconds.'}
          </div>
        </>
      );
    case 'live': {
      const matchId = clawMatchId(source.running.session_id);
      return matchId !== null ? (
        <LiveClawGame key={matchId} matchId={matchId} running={source.running} index={index} subtitle={subtitle} />
      ) : (
        <LiveGame key={source.running.session_id} running={source.running} index={index} subtitle={subtitle} />
      );
    }
    case 'stored':
      return <StoredGame detail={source.detail} subtitle={subtitle} />;
  }
}

function StoredGame({ detail, subtitle }: { detail: TournamentGameDetailResponse; subtitle: React.ReactNode }) {
  const { client } = useArena();
  const { game } = detail;
  // View as one seat: that seat's transcript comes from the engine, which withholds what the seat could not see.
  const [viewSeat, setViewSeat] = useState<number | null>(null);
  const seatView = useResource(
    (signal) => (viewSeat === null ? Promise.resolve(null) : fetchGame(client, game.tournamentId, game.gameIndex, signal, viewSeat)),
    [game.tournamentId, game.gameIndex, viewSeat],
  );
  const transcript = viewSeat === null ? detail.transcript : (seatView.data?.transcript ?? null);
  const timeline = useMemo(
    () => buildTimeline(transcript ?? [], { invites: game.invites, seatAgents: game.seat_agents }),
    [transcript, game.invites, game.seat_agents],
  );
  const turns = useMemo(() => modelTurns(transcript ?? []), [transcript]);
  const session = useResource(
    // Only SpecArena games have a session (ClawArena games carry `clawarena:<match id>`).
    (signal) => (isSpecArenaSession(game.sessionId) ? fetchSessionIfKept(client, game.sessionId, signal) : Promise.resolve(null)),
    [game.sessionId],
  );
  const attributions = useMemo(() => {
    const state = session.data?.session.state;
    if (!state?.attributions) return [];
    return attributionLines(state.attributions, state.players, game.invites, game.seat_agents);
  }, [session.data, game]);
  return (
    <>
      <PageHeader
        title={`Game ${gameNumber(game.gameIndex)} · ${game.seat_agents.join(' vs ')}`}
        subtitle={subtitle}
        actions={
          <>
            <GameActions tournamentId={game.tournamentId} index={game.gameIndex} />
            {game.workerId ? (
              <span className="tag" data-testid="game-worker" title="The game worker that played this game">
                worker {game.workerId}
              </span>
            ) : null}
            <span className="tag" data-testid="game-state">
              finished
            </span>
          </>
        }
      />
      <div className="grid-2">
        <GameFacts game={game} />
        <SeatsTable seats={seatLines(game)} attributions={attributions} final={game.termination === 'completed'} />
      </div>
      <SeatViewPicker seatAgents={game.seat_agents} seat={viewSeat} onChange={setViewSeat} />
      {seatView.error ? <ErrorNotice error={seatView.error} onRetry={seatView.reload} /> : null}
      {transcript === null ? (
        seatView.error ? null : (
          <Loading label="Loading the seat's view…" />
        )
      ) : (
        <>
          <MatchPlay
            key={viewSeat ?? 'all'}
            playable={game.challenge}
            timeline={timeline}
            seatAgents={game.seat_agents}
            invites={game.invites}
            startedAt={game.startedAt}
            live={false}
          />
          <ModelTurnsPane turns={turns} seatAgents={game.seat_agents} />
        </>
      )}
    </>
  );
}

/** "View as": the whole record, or the game as one seat saw it. */
function SeatViewPicker({
  seatAgents,
  seat,
  onChange,
}: {
  seatAgents: readonly string[];
  seat: number | null;
  onChange(seat: number | null): void;
}) {
  return (
    <section className="card mv-seat-view" aria-label="View as" data-testid="seat-view" data-seat={seat ?? 'all'}>
      <label className="field field-inline">
        <span className="field-label">View as</span>
        <select value={seat ?? ''} onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}>
          <option value="">Everyone (the full record)</option>
          {seatAgents.map((agent, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: seats are positions; the same agent may sit twice.
            <option key={i} value={i}>{`${agent} (seat ${i + 1})`}</option>
          ))}
        </select>
      </label>
      <span className="muted small" role="status">
        {seat === null
          ? 'Every line, private ones included.'
          : `What ${seatAgents[seat] ?? 'this seat'} (seat ${seat + 1}) was shown while it played: direct lines between others show as withheld, other seats' private events and model turns are left out. The engine filters them before they reach this page.`}
      </span>
    </section>
  );
}

function LiveGame({ running, index, subtitle }: { running: RunningGame; index: number; subtitle: React.ReactNode }) {
  const { detail, error, live, reload } = useLiveSession(running.session_id as string, true);
  const timeline = useMemo(
    () =>
      detail
        ? buildTimeline(liveTranscript(detail.operatorLog, detail.chat, detail.session.invites), {
            invites: detail.session.invites,
            seatAgents: running.seats,
          })
        : [],
    [detail, running.seats],
  );
  const seats = useMemo<SeatLine[]>(() => {
    const state = detail?.session.state;
    return running.seats.map((agent, seat) => {
      const invite = detail?.session.invites[seat];
      const score = invite && state ? state.scores[state.players.indexOf(invite)] : undefined;
      return { seat, agent, placement: null, security: score?.security, utility: score?.utility, faulted: false, usage: null };
    });
  }, [detail, running.seats]);
  const attributions = useMemo(() => {
    if (!detail?.session.state.attributions) return [];
    const { state, invites } = detail.session;
    return attributionLines(state.attributions ?? [], state.players, invites, running.seats);
  }, [detail, running.seats]);
  return (
    <>
      <LiveHeader running={running} index={index} subtitle={subtitle} live={live} />
      {error ? <ErrorNotice error={error} compact onRetry={reload} /> : null}
      <div className="notice" role="status">
        Following the game live ({running.challenge}, attempt {running.attempt}). The full record (placements, model turns) appears when the
        game has been stored.
      </div>
      <SeatsTable seats={seats} attributions={attributions} final={false} />
      {detail ? (
        <MatchPlay
          playable={running.challenge}
          timeline={timeline}
          seatAgents={running.seats}
          invites={detail.session.invites}
          startedAt={running.started_at}
          live
        />
      ) : (
        <Loading label="Connecting to the game…" />
      )}
    </>
  );
}

function LiveHeader({
  running,
  index,
  subtitle,
  live,
}: {
  running: RunningGame;
  index: number;
  subtitle: React.ReactNode;
  live: LiveStatus;
}) {
  return (
    <PageHeader
      title={`Game ${index} · ${running.seats.join(' vs ')}`}
      subtitle={subtitle}
      actions={
        <>
          <Elapsed since={running.started_at} />
          <span className={`live live-${live}`} data-testid="live-indicator" data-live={live}>
            <span className="live-dot" aria-hidden="true" />
            {LIVE_LABELS[live]}
          </span>
        </>
      }
    />
  );
}

/** A running ClawArena game: its match events so far as the timeline, the board following the newest one. */
function LiveClawGame({
  matchId,
  running,
  index,
  subtitle,
}: {
  matchId: number;
  running: RunningGame;
  index: number;
  subtitle: React.ReactNode;
}) {
  const { events, status, live, error } = useLiveMatch(matchId);
  const timeline = useMemo(() => buildTimeline(events, { invites: [], seatAgents: running.seats }), [events, running.seats]);
  const seats = useMemo<SeatLine[]>(
    () =>
      running.seats.map((agent, seat) => ({
        seat,
        agent,
        placement: null,
        security: undefined,
        utility: undefined,
        faulted: false,
        usage: null,
      })),
    [running.seats],
  );
  return (
    <>
      <LiveHeader running={running} index={index} subtitle={subtitle} live={live} />
      {error ? <ErrorNotice error={error} compact /> : null}
      <div className="notice" role="status">
        Following ClawArena match {matchId} live ({running.challenge}, attempt {running.attempt}
        {status === 'finished' ? ', finished: being stored' : ''}). The full record (placements, model turns) appears when the game has been
        stored.
      </div>
      <SeatsTable seats={seats} attributions={[]} final={false} />
      {status !== null ? (
        <MatchPlay
          playable={running.challenge}
          timeline={timeline}
          seatAgents={running.seats}
          invites={[]}
          startedAt={running.started_at}
          live
        />
      ) : (
        <Loading label="Connecting to the game…" />
      )}
    </>
  );
}

/** Game clock of a running game, ticking once a second. */
function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="mono small" data-testid="elapsed" title="Time since the game started">
      {relativeStamp(now, since).replace(/\.\d$/, '')}
    </span>
  );
}

// One tournament, kept current: each section (summary, standings, running and recent games, charts) is read from
// the admin API and re-read when the SSE feed says it changed, throttled so a fast run costs at most a few requests
// per second. The feed reconnects by itself; every reconnect opens with a snapshot, which refreshes everything.
import { type Dispatch, type SetStateAction, useEffect, useMemo, useRef, useState } from 'react';
import type { TournamentModelServersResponse } from '../../../../engine/contract/model-server-use.js';
import type { RunningGame, TournamentChartsResponse, TournamentSummary } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import type { LiveStatus } from '../../arena-client/live.js';
import { type Throttled, throttle } from './throttle.js';
import { type FeedMessage, openTournamentFeed } from './tournament-feed.js';
import { type GameRow, type StandingsResponse, tournamentsApi } from './tournaments-api.js';

const RECENT_GAMES = 12;
/** Standings at most twice a second; the rest of the page needs less. */
const STANDINGS_THROTTLE_MS = 500;
const RUNNING_THROTTLE_MS = 500;
const SLOW_THROTTLE_MS = 1000;
/** Safety net for a feed that silently stalls (proxies, sleep/resume). */
const POLL_MS = 10_000;

type SectionKey = 'summary' | 'standings' | 'running' | 'recent' | 'charts' | 'models';

export interface LiveTournament {
  summary: TournamentSummary | undefined;
  standings: StandingsResponse | undefined;
  running: RunningGame[] | undefined;
  recent: GameRow[] | undefined;
  charts: TournamentChartsResponse | undefined;
  /** Model servers' calls, utilisation and queueing (the report's figures); model_agents 0 for a run without any. */
  models: TournamentModelServersResponse | undefined;
  errors: Partial<Record<SectionKey, unknown>>;
  live: LiveStatus;
  /** Applies a control's answer at once and re-reads the rest. */
  update(summary: TournamentSummary): void;
  reload(): void;
}

export function isTerminal(summary: Pick<TournamentSummary, 'status'>): boolean {
  return summary.status === 'finished' || summary.status === 'cancelled';
}

type Errors = Partial<Record<SectionKey, unknown>>;

/**
 * A throttled re-read of one section. Only the newest answer counts: a slow earlier read must not overwrite a later
 * one; a read's error is kept for its section until a later read succeeds.
 */
function sectionRefresher<T>(
  signal: AbortSignal,
  key: SectionKey,
  fetch: (signal: AbortSignal) => Promise<T>,
  apply: (value: T) => void,
  setErrors: Dispatch<SetStateAction<Errors>>,
  ms: number,
): Throttled {
  let issued = 0;
  let applied = 0;
  return throttle(() => {
    const seq = ++issued;
    fetch(signal).then(
      (value) => {
        if (signal.aborted || seq < applied) return;
        applied = seq;
        apply(value);
        setErrors((e) => (e[key] === undefined ? e : { ...e, [key]: undefined }));
      },
      (error: unknown) => {
        if (!signal.aborted) setErrors((e) => ({ ...e, [key]: error }));
      },
    );
  }, ms);
}

/** Re-reads the sections a feed message says changed (a snapshot or a status change: all of them). */
function applyFeedMessage(
  message: FeedMessage,
  r: Record<SectionKey, Throttled>,
  setSummary: Dispatch<SetStateAction<TournamentSummary | undefined>>,
  all: () => void,
): void {
  switch (message.event) {
    case 'snapshot':
      setSummary(message.summary);
      r.standings();
      r.running();
      r.recent();
      r.charts();
      r.models();
      break;
    case 'game_started':
      r.running();
      break;
    case 'game_ended':
      setSummary((s) => (s ? { ...s, games_done: message.games_done, planned_games: message.planned_games } : s));
      r.standings();
      r.running();
      r.recent();
      r.charts();
      r.models();
      break;
    default:
      // started, paused, cancelled, failed, finished: the status changed.
      all();
  }
}

export function useLiveTournament(id: string): LiveTournament {
  const { client, connection } = useArena();
  const api = useMemo(() => tournamentsApi(client), [client]);
  const [summary, setSummary] = useState<TournamentSummary>();
  const [standings, setStandings] = useState<StandingsResponse>();
  const [running, setRunning] = useState<RunningGame[]>();
  const [recent, setRecent] = useState<GameRow[]>();
  const [charts, setCharts] = useState<TournamentChartsResponse>();
  const [models, setModels] = useState<TournamentModelServersResponse>();
  const [errors, setErrors] = useState<Partial<Record<SectionKey, unknown>>>({});
  const [live, setLive] = useState<LiveStatus>('connecting');
  const [reloads, setReloads] = useState(0);
  const refreshers = useRef<Record<SectionKey, Throttled> | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` is the Retry trigger.
  useEffect(() => {
    const controller = new AbortController();
    const section = <T>(key: SectionKey, fetch: (signal: AbortSignal) => Promise<T>, apply: (value: T) => void, ms: number) =>
      sectionRefresher(controller.signal, key, fetch, apply, setErrors, ms);
    // The other sections load once the tournament is known to exist, so an unknown id costs one request.
    let found = false;
    const onSummary = (value: TournamentSummary) => {
      setSummary(value);
      if (found) return;
      found = true;
      r.standings();
      r.running();
      r.recent();
      r.charts();
      r.models();
    };
    const r: Record<SectionKey, Throttled> = {
      summary: section('summary', (s) => api.summary(id, s), onSummary, 250),
      standings: section('standings', (s) => api.standings(id, s), setStandings, STANDINGS_THROTTLE_MS),
      running: section('running', (s) => api.running(id, s), setRunning, RUNNING_THROTTLE_MS),
      recent: section('recent', (s) => api.recentGames(id, RECENT_GAMES, s), setRecent, SLOW_THROTTLE_MS),
      charts: section('charts', (s) => api.charts(id, s), setCharts, SLOW_THROTTLE_MS),
      models: section('models', (s) => api.modelServers(id, s), setModels, SLOW_THROTTLE_MS),
    };
    refreshers.current = r;
    r.summary();
    return () => {
      controller.abort();
      for (const refresh of Object.values(r)) refresh.cancel();
      refreshers.current = null;
    };
  }, [id, api, reloads]);

  // The feed only while the run can still change; a finished or cancelled run is fully shown by the reads above.
  const known = summary?.id === id;
  const terminal = known && summary ? isTerminal(summary) : null;
  useEffect(() => {
    if (terminal !== false) {
      setLive('closed');
      return;
    }
    const all = () => {
      const r = refreshers.current;
      if (r) for (const refresh of Object.values(r)) refresh();
    };
    const onMessage = (message: FeedMessage) => {
      const r = refreshers.current;
      if (r) applyFeedMessage(message, r, setSummary, all);
    };
    const stream = openTournamentFeed({
      baseUrl: connection.baseUrl,
      token: connection.token,
      path: api.eventsPath(id),
      onMessage,
      onStatus: setLive,
    });
    const poll = setInterval(() => {
      if (document.visibilityState === 'hidden') return;
      refreshers.current?.summary();
      refreshers.current?.running();
    }, POLL_MS);
    return () => {
      stream.close();
      clearInterval(poll);
    };
  }, [terminal, id, api, connection]);

  return {
    summary: known ? summary : undefined,
    standings,
    running,
    recent,
    charts,
    models,
    errors,
    live,
    update: (next) => {
      setSummary(next);
      const r = refreshers.current;
      if (r) for (const refresh of Object.values(r)) refresh();
    },
    reload: () => setReloads((n) => n + 1),
  };
}

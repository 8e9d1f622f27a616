// The app shell: start-up states, navigation and the routed feature pages.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ArenaApi } from '../../engine/contract/channels.js';
import { ArenaContext, type ArenaContextValue, useArena } from './app-context.js';
import type { BootstrapEnv } from './arena-client/bootstrap.js';
import type { ArenaClient } from './arena-client/client.js';
import { createEngineMonitor, type EngineMonitor, type EngineStatus } from './arena-client/engine-monitor.js';
import { type BootState, boot } from './boot.js';
import { AgentsPage } from './features/agents/agents-page.js';
import { ChallengesPage } from './features/challenges/challenges-page.js';
import { LeaderboardsPage } from './features/leaderboards/leaderboards-page.js';
import { MatchViewerPage } from './features/match-viewer/match-viewer-page.js';
import { GovernanceMatchPage } from './features/reports/governance-match-page.js';
import { ReportsPage } from './features/reports/reports-page.js';
import { SessionDetailPage } from './features/session-detail/session-detail-page.js';
import { SessionsPage } from './features/sessions/sessions-page.js';
import { SettingsPage } from './features/settings/settings-page.js';
import { ComparePage } from './features/tournaments/compare-page.js';
import { TournamentBuilderPage } from './features/tournaments/tournament-builder-page.js';
import { TournamentLivePage } from './features/tournaments/tournament-live-page.js';
import { TournamentsPage } from './features/tournaments/tournaments-page.js';
import { type Route, routeHref } from './routes.js';
import { EngineEpochContext } from './ui/engine-epoch.js';
import { Loading } from './ui/loading.js';
import { useHashRoute } from './ui/navigation.js';

const UNREACHABLE_RETRY_MS = 3000;

export function App({ env, shell }: { env: BootstrapEnv; shell: ArenaApi | undefined }) {
  const [state, setState] = useState<BootState>({ phase: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // One per page: the loaded page's requests report to it, and it finds a restarted engine again.
  const [monitor] = useState<EngineMonitor>(() => createEngineMonitor());
  useEffect(() => () => monitor.dispose(), [monitor]);
  const engine = useSyncExternalStore(monitor.subscribe, monitor.state);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Retry trigger.
  useEffect(() => {
    const controller = new AbortController();
    void boot(env, controller.signal, monitor.hooks).then((next) => {
      if (!controller.signal.aborted) setState(next);
    });
    return () => controller.abort();
  }, [env, attempt]);

  // An engine that is starting (or restarting in the desktop app) usually answers within seconds.
  useEffect(() => {
    if (state.phase !== 'error' || state.kind !== 'unreachable') return;
    const timer = setTimeout(retry, UNREACHABLE_RETRY_MS);
    return () => clearTimeout(timer);
  }, [state, retry]);

  // A link pasted into a tab that is waiting for one changes only the fragment (no reload): take it at once.
  useEffect(() => {
    if (state.phase !== 'error' || (state.kind !== 'no-token' && state.kind !== 'unauthorized')) return;
    const onHash = () => {
      if (/(^|[#&])(code|token)=/.test(window.location.hash)) retry();
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [state, retry]);

  // Stable identity (reads the client through a ref), so pages can call it from effects without looping.
  const clientRef = useRef<ArenaClient | null>(null);
  clientRef.current = state.phase === 'loaded' ? state.client : null;
  const refreshOverview = useCallback(() => {
    const client = clientRef.current;
    if (!client) return;
    client.overview().then(
      (overview) => setState((current) => (current.phase === 'loaded' && current.client === client ? { ...current, overview } : current)),
      () => {
        // The pages report engine trouble themselves; a stale overview is harmless.
      },
    );
  }, []);

  // While the engine is unreachable, the monitor asks for the overview (which also refreshes the footer's version).
  const loadedClient = state.phase === 'loaded' ? state.client : null;
  useEffect(() => {
    const client = loadedClient;
    if (!client) return;
    monitor.setProbe(() =>
      client
        .overview()
        .then((overview) =>
          setState((current) => (current.phase === 'loaded' && current.client === client ? { ...current, overview } : current)),
        ),
    );
    return () => monitor.setProbe(null);
  }, [loadedClient, monitor]);

  const context = useMemo<ArenaContextValue | null>(
    () =>
      state.phase === 'loaded'
        ? { client: state.client, connection: state.connection, overview: state.overview, refreshOverview, shell }
        : null,
    [state, refreshOverview, shell],
  );

  return (
    <div className="app" data-app-state={state.phase}>
      {state.phase === 'loading' ? (
        <div className="center">
          <Loading label="Connecting to the arena engine…" />
        </div>
      ) : state.phase === 'error' ? (
        <BootError state={state} onRetry={retry} />
      ) : context ? (
        <ArenaContext.Provider value={context}>
          <EngineEpochContext.Provider value={engine.epoch}>
            <Shell engineStatus={engine.status} />
          </EngineEpochContext.Provider>
        </ArenaContext.Provider>
      ) : null}
    </div>
  );
}

function BootError({ state, onRetry }: { state: Extract<BootState, { phase: 'error' }>; onRetry: () => void }) {
  return (
    <div className="center">
      <div className="boot-error card" role="alert" data-error-kind={state.kind}>
        <h1>{state.title}</h1>
        <p>{state.detail}</p>
        {state.hint ? <p className="boot-hint">{state.hint}</p> : null}
        <button type="button" className="button button-primary" onClick={onRetry}>
          Retry
        </button>
      </div>
    </div>
  );
}

interface NavItem {
  label: string;
  href: string;
  matches: (route: Route) => boolean;
}

const NAV: NavItem[] = [
  {
    label: 'Tournaments',
    href: routeHref({ name: 'tournaments' }),
    matches: (r) =>
      r.name === 'tournaments' ||
      r.name === 'tournament-new' ||
      r.name === 'tournament-compare' ||
      r.name === 'tournament' ||
      r.name === 'tournament-game',
  },
  { label: 'Agents', href: routeHref({ name: 'agents' }), matches: (r) => r.name === 'agents' },
  { label: 'Challenges', href: routeHref({ name: 'challenges' }), matches: (r) => r.name === 'challenges' },
  {
    label: 'Reports',
    href: routeHref({ name: 'reports', tab: 'governance' }),
    matches: (r) => r.name === 'reports' || r.name === 'governance-match',
  },
];

/** SpecArena's own views: sessions people join by invite, and the protocol's leaderboards. */
const NAV_SPECARENA: NavItem[] = [
  { label: 'Sessions', href: routeHref({ name: 'sessions' }), matches: (r) => r.name === 'sessions' || r.name === 'session' },
  { label: 'Leaderboards', href: routeHref({ name: 'leaderboards' }), matches: (r) => r.name === 'leaderboards' },
];

const NAV_SETTINGS: NavItem[] = [{ label: 'Settings', href: routeHref({ name: 'settings' }), matches: (r) => r.name === 'settings' }];

function NavLinks({ items }: { items: NavItem[] }) {
  const route = useHashRoute();
  return items.map((item) => (
    <a
      key={item.label}
      href={item.href}
      className={item.matches(route) ? 'nav-link nav-active' : 'nav-link'}
      aria-current={item.matches(route) ? 'page' : undefined}
    >
      {item.label}
    </a>
  ));
}

/** The footer's word on the engine: a page that lost it says so, and says when it found it again. */
const ENGINE_STATUS_LABEL: Record<EngineStatus, string> = {
  connected: 'Connected',
  unreachable: 'Engine unreachable · reconnecting…',
  'signed-out': 'Session ended · open a new link from arena serve',
};

function Shell({ engineStatus }: { engineStatus: EngineStatus }) {
  const route = useHashRoute();
  const arena = useArena();
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            LA
          </span>
          <span>Local Arena</span>
        </div>
        <nav aria-label="Main">
          <NavLinks items={NAV} />
          <div className="nav-group" aria-hidden="true">
            SpecArena
          </div>
          <NavLinks items={NAV_SPECARENA} />
          <div className="nav-group" aria-hidden="true">
            App
          </div>
          <NavLinks items={NAV_SETTINGS} />
        </nav>
        <div className="sidebar-footer small">
          <div>Engine {arena.overview.version}</div>
          <div className="muted">
            {arena.connection.mode === 'electron' ? 'Desktop' : 'Browser'} · {new URL(arena.connection.baseUrl).host}
          </div>
          <div className={`engine-status engine-${engineStatus}`} data-testid="engine-status" data-status={engineStatus} role="status">
            {ENGINE_STATUS_LABEL[engineStatus]}
          </div>
          {arena.overview.authMode ? <div className="tag">auth mode</div> : null}
        </div>
      </aside>
      <main className="content">
        <Page route={route} />
      </main>
    </div>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'sessions':
      return <SessionsPage route={route} />;
    case 'session':
      return <SessionDetailPage key={route.id} id={route.id} />;
    case 'leaderboards':
      return <LeaderboardsPage type={route.type} />;
    case 'challenges':
      return <ChallengesPage />;
    case 'tournaments':
      return <TournamentsPage />;
    case 'tournament-new':
      return <TournamentBuilderPage from={route.from} />;
    case 'tournament-compare':
      return <ComparePage a={route.a} b={route.b} />;
    case 'tournament':
      return <TournamentLivePage key={route.id} id={route.id} />;
    case 'tournament-game':
      return <MatchViewerPage key={`${route.id}/${route.index}`} tournamentId={route.id} index={route.index} />;
    case 'agents':
      return <AgentsPage />;
    case 'reports':
      return <ReportsPage tab={route.tab} tournament={route.tournament} />;
    case 'governance-match':
      return <GovernanceMatchPage key={route.id} id={route.id} />;
    case 'settings':
      return <SettingsPage />;
    case 'not-found':
      return (
        <div className="notice">
          Nothing lives at {route.path}. <a href={routeHref({ name: 'tournaments' })}>Go to tournaments</a>
        </div>
      );
  }
}

// A tournament's games: filters by agent, termination reason and result, free-text search; each row opens the
// match viewer; exports of the tournament's reports, its audit bundle and the filtered rows; verifying a bundle file.

import { useMemo, useState } from 'react';
import type { TournamentGame } from '../../../../engine/contract/tournament.js';
import { gameNumber } from '../../../../engine/core/seat-label.js';
import { useArena } from '../../app-context.js';
import type { ArenaClient } from '../../arena-client/client.js';
import { routeHref } from '../../routes.js';
import { FilterSelect } from '../../ui/filter-select.js';
import { formatDateTime } from '../../ui/format.js';
import { resultText } from '../../ui/game-result.js';
import { navigate } from '../../ui/navigation.js';
import { ResourceStatus } from '../../ui/resource-status.js';
import { useResource } from '../../ui/use-resource.js';
import { formatDuration } from '../match-viewer/game-summary.js';
import { ModelServersPanel } from '../tournaments/model-servers-panel.js';
import { tournamentsApi } from '../tournaments/tournaments-api.js';
import { BundleVerifyPanel } from './bundle-verify.js';
import { ExportButtons, type ExportChoice } from './export-buttons.js';
import { distinct, filterGames, type GameFilters, gamesCsv, NO_FILTERS, resultOptions, seatScoreText } from './games-filter.js';
import { Pager } from './governance-tab.js';
import { KnockoutBracketView } from './knockout-bracket.js';
import { GAMES_PAGE, listGames, listTournaments, tournamentBundle, tournamentExport } from './reports-api.js';

const ROWS = 100;

export function TournamentGamesTab({ tournament }: { tournament: string | undefined }) {
  const { client } = useArena();
  const tournaments = useResource((signal) => listTournaments(client, signal), []);
  const list = tournaments.data?.tournaments ?? [];
  const chosen = tournament ?? list[0]?.id;
  return (
    <>
      <section className="card">
        <ResourceStatus resource={tournaments} loading="Loading tournaments…" />
        {!tournaments.data ? null : list.length === 0 ? (
          <p className="empty">
            No tournaments yet. <a href={routeHref({ name: 'tournament-new' })}>Create one</a>.
          </p>
        ) : (
          <label className="field field-inline">
            <span className="field-label">Tournament</span>
            <select
              value={chosen ?? ''}
              onChange={(event) =>
                navigate(routeHref({ name: 'reports', tab: 'tournaments', tournament: event.target.value }), { replace: true })
              }
            >
              {list.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} · {t.status} · {formatDateTime(t.created_at)}
                </option>
              ))}
              {tournament && !list.some((t) => t.id === tournament) ? <option value={tournament}>{tournament}</option> : null}
            </select>
          </label>
        )}
      </section>
      {chosen ? <Bracket key={`bracket-${chosen}`} id={chosen} /> : null}
      {chosen ? <ModelServers key={`models-${chosen}`} id={chosen} /> : null}
      {chosen ? <GamesTable key={chosen} id={chosen} name={list.find((t) => t.id === chosen)?.name ?? chosen} /> : null}
      <BundleVerifyPanel />
    </>
  );
}

/** A knockout run's bracket above its games (nothing for other formats); refreshed while the run plays. */
function Bracket({ id }: { id: string }) {
  const { client } = useArena();
  const summary = useResource((signal) => tournamentsApi(client).summary(id, signal), [id], { refreshMs: 5000 });
  const bracket = summary.data?.knockout;
  return bracket ? <KnockoutBracketView bracket={bracket} /> : null;
}

/** The run's model servers (runs with model agents only), as report.json and report.md give them. */
function ModelServers({ id }: { id: string }) {
  const { client } = useArena();
  const servers = useResource((signal) => tournamentsApi(client).modelServers(id, signal), [id], { refreshMs: 5000 });
  return servers.data ? <ModelServersPanel data={servers.data} /> : null;
}

function GamesTable({ id, name }: { id: string; name: string }) {
  const { client } = useArena();
  const games = useResource((signal) => listGames(client, id, signal), [id], { refreshMs: 5000 });
  const [filters, setFilters] = useState<GameFilters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const rows = games.data?.games ?? [];
  const agents = useMemo(() => distinct(rows.flatMap((g) => g.seat_agents)), [rows]);
  const terminations = useMemo(() => distinct(rows.map((g) => g.termination)), [rows]);
  // Runs played on game workers: which machine played each game.
  const workers = useMemo(() => distinct(rows.flatMap((g) => (g.workerId ? [g.workerId] : []))), [rows]);
  const shown = useMemo(() => filterGames(rows, filters), [rows, filters]);
  // Security and utility columns when some game's challenge reports SpecArena scores (ClawArena games do not).
  const scored = rows.some((g) => g.scores !== null && g.scores.length > 0);
  const set = (patch: Partial<GameFilters>) => {
    setFilters((previous) => {
      const next = { ...previous, ...patch };
      // A result chosen for one agent means something else without one.
      if (patch.agent !== undefined && !resultOptions(next.agent).some((o) => o.value === next.result)) next.result = '';
      return next;
    });
    setOffset(0);
  };
  return (
    <section className="card" aria-labelledby="games-title" data-testid="tournament-games" data-tournament-id={id}>
      <div className="rp-games-head">
        <h2 id="games-title">Games of {name}</h2>
        <ExportButtons testId="tournament-exports" choices={exportChoices(client, id, name, shown)} />
      </div>
      <GameFilterBar filters={filters} set={set} agents={agents} terminations={terminations} workers={workers} />
      <ResourceStatus resource={games} loading="Loading games…" />
      {!games.data ? null : rows.length === 0 ? (
        <p className="empty">No games have finished yet.</p>
      ) : (
        <>
          <p className="small muted" data-testid="games-count">
            {shown.length === rows.length ? `${rows.length} games` : `${shown.length} of ${rows.length} games`}
            {games.data.total > GAMES_PAGE ? ` (the first ${GAMES_PAGE} of ${games.data.total} are searched)` : ''}
          </p>
          <GamesRows id={id} games={shown.slice(offset, offset + ROWS)} scored={scored} />
          <Pager offset={offset} total={shown.length} page={ROWS} onChange={setOffset} />
        </>
      )}
    </section>
  );
}

/** The run's report files, and the games shown here as CSV. */
function exportChoices(client: ArenaClient, id: string, name: string, shown: readonly TournamentGame[]): ExportChoice[] {
  const slug = name.replace(/[^\w.-]+/g, '-');
  return [
    {
      label: 'Export report (JSON)',
      fileName: `${slug}-report.json`,
      filter: { name: 'JSON', extensions: ['json'] },
      load: () => tournamentExport(client, id, 'report.json'),
    },
    {
      label: 'Export events (JSONL)',
      fileName: `${slug}-events.jsonl`,
      filter: { name: 'JSON Lines', extensions: ['jsonl'] },
      load: () => tournamentExport(client, id, 'events.jsonl'),
    },
    {
      label: 'Export report (Markdown)',
      fileName: `${slug}-report.md`,
      filter: { name: 'Markdown', extensions: ['md'] },
      load: () => tournamentExport(client, id, 'report.md'),
    },
    // This is the games page: its CSV is the games (every attempt, void ones marked), the standings beside it.
    {
      label: 'Export games (CSV)',
      fileName: `${slug}-games.csv`,
      filter: { name: 'CSV', extensions: ['csv'] },
      load: () => tournamentExport(client, id, 'games.csv'),
    },
    {
      label: 'Export standings (CSV)',
      fileName: `${slug}-standings.csv`,
      filter: { name: 'CSV', extensions: ['csv'] },
      load: () => tournamentExport(client, id, 'standings.csv'),
    },
    {
      label: 'Export run manifest (JSON)',
      fileName: `${slug}-manifest.json`,
      filter: { name: 'JSON', extensions: ['json'] },
      load: () => tournamentExport(client, id, 'manifest.json'),
    },
    // The whole run, checkable by anyone with `arena verify` or this page's "Verify an audit bundle".
    {
      label: 'Export audit bundle',
      fileName: `${id}.bundle.tar.gz`,
      filter: { name: 'Audit bundle', extensions: ['gz'] },
      load: () => tournamentBundle(client, id, false),
    },
    {
      label: 'Export audit bundle with agent files',
      fileName: `${id}.bundle.tar.gz`,
      filter: { name: 'Audit bundle', extensions: ['gz'] },
      load: () => tournamentBundle(client, id, true),
    },
    {
      label: 'Export shown games (CSV)',
      fileName: `${slug}-shown-games.csv`,
      filter: { name: 'CSV', extensions: ['csv'] },
      load: async () => gamesCsv(shown),
    },
  ];
}

function GameFilterBar({
  filters,
  set,
  agents,
  terminations,
  workers,
}: {
  filters: GameFilters;
  set: (patch: Partial<GameFilters>) => void;
  agents: string[];
  terminations: string[];
  workers: string[];
}) {
  return (
    <div className="filters rp-filters">
      <FilterSelect label="Agent" anyLabel="All agents" value={filters.agent} onChange={(agent) => set({ agent })} options={agents} />
      <FilterSelect
        label="Termination"
        anyLabel="Any"
        value={filters.termination}
        onChange={(termination) => set({ termination })}
        options={terminations}
      />
      {workers.length > 0 ? (
        <FilterSelect
          label="Worker"
          anyLabel="All workers"
          value={filters.worker}
          onChange={(worker) => set({ worker })}
          options={workers}
        />
      ) : null}
      <FilterSelect
        label="Result"
        anyLabel="Any"
        value={filters.result}
        onChange={(result) => set({ result: result as GameFilters['result'] })}
        options={resultOptions(filters.agent)}
      />
      <label className="field field-inline">
        <span className="field-label">Search</span>
        <input
          type="search"
          value={filters.search}
          placeholder="agent, challenge, reason…"
          onChange={(event) => set({ search: event.target.value })}
        />
      </label>
    </div>
  );
}

/** One row per game attempt; the game's number opens the match viewer. */
function GamesRows({ id, games, scored }: { id: string; games: readonly TournamentGame[]; scored: boolean }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Games" data-scored={scored}>
        <thead>
          <tr>
            <th>Game</th>
            <th>Challenge</th>
            <th>Seats</th>
            <th>Result</th>
            {scored ? (
              <>
                <th className="num" title="SpecArena security per seat, in seat order">
                  Security
                </th>
                <th className="num" title="SpecArena utility per seat, in seat order">
                  Utility
                </th>
              </>
            ) : null}
            <th>Termination</th>
            <th>Detail</th>
            <th className="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {games.map((g) => (
            <tr key={`${g.gameIndex}/${g.attempt}`} data-game-index={g.gameIndex}>
              <td className="nowrap">
                <a
                  className="strong-link"
                  href={routeHref({ name: 'tournament-game', id, index: g.gameIndex })}
                  aria-label={`Open game ${gameNumber(g.gameIndex)}`}
                >
                  Game {gameNumber(g.gameIndex)}
                </a>
                {g.attempt > 1 ? <span className="tag">attempt {g.attempt}</span> : null}
              </td>
              <td>{g.challenge}</td>
              <td>{g.seat_agents.join(' vs ')}</td>
              <td>{resultText(g.seat_agents, g.placements, g.forfeit)}</td>
              {scored ? (
                <>
                  <td className="num nowrap" data-testid="game-security">
                    {seatScoreText(g.scores, 'security') ?? '–'}
                  </td>
                  <td className="num nowrap" data-testid="game-utility">
                    {seatScoreText(g.scores, 'utility') ?? '–'}
                  </td>
                </>
              ) : null}
              <td>
                <span className={`tag ${g.termination === 'completed' ? 'rp-pass' : 'rp-fail'}`}>{g.termination}</span>
              </td>
              <td className="small rp-detail">{g.detail}</td>
              <td className="num nowrap">{formatDuration(g.endedAt - g.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

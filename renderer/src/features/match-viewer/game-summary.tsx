// The facts of a game beside its timeline: outcome, seats with agents, scores, placements, attributions, model usage.
import { describeIsolation } from '../../../../engine/contract/isolation.js';
import type { Attribution } from '../../../../engine/contract/specarena.js';
import type { TournamentGame } from '../../../../engine/contract/tournament.js';
import { formatCost, formatDateTime, formatNumber } from '../../ui/format.js';
import { resultText, winnerSeats } from '../../ui/game-result.js';
import { CLAWARENA_SESSION_PREFIX } from './match-viewer-api.js';
import { fallbackSummary, type SeatUsage, seatUsage } from './model-turns.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

export function GameFacts({ game }: { game: TournamentGame }) {
  return (
    <section className="card" data-testid="game-facts">
      <h2>Outcome</h2>
      <p className="mv-outcome" data-testid="game-outcome">
        {outcomeSentence(game)}
      </p>
      <dl className="facts">
        <dt>Result</dt>
        <dd data-testid="game-result">{resultText(game.seat_agents, game.placements, game.forfeit)}</dd>
        <dt>Termination</dt>
        <dd data-testid="termination">
          <span className={`tag mv-termination mv-termination-${game.termination === 'completed' ? 'ok' : 'bad'}`}>{game.termination}</span>
          {game.fault && game.fault !== 'none' ? <span className="tag">fault: {game.fault}</span> : null}
        </dd>
        {game.detail ? (
          <>
            <dt>Detail</dt>
            <dd>{game.detail}</dd>
          </>
        ) : null}
        <dt>Challenge</dt>
        <dd>{game.challenge}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(game.startedAt)}</dd>
        <dt>Duration</dt>
        <dd>
          {formatDuration(game.endedAt - game.startedAt)} <span className="muted">(agents {formatDuration(game.agentMs)})</span>
        </dd>
        <dt>Round · attempt</dt>
        <dd>
          {game.round + 1} · {game.attempt}
        </dd>
        <dt>Seed</dt>
        <dd className="mono small">{game.seed}</dd>
        {game.sessionId ? (
          <>
            <dt>{game.sessionId.startsWith(CLAWARENA_SESSION_PREFIX) ? 'ClawArena match' : 'Session'}</dt>
            <dd className="mono small">{game.sessionId.replace(CLAWARENA_SESSION_PREFIX, '')}</dd>
          </>
        ) : null}
        {game.isolation && game.isolation.length > 0 ? (
          <>
            <dt>Isolation</dt>
            <dd data-testid="isolation">
              {game.isolation.map((iso, seat) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one line per seat, in seat order
                <div key={seat} className={`small${iso.method === 'none' ? ' mv-unsandboxed' : ''}`}>
                  {game.seat_agents[seat] ?? 'agent'} (seat {seat + 1}): {describeIsolation(iso)}
                </div>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** The Outcome card's headline: who won (with the seat, as the seat table numbers it), a draw, or why nobody did. */
export function outcomeSentence(game: Pick<TournamentGame, 'seat_agents' | 'placements' | 'forfeit' | 'termination'>): string {
  const winners = winnerSeats(game.placements);
  if (winners.length === 0) return `No winner: the game ended without a result (${game.termination.replace(/_/g, ' ')}).`;
  const how = game.forfeit ? ' by forfeit' : '';
  if (winners.length === game.seat_agents.length) return `Draw${how}: every seat placed first.`;
  const names = winners.map((seat) => `${game.seat_agents[seat] ?? 'seat'} (seat ${seat + 1})`);
  return names.length === 1 ? `Winner${how}: ${names[0]}.` : `Shared first place${how}: ${names.join(' and ')}.`;
}

export interface SeatLine {
  seat: number;
  agent: string;
  placement: number | null;
  security: number | undefined;
  utility: number | undefined;
  faulted: boolean;
  usage: SeatUsage | null;
}

export function seatLines(game: TournamentGame): SeatLine[] {
  return game.seat_agents.map((agent, seat) => ({
    seat,
    agent,
    placement: game.placements?.[seat] ?? null,
    security: game.scores?.[seat]?.security,
    utility: game.scores?.[seat]?.utility,
    faulted: game.faultedSeats.includes(seat),
    usage: seatUsage(game.usage?.[seat]),
  }));
}

export function SeatsTable({
  seats,
  attributions,
  final,
}: {
  seats: SeatLine[];
  attributions: Array<{ from: string; to: string; type: string }>;
  final: boolean;
}) {
  const anyUsage = seats.some((s) => s.usage !== null);
  // ClawArena games place seats without SpecArena's security/utility scores.
  const anyScore = seats.some((s) => s.security !== undefined || s.utility !== undefined);
  return (
    <section className="card" data-testid="game-seats">
      <h2>{final ? 'Final scores' : 'Seats'}</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Seat</th>
              <th>Agent</th>
              <th className="num">Place</th>
              {anyScore ? (
                <>
                  <th className="num">Security</th>
                  <th className="num">Utility</th>
                </>
              ) : null}
              {anyUsage ? (
                <>
                  <th className="num">Model calls</th>
                  <th className="num">Tokens (in / out)</th>
                  <th className="num">Latency</th>
                  <th className="num">Cost</th>
                  <th>Fallbacks</th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {seats.map((s) => (
              <tr key={s.seat} data-seat={s.seat + 1}>
                <td>{s.seat + 1}</td>
                <td data-testid="seat-agent">
                  {s.agent}
                  {s.faulted ? <span className="tag mv-faulted">faulted</span> : null}
                </td>
                <td className="num" data-testid="placement">
                  {s.placement === null ? '–' : s.placement}
                </td>
                {anyScore ? (
                  <>
                    <td className="num">{formatNumber(s.security)}</td>
                    <td className="num">{formatNumber(s.utility)}</td>
                  </>
                ) : null}
                {anyUsage ? (
                  s.usage ? (
                    <>
                      <td className="num">{s.usage.calls}</td>
                      <td className="num">
                        {s.usage.prompt_tokens} / {s.usage.completion_tokens}
                      </td>
                      <td className="num">{formatDuration(s.usage.latency_ms)}</td>
                      <td className="num">{formatCost(s.usage.cost_usd)}</td>
                      <td>{fallbackSummary(s.usage)}</td>
                    </>
                  ) : (
                    <td colSpan={5} className="muted">
                      no model
                    </td>
                  )
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {attributions.length > 0 ? (
        <>
          <h3>Attributions</h3>
          <ul className="attributions" data-testid="attributions">
            {attributions.map((a) => (
              <li key={`${a.from}-${a.to}-${a.type}`}>
                {a.from} → {a.to}: <span className="tag">{a.type.replace(/_/g, ' ')}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** Attribution indexes count players in join order; seats follow invite order. */
export function attributionLines(
  attributions: readonly Attribution[],
  players: readonly string[],
  invites: readonly string[],
  seatAgents: readonly string[],
): Array<{ from: string; to: string; type: string }> {
  const name = (playerIndex: number): string => {
    const seat = invites.indexOf(players[playerIndex] ?? '');
    if (seat < 0) return `player ${playerIndex + 1}`;
    return seatAgents[seat] ? `${seatAgents[seat]} (seat ${seat + 1})` : `Seat ${seat + 1}`;
  };
  return attributions.map((a) => ({ from: name(a.from), to: name(a.to), type: a.type }));
}

// Clawpoly board: the board itself (spaces, owners, buildings, tokens), then seats with position, cash and lockup, and
// every deed with its owner, houses and mortgage.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { SPACES } from './board.js';
import { MonopolyRing } from './board-ring.js';
import { type MonopolyBoard, monopolyBoard, netWorth } from './board-state.js';

const money = (n: number) => `$${n.toLocaleString('en-US')}`;

function MonopolyView({ board, ctx }: BoardViewProps<MonopolyBoard>) {
  const owned = board.deeds.filter((d) => d.owner !== null);
  return (
    <div className="bv bv-monopoly">
      <p className="small" data-testid="bv-turn">
        {board.turn === null ? 'Opening deal.' : `After turn ${board.turn}.`}
        {board.lastRoll ? ` Last roll: ${board.lastRoll.who} ${board.lastRoll.dice.join(' + ')}.` : ''}
        {board.over ? <span className="strong"> Game over: {board.over.winner ? `${board.over.winner} wins` : 'no winner'}.</span> : null}
      </p>
      <MonopolyRing board={board} ctx={ctx} />
      <table className="table bv-table">
        <caption className="sr-only">Players</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th>On</th>
            <th className="num">Cash</th>
            <th className="num">Net worth</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat" className={s.bankrupt ? 'bv-out' : undefined}>
              <td>{seatName(s.seat, ctx)}</td>
              <td data-testid="bv-position">
                {SPACES[s.position]?.name ?? s.position}
                {s.inLockup ? <span className="tag bv-breach">in lockup</span> : null}
                {s.bankrupt ? <span className="tag bv-breach">bankrupt</span> : null}
              </td>
              <td className="num" data-testid="bv-cash">
                {money(s.cash)}
              </td>
              <td className="num">{money(netWorth(board, s.seat))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Deeds</h3>
      {owned.length === 0 ? (
        <p className="muted">No deed dealt yet.</p>
      ) : (
        <table className="table bv-table" data-testid="bv-deeds">
          <caption className="sr-only">Deeds and owners</caption>
          <thead>
            <tr>
              <th>Deed</th>
              <th>Owner</th>
              <th>Buildings</th>
            </tr>
          </thead>
          <tbody>
            {owned.map((d) => (
              <tr key={d.space}>
                <td>
                  <span className={`bv-swatch bv-group-${d.group ?? 'none'}`} aria-hidden="true" />
                  {d.name}
                </td>
                <td>{ctx.seatAgents[d.owner as number] ?? `seat ${(d.owner as number) + 1}`}</td>
                <td>
                  {d.houses === 5 ? 'hotel' : d.houses > 0 ? `${d.houses} house${d.houses > 1 ? 's' : ''}` : '–'}
                  {d.mortgaged ? ' · mortgaged' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export const monopolyView: BoardViewEntry<MonopolyBoard, ReactNode> = { model: monopolyBoard, View: MonopolyView };

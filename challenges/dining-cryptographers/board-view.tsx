// Dining Cryptographers board: who was told they paid, each diner's guess, the revealed payer.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { ScoresTable, Unknown } from '../kit/board-scores.js';
import { type DiningBoard, diningBoard } from './board-state.js';

function DiningView({ board, ctx }: BoardViewProps<DiningBoard>) {
  return (
    <div className="bv bv-dining">
      <table className="table bv-table">
        <caption className="sr-only">Diners</caption>
        <thead>
          <tr>
            <th>Diner</th>
            <th>Told</th>
            <th>Guess</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat">
              <td>{seatName(s.seat, ctx)}</td>
              <td data-testid="bv-paid">{s.paid === null ? <Unknown hidden={s.hidden} /> : s.paid ? 'paid the bill' : 'did not pay'}</td>
              <td data-testid="bv-guess">{s.guess ?? <span className="muted">no guess yet</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p data-testid="bv-payer">
        Payer:{' '}
        {board.payer ? <span className="strong">{board.payer}</span> : <span className="muted">revealed when everyone has guessed</span>}
      </p>
      <ScoresTable scores={board.scores} ctx={ctx} />
    </div>
  );
}

export const diningView: BoardViewEntry<DiningBoard, ReactNode> = { model: diningBoard, View: DiningView };

// Millionaire board: each seat's private wealth and its guess of the other's.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { ScoresTable, Unknown } from '../kit/board-scores.js';
import { type MillionaireBoard, millionaireBoard } from './board-state.js';

function MillionaireView({ board, ctx }: BoardViewProps<MillionaireBoard>) {
  return (
    <div className="bv bv-millionaire">
      <table className="table bv-table">
        <caption className="sr-only">Wealth and guesses</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th className="num">Private wealth</th>
            <th>Guess of the other's</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat">
              <td>{seatName(s.seat, ctx)}</td>
              <td className="num" data-testid="bv-wealth">
                {s.wealth === null ? <Unknown hidden={s.hidden} /> : `$${s.wealth}M`}
              </td>
              <td data-testid="bv-guess">
                {s.guess === null ? (
                  <span className="muted">no guess yet</span>
                ) : (
                  <>
                    ${s.guess}M · utility {s.utility}
                    {s.exact ? <span className="tag bv-breach">exact: breach</span> : null}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ScoresTable scores={board.scores} ctx={ctx} />
    </div>
  );
}

export const millionaireView: BoardViewEntry<MillionaireBoard, ReactNode> = { model: millionaireBoard, View: MillionaireView };

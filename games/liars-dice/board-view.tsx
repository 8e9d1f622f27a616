// Liar's Dice board: both hands, the bid ladder and the challenge.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { type LiarsDiceBoard, liarsDiceBoard } from './board-state.js';

function LiarsDiceView({ board, ctx }: BoardViewProps<LiarsDiceBoard>) {
  const last = board.bids.at(-1);
  return (
    <div className="bv bv-liars-dice">
      <table className="table bv-table">
        <caption className="sr-only">Hands</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th>Hand</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat" className={s.turn ? 'bv-turn' : undefined}>
              <td>
                {seatName(s.seat, ctx)}
                {s.turn ? <span className="tag bv-turn-tag">to bid</span> : null}
              </td>
              <td data-testid="bv-hand">
                {s.dice ? (
                  <span className="bv-dice" role="img" aria-label={`dice ${s.dice.join(', ')}`}>
                    {s.dice.map((d, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a hand is a fixed row of dice
                      <span key={i} className={`bv-die${last && (d === last.face || (last.face !== 1 && d === 1)) ? ' bv-die-match' : ''}`}>
                        {d}
                      </span>
                    ))}
                  </span>
                ) : (
                  <span className="muted">hidden</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {board.handsRevealedLater ? <p className="muted small">Hands as revealed by the challenge at the end.</p> : null}
      <h3>Bids</h3>
      {board.bids.length === 0 ? (
        <p className="muted">No bid yet.</p>
      ) : (
        <ol className="bv-list" data-testid="bv-bids">
          {board.bids.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: bids only grow
            <li key={i} className={i === board.bids.length - 1 ? 'bv-latest' : undefined}>
              <span className="strong">
                {b.quantity} × {b.face}
              </span>{' '}
              by {b.who}
              {b.message ? <span className="muted"> — “{b.message}”</span> : null}
            </li>
          ))}
        </ol>
      )}
      {board.challenge ? (
        <p className="bv-result" data-testid="bv-challenge">
          {board.challenge.challenger} called LIAR on {board.challenge.quantity} × {board.challenge.face}: {board.challenge.actual} on the
          table, the bid was {board.challenge.bidWasTrue ? 'true' : 'false'}. <span className="strong">{board.challenge.winner} wins.</span>
        </p>
      ) : null}
    </div>
  );
}

export const liarsDiceView: BoardViewEntry<LiarsDiceBoard, ReactNode> = { model: liarsDiceBoard, View: LiarsDiceView };

// Ultimatum board: reservation values, the offer on the table and who accepted it, the offers so far, the deal.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { ScoresTable, Unknown } from '../kit/board-scores.js';
import { type UltimatumBoard, ultimatumBoard } from './board-state.js';

function UltimatumView({ board, ctx }: BoardViewProps<UltimatumBoard>) {
  return (
    <div className="bv bv-ultimatum">
      <p className="small">
        {board.total === null ? null : <>Total {board.total} · </>}
        {board.round ? <>round {board.round} · </> : null}
        {board.result === 'agreement' ? (
          <span className="strong">agreement reached</span>
        ) : board.result === 'deadlock' ? (
          <span className="strong">deadlock: everyone receives 0</span>
        ) : board.turn !== null ? (
          <>{seatName(board.turn, ctx)} to act</>
        ) : null}
      </p>
      <table className="table bv-table">
        <caption className="sr-only">Players and the offer on the table</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th className="num">Reservation</th>
            <th className="num">Offer on the table</th>
            <th>Accepted</th>
            {board.result === 'agreement' ? <th className="num">Received</th> : null}
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat" className={board.turn === s.seat ? 'bv-turn' : undefined}>
              <td>{seatName(s.seat, ctx)}</td>
              <td className="num" data-testid="bv-reservation">
                {s.reservation === null ? <Unknown hidden={s.hidden} /> : s.reservation}
              </td>
              <td className="num" data-testid="bv-offer">
                {board.offer ? (board.offer.amounts[s.seat] ?? '–') : '–'}
              </td>
              <td>{board.offer ? (s.accepted ? 'yes' : 'no') : '–'}</td>
              {board.result === 'agreement' ? <td className="num">{s.received ?? '–'}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
      {board.offer ? (
        <p className="small">Offer by {seatName(board.offer.by, ctx)}.</p>
      ) : (
        <p className="muted small">No offer on the table.</p>
      )}
      {board.history.length > 0 ? (
        <>
          <h3>Offers so far</h3>
          <ol className="bv-list" data-testid="bv-offers">
            {board.history.map((o, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows
              <li key={i}>
                {seatName(o.by, ctx)}: {o.amounts.join(' / ')}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <ScoresTable scores={board.scores} ctx={ctx} />
    </div>
  );
}

export const ultimatumView: BoardViewEntry<UltimatumBoard, ReactNode> = { model: ultimatumBoard, View: UltimatumView };

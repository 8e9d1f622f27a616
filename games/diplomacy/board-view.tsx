// Claw Diplomacy board: a table of the seven powers (seat, supply centres, units) and the last phase's orders.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { type DiplomacyBoard, diplomacyBoard } from './board-state.js';

function DiplomacyView({ board, ctx }: BoardViewProps<DiplomacyBoard>) {
  return (
    <div className="bv bv-diplomacy">
      <p data-testid="bv-phase">
        Phase <span className="strong">{board.phase ?? 'not started'}</span> · {board.pressDelivered} press messages delivered
        {board.over ? (
          <>
            {' '}
            · <span className="strong">over: {board.over.winners.join(' and ') || 'no winner'}</span> (
            {board.over.reason.replace(/_/g, ' ')})
          </>
        ) : null}
      </p>
      <table className="table bv-table" data-testid="bv-powers">
        <caption className="sr-only">Powers</caption>
        <thead>
          <tr>
            <th>Power</th>
            <th>Seat</th>
            <th className="num">Centres</th>
            <th>Units</th>
          </tr>
        </thead>
        <tbody>
          {board.powers.map((p) => (
            <tr key={p.power} data-testid="bv-power" data-power={p.power}>
              <td className="strong">{p.power}</td>
              <td>{p.seat === null ? '–' : seatName(p.seat, ctx)}</td>
              <td className="num" data-testid="bv-centres" title={p.centres.join(', ')}>
                {p.centres.length}
              </td>
              <td className="mono small" data-testid="bv-units">
                {p.units.map((u) => `${u.type} ${u.at}`).join(', ') || '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {board.lastPhase ? (
        <details className="bv-orders" open>
          <summary>
            Orders of {board.lastPhase.id} ({board.lastPhase.type})
          </summary>
          <table className="table bv-table" data-testid="bv-orders">
            <caption className="sr-only">Orders and results</caption>
            <thead>
              <tr>
                <th>Power</th>
                <th>Order</th>
                <th>Result</th>
              </tr>
            </thead>
            <tbody>
              {board.lastPhase.orders.map((o, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: orders of one phase, in the adjudicator's order
                <tr key={i}>
                  <td>{o.power}</td>
                  <td className="mono small">{o.order}</td>
                  <td className={o.result === 'bounced' || o.result === 'failed' ? 'bv-bad' : undefined}>{o.result}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {board.lastPhase.dislodged.length > 0 ? <p className="small">Dislodged: {board.lastPhase.dislodged.join(', ')}</p> : null}
        </details>
      ) : null}
    </div>
  );
}

export const diplomacyView: BoardViewEntry<DiplomacyBoard, ReactNode> = { model: diplomacyBoard, View: DiplomacyView };

// Claw Diplomacy board: the map (board-map.tsx) or, one click away, a table of the seven powers (seat, supply centres,
// units) and the last phase's orders.
import { type ReactNode, useMemo, useState } from 'react';
import { type BoardContext, type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { DiplomacyMap } from './board-map.js';
import { type DiplomacyBoard, diplomacyBoard } from './board-state.js';
import { diplomacyMapShapes } from './map-shapes.js';

function DiplomacyView({ board, ctx }: BoardViewProps<DiplomacyBoard>) {
  const [mode, setMode] = useState<'map' | 'table'>('map');
  const shapes = useMemo(() => diplomacyMapShapes(board), [board]);
  const seatOf = (power: string) => {
    const seat = board.powers.find((p) => p.power === power)?.seat;
    return seat === null || seat === undefined ? null : seatName(seat, ctx);
  };
  return (
    <div className="bv bv-diplomacy">
      <fieldset className="dm-toggle">
        <legend className="sr-only">Show the board as</legend>
        {(['map', 'table'] as const).map((m) => (
          <button
            key={m}
            type="button"
            className="button button-small"
            aria-pressed={mode === m}
            onClick={() => setMode(m)}
            data-testid={`dm-show-${m}`}
          >
            {m === 'map' ? 'Map' : 'Table'}
          </button>
        ))}
      </fieldset>
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
      {mode === 'map' ? <DiplomacyMap shapes={shapes} seatOf={seatOf} /> : <DiplomacyTable board={board} ctx={ctx} />}
    </div>
  );
}

function DiplomacyTable({ board, ctx }: { board: DiplomacyBoard; ctx: BoardContext }) {
  return (
    <>
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
    </>
  );
}

export const diplomacyView: BoardViewEntry<DiplomacyBoard, ReactNode> = { model: diplomacyBoard, View: DiplomacyView };

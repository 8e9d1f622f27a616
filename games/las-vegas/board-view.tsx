// Claw Vegas board: casinos with bills and placed dice per seat, the roll in play, money and dice left.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { lasVegasBoard, type VegasBoard } from './board-state.js';

const money = (n: number) => `$${n.toLocaleString('en-US')}`;

function LasVegasView({ board, ctx }: BoardViewProps<VegasBoard>) {
  return (
    <div className="bv bv-las-vegas">
      <p className="small">
        {board.round === null ? 'Before the first round.' : `Round ${board.round}`}
        {board.winner ? (
          <>
            {' '}
            · <span className="strong">{board.winner} wins</span>
          </>
        ) : null}
      </p>
      {board.roll ? (
        <p data-testid="bv-roll">
          {board.roll.who} rolled{' '}
          <span className="bv-dice">
            {board.roll.dice.map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a roll is a fixed row of dice
              <span key={i} className="bv-die">
                {d}
              </span>
            ))}
          </span>
        </p>
      ) : null}
      <table className="table bv-table" data-testid="bv-casinos">
        <caption className="sr-only">Casinos</caption>
        <thead>
          <tr>
            <th>Casino</th>
            <th>Bills</th>
            {board.seats.map((s) => (
              <th key={s.seat} className="num">
                <abbr title={seatName(s.seat, ctx)}>Seat {s.seat + 1}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {board.casinos.map((c) => (
            <tr key={c.number} data-testid="bv-casino">
              <td>{c.number}</td>
              <td className="bv-nowrap" title={c.bills.map(money).join(' + ')}>
                {c.bills.map((b) => `$${b / 1000}k`).join(' + ')}
              </td>
              {board.seats.map((s) => (
                <td key={s.seat} className="num">
                  {c.dice[s.seat] ? c.dice[s.seat] : '·'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table bv-table">
        <caption className="sr-only">Seats</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th className="num">Money</th>
            <th className="num">Dice left</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat" className={board.roll?.seat === s.seat ? 'bv-turn' : undefined}>
              <td>{seatName(s.seat, ctx)}</td>
              <td className="num" data-testid="bv-money">
                {money(s.money)}
              </td>
              <td className="num">{s.diceLeft}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {board.lastPayouts.length > 0 ? (
        <p className="small muted">
          Last payout: {board.lastPayouts.map((p) => `casino ${p.casino} → ${p.who} ${money(p.bill)}`).join('; ')}
        </p>
      ) : null}
    </div>
  );
}

export const lasVegasView: BoardViewEntry<VegasBoard, ReactNode> = { model: lasVegasBoard, View: LasVegasView };

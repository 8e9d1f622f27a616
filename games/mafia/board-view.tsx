// Mafia board: the table (alive or how each fell), the phase, the day's votes and, as revealed, the roles.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { type MafiaBoard, mafiaBoard } from './board-state.js';

function MafiaView({ board, ctx }: BoardViewProps<MafiaBoard>) {
  return (
    <div className="bv bv-mafia">
      <p data-testid="bv-phase">
        {board.over ? (
          <span className="strong">Game over{board.winner ? `: the ${board.winner} side wins` : ''}</span>
        ) : board.phase ? (
          <>
            Day {board.day} · <span className="strong">{board.phase === 'discuss' ? 'discussion' : board.phase}</span>
          </>
        ) : (
          'Roles are being dealt.'
        )}
      </p>
      {board.news ? <p className="small">{board.news}</p> : null}
      <table className="table bv-table">
        <caption className="sr-only">Players</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th>Status</th>
            <th>Role</th>
            <th>Vote</th>
            <th className="num">Votes against</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => (
            <tr key={s.seat} data-testid="bv-seat" className={s.alive ? undefined : 'bv-out'}>
              <td>{seatName(s.seat, ctx)}</td>
              <td>{s.alive ? 'alive' : s.fate}</td>
              <td data-testid="bv-role">{s.role ?? <span className="muted">hidden</span>}</td>
              <td>{s.vote ?? '–'}</td>
              <td className="num">{s.votesAgainst || '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export const mafiaView: BoardViewEntry<MafiaBoard, ReactNode> = { model: mafiaBoard, View: MafiaView };

// The closing scores of a SpecArena game, shared by the challenges' board views.
import { type BoardContext, seatName } from '../../engine/core/board.js';
import type { FinalScore } from './board-lines.js';

const signed = (n: number | null) => (n === null ? '–' : n > 0 ? `+${n}` : String(n));

export function ScoresTable({ scores, ctx }: { scores: FinalScore[] | null; ctx: BoardContext }) {
  if (!scores || scores.length === 0) return null;
  return (
    <table className="table bv-table" data-testid="bv-scores">
      <caption>Final scores</caption>
      <thead>
        <tr>
          <th>Seat</th>
          <th className="num">Security</th>
          <th className="num">Utility</th>
        </tr>
      </thead>
      <tbody>
        {scores.map((s) => (
          <tr key={s.seat}>
            <td>{seatName(s.seat, ctx)}</td>
            <td className="num">{signed(s.security)}</td>
            <td className="num">{signed(s.utility)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A private value withheld from this reader until the game ends, or not dealt yet. */
export function Unknown({ hidden }: { hidden: boolean }) {
  return <span className="muted">{hidden ? 'private until the end' : 'not dealt yet'}</span>;
}

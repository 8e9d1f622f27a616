// Clawpoly's board as a board: the 40 spaces around an 11 × 11 grid (Launch at the bottom right, play running
// clockwise as on the printed board), each with its colour group, owner, buildings and the seats standing on it.
import { type BoardContext, seatName } from '../../engine/core/board.js';
import { SPACES } from './board.js';
import type { MonopolyBoard } from './board-state.js';

const SIDE = 10;

/** Grid row and column (1-based) of space `index` on the 11 × 11 ring. */
export function ringCell(index: number): { row: number; col: number } {
  const side = Math.floor(index / SIDE);
  const step = index % SIDE;
  if (side === 0) return { row: SIDE + 1, col: SIDE + 1 - step };
  if (side === 1) return { row: SIDE + 1 - step, col: 1 };
  if (side === 2) return { row: 1, col: 1 + step };
  return { row: 1 + step, col: SIDE + 1 };
}

function buildings(houses: number): string {
  if (houses === 5) return 'hotel';
  return houses > 0 ? '●'.repeat(houses) : '';
}

export function MonopolyRing({ board, ctx }: { board: MonopolyBoard; ctx: BoardContext }) {
  const deedAt = new Map(board.deeds.map((d) => [d.space, d]));
  return (
    <figure className="bv-ring" aria-label="Clawpoly board" data-testid="bv-ring">
      {SPACES.map((space) => {
        const index = space.index;
        const deed = deedAt.get(index);
        const standing = board.seats.filter((s) => s.position === index && !s.bankrupt);
        const { row, col } = ringCell(index);
        const owner = deed?.owner ?? null;
        return (
          <div
            key={space.index}
            className={`bv-space${deed?.mortgaged ? ' bv-space-mortgaged' : ''}`}
            style={{ gridRow: row, gridColumn: col }}
            data-testid="bv-space"
            data-space={index}
            data-owner={owner === null ? '' : String(owner + 1)}
            data-seats={standing.map((s) => s.seat + 1).join(' ')}
            title={space.name}
          >
            {space.group || space.type === 'railroad' || space.type === 'utility' ? (
              <span className={`bv-space-band bv-group-${space.group ?? space.type}`} aria-hidden="true" />
            ) : null}
            <span className="bv-space-name">{space.name}</span>
            {owner !== null ? (
              <span className="bv-space-owner" title={seatName(owner, ctx)}>
                S{owner + 1}
                {deed && deed.houses > 0 ? <span className="bv-space-houses"> {buildings(deed.houses)}</span> : null}
                {deed?.mortgaged ? <span className="muted"> mtg</span> : null}
              </span>
            ) : null}
            {standing.length > 0 ? (
              <span className="bv-space-tokens">
                {standing.map((s) => (
                  <span key={s.seat} className={`bv-token bv-token-${s.seat % 8}`} title={seatName(s.seat, ctx)}>
                    {s.seat + 1}
                  </span>
                ))}
              </span>
            ) : null}
          </div>
        );
      })}
      <figcaption className="bv-ring-centre">
        <span className="strong">Clawpoly</span>
        <span className="muted small">
          Tokens: seat numbers · S<i>n</i>: owner · ● house
        </span>
      </figcaption>
    </figure>
  );
}

// PSI board: both private sets with the intersection marked, each guess with its wrong and extra numbers, the scores.
import type { ReactNode } from 'react';
import { type BoardViewEntry, type BoardViewProps, seatName } from '../../engine/core/board.js';
import { ScoresTable, Unknown } from '../kit/board-scores.js';
import { type PsiBoard, psiBoard } from './board-state.js';

function PsiView({ board, ctx }: BoardViewProps<PsiBoard>) {
  const inter = new Set(board.intersection ?? []);
  return (
    <div className="bv bv-psi">
      <table className="table bv-table">
        <caption className="sr-only">Private sets and guesses</caption>
        <thead>
          <tr>
            <th>Seat</th>
            <th>Private set</th>
            <th>Guess</th>
          </tr>
        </thead>
        <tbody>
          {board.seats.map((s) => {
            const opponent = board.seats.find((o) => o.seat !== s.seat)?.set;
            const theirs = new Set(opponent ?? []);
            return (
              <tr key={s.seat} data-testid="bv-seat">
                <td>{seatName(s.seat, ctx)}</td>
                <td data-testid="bv-set">
                  {s.set ? (
                    <span className="bv-values">
                      {s.set.map((v) => (
                        <span key={v} className={inter.has(v) ? 'bv-value bv-hit' : 'bv-value'}>
                          {v}
                        </span>
                      ))}
                    </span>
                  ) : (
                    <Unknown hidden={s.hidden} />
                  )}
                </td>
                <td data-testid="bv-guess">
                  {s.guess ? (
                    <>
                      <span className="bv-values">
                        {s.guess.map((v) => (
                          <span
                            key={v}
                            className={`bv-value ${inter.has(v) ? 'bv-hit' : opponent && !theirs.has(v) ? 'bv-wrong' : 'bv-extra'}`}
                          >
                            {v}
                          </span>
                        ))}
                      </span>
                      {s.outcome ? (
                        <div className="small">
                          {s.outcome.found ? 'found the intersection' : 'missed part of the intersection'} · {s.outcome.wrong} wrong ·{' '}
                          {s.outcome.extra} extra · utility {s.outcome.utility}
                        </div>
                      ) : null}
                    </>
                  ) : (
                    <span className="muted">no guess yet</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p data-testid="bv-intersection">
        Intersection:{' '}
        {board.intersection ? (
          <span className="strong">{`{${board.intersection.join(', ')}}`}</span>
        ) : (
          <span className="muted">not known yet</span>
        )}
      </p>
      <p className="muted small">
        <span className="bv-value bv-hit">in both sets</span>{' '}
        <span className="bv-value bv-extra">opponent's, outside the intersection</span>{' '}
        <span className="bv-value bv-wrong">not the opponent's</span>
      </p>
      <ScoresTable scores={board.scores} ctx={ctx} />
    </div>
  );
}

export const psiView: BoardViewEntry<PsiBoard, ReactNode> = { model: psiBoard, View: PsiView };

// A knockout run's bracket in the report browser: rounds as columns, each meeting with its two entrants (or a bye),
// their points, the winner marked and how it was decided; meetings not yet opened are shown as still to be decided,
// and the champion once the final is decided.
import type { KnockoutBracket, KnockoutMeeting } from '../../../../engine/contract/knockout-bracket.js';
import { type BracketSlot, bracketColumns, decidedNote } from './bracket-columns.js';

function points(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function Entrant({ id, score, won, decided }: { id: string | null; score: number | null; won: boolean; decided: boolean }) {
  const cls = ['kb-entrant', won ? 'kb-winner' : '', decided && !won ? 'kb-loser' : ''].filter(Boolean).join(' ');
  return (
    <li className={cls} data-testid="kb-entrant" data-agent={id ?? ''} data-won={won ? 'true' : 'false'}>
      <span className={id === null ? 'muted small' : 'mono'}>{id ?? 'bye'}</span>
      {score === null ? null : <span className="kb-points">{points(score)}</span>}
      {won ? (
        <span className="kb-mark" role="img" aria-label="advances">
          ✓
        </span>
      ) : null}
    </li>
  );
}

function Meeting({ meeting, label }: { meeting: KnockoutMeeting; label: string }) {
  const note = decidedNote(meeting);
  const decided = meeting.winner !== null;
  const bye = meeting.low === null;
  return (
    <article
      className="kb-meeting"
      aria-label={label}
      data-testid="kb-meeting"
      data-round={meeting.round}
      data-winner={meeting.winner ?? ''}
      data-bye={bye ? 'true' : 'false'}
    >
      <ul className="kb-entrants">
        <Entrant id={meeting.high} score={bye ? null : meeting.points.high} won={meeting.winner === meeting.high} decided={decided} />
        <Entrant
          id={meeting.low}
          score={bye ? null : meeting.points.low}
          won={meeting.low !== null && meeting.winner === meeting.low}
          decided={decided}
        />
      </ul>
      {note ? <p className="kb-note muted small">{note}</p> : null}
    </article>
  );
}

function Slot({ slot, label }: { slot: BracketSlot; label: string }) {
  if (slot.kind === 'meeting') return <Meeting meeting={slot.meeting} label={label} />;
  return (
    <article className="kb-meeting kb-pending" aria-label={label} data-testid="kb-pending">
      <p className="muted small">to be decided</p>
    </article>
  );
}

export function KnockoutBracketView({ bracket }: { bracket: KnockoutBracket }) {
  const { columns, thirdPlace } = bracketColumns(bracket);
  return (
    <section className="card" aria-labelledby="kb-title" data-testid="knockout-bracket">
      <h2 id="kb-title">Knockout bracket</h2>
      <p className="kb-champion" data-testid="knockout-champion">
        {bracket.champion ? (
          <>
            Champion: <span className="mono strong">{bracket.champion}</span>
          </>
        ) : (
          <span className="muted">Champion: to be decided</span>
        )}
        <span className="muted small">
          {' '}
          · {bracket.entrants} entrants, {bracket.rounds} round{bracket.rounds === 1 ? '' : 's'}
        </span>
      </p>
      <div className="kb-rounds">
        {columns.map((column) => (
          <div key={column.round} className="kb-round" data-testid="kb-round" data-round={column.round}>
            <h3 className="kb-round-title">{column.title}</h3>
            <div className="kb-slots">
              {column.slots.map((slot, i) => (
                <Slot
                  key={slot.kind === 'meeting' ? slot.meeting.pairing_index : slot.pairingIndex}
                  slot={slot}
                  label={`${column.title}, meeting ${i + 1}`}
                />
              ))}
            </div>
            {column.round === bracket.rounds && thirdPlace ? (
              <div className="kb-third">
                <h3 className="kb-round-title">Third place</h3>
                <Meeting meeting={thirdPlace} label="Third place" />
              </div>
            ) : null}
          </div>
        ))}
      </div>
    </section>
  );
}

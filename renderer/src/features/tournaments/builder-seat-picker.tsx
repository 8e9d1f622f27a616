// The builder's seats: one picker per seat of the table (seven for Diplomacy, six for Mafia, two for a duel, plus one
// to add another entrant), any agent of the agent folders in any number of seats, and "fill every seat with …".
import { useId, useState } from 'react';
import type { CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import type { TournamentCatalogResponse } from '../../../../engine/contract/tournament.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { agentOrigin, agentOriginNote } from './agent-origin.js';
import { displayPath } from './agent-paths.js';
import { agentLabel, agentMismatch, LifecycleSelect, Section } from './builder-fields.js';
import type { FormAgent } from './builder-form.js';
import { filledSeats, seatRows, tableSize, withoutSeat, withSeatAgent } from './builder-seats.js';

type Challenge = TournamentCatalogResponse['challenges'][number];

function tableHint(chosen: readonly Challenge[], table: number): string {
  if (chosen.length === 0) return 'Choose a challenge, then an agent for each seat.';
  const names = chosen.map((c) => c.name).join(', ');
  if (table === 2) return `${names}: two seats per game. Every seat is an entrant; the format decides who meets whom.`;
  const range = chosen.map((c) => (c.players.min === c.players.max ? `${c.players.min}` : `${c.players.min}–${c.players.max}`)).join(', ');
  return `${names} seats ${range} players per game. The same agent may take several seats; with more entrants than seats the format decides who sits at each table.`;
}

/** One seat: its agent picker and, once filled, what is known about that agent and its Remove button. */
function SeatRow({
  index,
  table,
  listId,
  agents,
  sorted,
  chosenChallenges,
  selected,
  onChange,
  baseDir,
}: {
  index: number;
  table: number;
  listId: string;
  agents: readonly CatalogAgent[];
  sorted: readonly CatalogAgent[];
  chosenChallenges: readonly Challenge[];
  selected: readonly FormAgent[];
  onChange: (next: FormAgent[]) => void;
  baseDir: string;
}) {
  const entry = selected[index];
  // An imported definition may name a catalogue agent by another path (relative to the definition's folder).
  const origin = entry ? agentOrigin(entry.manifest, agents, baseDir) : undefined;
  const known = origin && origin.kind !== 'definition' ? origin.agent : undefined;
  const mismatch = known?.ok ? agentMismatch(known, chosenChallenges) : null;
  const selectId = `${listId}-seat-${index}`;
  const label = `Seat ${index + 1}`;
  return (
    <li className={entry ? 't-seat' : 't-seat t-seat-empty'} data-testid="seat" data-filled={entry ? 'true' : 'false'}>
      <label className="strong t-seat-label" htmlFor={selectId}>
        {label}
      </label>
      <select
        id={selectId}
        className="t-seat-select"
        value={known?.manifest_path ?? entry?.manifest ?? ''}
        onChange={(e) => {
          const agent = agents.find((a) => a.manifest_path === e.target.value);
          if (agent) onChange(withSeatAgent(selected, index, agent));
        }}
      >
        {entry ? null : <option value="">{index < table ? '— choose an agent —' : '— add another entrant —'}</option>}
        {sorted.map((a) => (
          <option key={a.manifest_path} value={a.manifest_path} disabled={!a.ok}>
            {agentLabel(a)}
            {a.ok ? '' : ' (invalid manifest)'}
          </option>
        ))}
        {entry && origin && !known ? (
          <option value={entry.manifest}>
            {entry.manifest} ({agentOriginNote(origin)})
          </option>
        ) : null}
      </select>
      {entry ? (
        <SeatAbout
          entry={entry}
          index={index}
          label={label}
          origin={origin}
          known={known}
          mismatch={mismatch}
          selected={selected}
          onChange={onChange}
          baseDir={baseDir}
        />
      ) : null}
    </li>
  );
}

/** What a filled seat shows beside its picker: the agent's id, protocols, origin, warnings, lifecycle and path. */
function SeatAbout({
  entry,
  index,
  label,
  origin,
  known,
  mismatch,
  selected,
  onChange,
  baseDir,
}: {
  entry: FormAgent;
  index: number;
  label: string;
  origin: ReturnType<typeof agentOrigin> | undefined;
  known: CatalogAgent | undefined;
  mismatch: string | null;
  selected: readonly FormAgent[];
  onChange: (next: FormAgent[]) => void;
  baseDir: string;
}) {
  return (
    <span className="small t-choice-about">
      <span className="mono muted" data-testid="seat-id">
        {entry.id || known?.id || ''}
      </span>
      {known && known.protocols.length > 0 ? <span className="tag">{known.protocols.join(', ')}</span> : null}
      {origin ? (
        <span className="muted" data-testid="agent-origin">
          {agentOriginNote(origin)}
        </span>
      ) : null}
      {mismatch ? <span className="t-warning">⚠ {mismatch}</span> : null}
      {known?.cannot_start ? <span className="t-warning">⚠ {known.cannot_start}</span> : null}
      <LifecycleSelect entry={entry} label={entry.id ? `${label} (${entry.id})` : label} selected={selected} onChange={onChange} />
      <span className="muted mono t-path" title={entry.manifest}>
        {known ? displayPath(baseDir, known.dir) : entry.manifest}
      </span>
      <button
        type="button"
        className="button button-secondary button-small"
        aria-label={`Remove seat ${index + 1}`}
        onClick={() => onChange(withoutSeat(selected, index))}
      >
        Remove
      </button>
    </span>
  );
}

/** "Fill every seat with …": one agent in every seat of the table (or of the entrants already chosen, if more). */
function FillSeats({
  listId,
  playable,
  fillAgent,
  fillCount,
  setFillWith,
  onChange,
}: {
  listId: string;
  playable: readonly CatalogAgent[];
  fillAgent: CatalogAgent | undefined;
  fillCount: number;
  setFillWith: (manifestPath: string) => void;
  onChange: (next: FormAgent[]) => void;
}) {
  return (
    <div className="row-gap t-seat-fill">
      <label className="small" htmlFor={`${listId}-fill`}>
        Fill every seat with
      </label>
      <select id={`${listId}-fill`} value={fillAgent?.manifest_path ?? ''} onChange={(e) => setFillWith(e.target.value)}>
        {playable.map((a) => (
          <option key={a.manifest_path} value={a.manifest_path}>
            {agentLabel(a)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={!fillAgent}
        onClick={() => fillAgent && onChange(filledSeats(fillCount, fillAgent))}
      >
        Fill {fillCount} seats
      </button>
    </div>
  );
}

export function SeatPicker({
  agents,
  chosenChallenges,
  selected,
  onChange,
  errors,
  loadError,
  baseDir,
}: {
  agents: readonly CatalogAgent[];
  chosenChallenges: readonly Challenge[];
  selected: readonly FormAgent[];
  onChange: (next: FormAgent[]) => void;
  errors: readonly string[] | undefined;
  loadError: unknown;
  /** Folders under it are shown relative to it. */
  baseDir: string;
}) {
  const listId = useId();
  const table = tableSize(chosenChallenges);
  const rows = seatRows(selected.length, table);
  // Agents that can play the chosen challenges first, then the ones flagged, then invalid manifests.
  const order = (a: CatalogAgent) => (!a.ok ? 2 : agentMismatch(a, chosenChallenges) ? 1 : 0);
  const sorted = [...agents].sort((a, b) => order(a) - order(b) || agentLabel(a).localeCompare(agentLabel(b)));
  const playable = sorted.filter((a) => a.ok);
  const [fillWith, setFillWith] = useState('');
  const fillAgent = playable.find((a) => a.manifest_path === fillWith) ?? playable[0];
  const fillCount = Math.max(selected.length, table);
  return (
    <Section title={`Seats (${selected.length} chosen)`} errors={errors}>
      <p className="muted small" data-testid="seat-hint">
        {tableHint(chosenChallenges, table)} Agents come from your agent folders; fix invalid manifests on the <a href="#/agents">Agents</a>{' '}
        page.
      </p>
      {loadError ? <ErrorNotice error={loadError} compact /> : null}
      {agents.length === 0 && !loadError ? (
        <p className="empty">No agent manifests found. Add an agent folder on the Agents page.</p>
      ) : null}
      <ol className="t-seats">
        {Array.from({ length: rows }, (_, index) => {
          const selectId = `${listId}-seat-${index}`;
          return (
            <SeatRow
              key={selectId}
              index={index}
              table={table}
              listId={listId}
              agents={agents}
              sorted={sorted}
              chosenChallenges={chosenChallenges}
              selected={selected}
              onChange={onChange}
              baseDir={baseDir}
            />
          );
        })}
      </ol>
      {playable.length > 0 ? (
        <FillSeats
          listId={listId}
          playable={playable}
          fillAgent={fillAgent}
          fillCount={fillCount}
          setFillWith={setFillWith}
          onChange={onChange}
        />
      ) : null}
    </Section>
  );
}

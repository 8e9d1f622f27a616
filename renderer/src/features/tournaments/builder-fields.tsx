// The builder's controls. Each shows its own problems under it (linked with aria-describedby), whichever validator
// found them: the form's number parsing, the engine's schema run in the page, or the engine itself.
import { type ReactNode, useId } from 'react';
import type { CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import type { TournamentCatalogResponse } from '../../../../engine/contract/tournament.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { agentOrigin, agentOriginNote } from './agent-origin.js';
import { displayPath, uniqueAgentId } from './agent-paths.js';
import {
  type BuilderForm,
  FORMAT_KINDS,
  type FormAgent,
  type FormatKind,
  LIFECYCLE_CHOICES,
  NUMBER_FIELDS,
  type NumberKey,
  pathOf,
  randomSeed,
  schemaDefault,
  withLifecycle,
} from './builder-form.js';

type Challenge = TournamentCatalogResponse['challenges'][number];

export function FieldErrorList({ id, errors }: { id: string; errors: readonly string[] | undefined }) {
  if (!errors || errors.length === 0) return null;
  return (
    <ul className="t-field-errors" id={id}>
      {errors.map((e) => (
        <li key={e} className="field-error">
          {e}
        </li>
      ))}
    </ul>
  );
}

export function TextField({
  label,
  value,
  onChange,
  errors,
  hint,
  inputMode,
  placeholder,
  children,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[] | undefined;
  hint?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  placeholder?: string;
  children?: ReactNode;
  testId?: string;
}) {
  const id = useId();
  const invalid = !!errors && errors.length > 0;
  const described = [hint ? `${id}-hint` : '', invalid ? `${id}-errors` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field t-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="row-gap">
        <input
          id={id}
          type="text"
          className="t-input"
          value={value}
          inputMode={inputMode}
          placeholder={placeholder}
          aria-invalid={invalid || undefined}
          aria-describedby={described}
          data-testid={testId}
          onChange={(e) => onChange(e.target.value)}
        />
        {children}
      </div>
      {hint ? (
        <span className="muted small" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <FieldErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}

export function Section({ title, children, errors }: { title: string; children: ReactNode; errors?: readonly string[] | undefined }) {
  const id = useId();
  return (
    <section className="card t-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
      <FieldErrorList id={`${id}-errors`} errors={errors} />
    </section>
  );
}

export function ChallengePicker({
  challenges,
  selected,
  onChange,
  errors,
}: {
  challenges: readonly Challenge[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
  errors: readonly string[] | undefined;
}) {
  const known = new Set(challenges.map((c) => c.id));
  const unknown = selected.filter((id) => !known.has(id));
  const toggle = (id: string, on: boolean) => onChange(on ? [...selected, id] : selected.filter((s) => s !== id));
  return (
    <Section title="Challenges" errors={errors}>
      <p className="muted small">Every pairing plays each chosen challenge.</p>
      <fieldset className="t-choices">
        <legend className="sr-only">Challenges</legend>
        {challenges.map((c) => (
          <div key={c.id} className="t-choice">
            <label>
              <input
                type="checkbox"
                checked={selected.includes(c.id)}
                onChange={(e) => toggle(c.id, e.target.checked)}
                aria-describedby={`challenge-${c.id}-about`}
              />
              <span className="strong">{c.name}</span>
            </label>
            <span className="muted small" id={`challenge-${c.id}-about`}>
              <span className="mono">{c.id}</span> · {c.protocol} ·{' '}
              {c.players.min === c.players.max ? c.players.min : `${c.players.min}–${c.players.max}`} players
            </span>
          </div>
        ))}
        {unknown.map((id) => (
          <div key={id} className="t-choice">
            <label>
              <input type="checkbox" checked onChange={() => toggle(id, false)} />
              <span className="mono">{id}</span>
            </label>
            <span className="field-error small">not installed in this engine</span>
          </div>
        ))}
      </fieldset>
    </Section>
  );
}

/** Why a valid agent may not fit the chosen challenges: its manifest names other challenges or another protocol. */
export function agentMismatch(agent: CatalogAgent, chosen: readonly Challenge[]): string | null {
  const notPlayed = agent.challenges.length > 0 ? chosen.filter((c) => !agent.challenges.includes(c.id)) : [];
  if (notPlayed.length > 0) return `manifest does not list ${notPlayed.map((c) => c.id).join(', ')}`;
  const otherProtocol = agent.protocols.length > 0 ? chosen.filter((c) => !agent.protocols.includes(c.protocol)) : [];
  if (otherProtocol.length > 0) return `speaks ${agent.protocols.join(', ')}, not ${otherProtocol[0]?.protocol}`;
  return null;
}

export function agentLabel(agent: CatalogAgent): string {
  return agent.name ?? agent.id ?? agent.dir.split(/[\\/]/).pop() ?? agent.manifest_path;
}

export function AgentPicker({
  agents,
  chosenChallenges,
  selected,
  isSelected,
  onChange,
  errors,
  loadError,
  baseDir,
}: {
  agents: readonly CatalogAgent[];
  chosenChallenges: readonly Challenge[];
  selected: readonly FormAgent[];
  /** The form entry standing for a catalog agent (its manifest may have been written relative in an import). */
  isSelected: (agent: CatalogAgent) => FormAgent | undefined;
  onChange: (next: FormAgent[]) => void;
  errors: readonly string[] | undefined;
  loadError: unknown;
  /** Folders under it are shown relative to it. */
  baseDir: string;
}) {
  const matched = new Set(agents.map(isSelected).filter((a): a is FormAgent => a !== undefined));
  const outside = selected.filter((a) => !matched.has(a));
  const tick = (agent: CatalogAgent, on: boolean) => {
    const entry = isSelected(agent);
    if (!on) {
      onChange(selected.filter((a) => a !== entry));
      return;
    }
    const id = uniqueAgentId(
      agent.id ?? agentLabel(agent),
      selected.map((a) => a.id),
    );
    onChange([...selected, { manifest: agent.manifest_path, id }]);
  };
  const listId = useId();
  // Agents that can play the chosen challenges first, then the ones flagged, then invalid manifests.
  const order = (a: CatalogAgent) => (!a.ok ? 2 : agentMismatch(a, chosenChallenges) ? 1 : 0);
  const sorted = [...agents].sort((a, b) => order(a) - order(b) || agentLabel(a).localeCompare(agentLabel(b)));
  return (
    <Section title={`Agents (${selected.length} selected)`} errors={errors}>
      <p className="muted small">
        Agents found in your agent folders. Invalid manifests cannot be picked; fix them on the <a href="#/agents">Agents</a> page.
      </p>
      {loadError ? <ErrorNotice error={loadError} compact /> : null}
      {agents.length === 0 && !loadError ? (
        <p className="empty">No agent manifests found. Add an agent folder on the Agents page.</p>
      ) : null}
      <fieldset className="t-choices t-agent-list">
        <legend className="sr-only">Agents</legend>
        {sorted.map((agent, index) => {
          const entry = isSelected(agent);
          const mismatch = agent.ok ? agentMismatch(agent, chosenChallenges) : null;
          const aboutId = `${listId}-${index}`;
          return (
            <div key={agent.manifest_path} className={agent.ok ? 't-choice' : 't-choice t-choice-invalid'} data-testid="agent-choice">
              <label>
                <input
                  type="checkbox"
                  checked={entry !== undefined}
                  disabled={!agent.ok && entry === undefined}
                  onChange={(e) => tick(agent, e.target.checked)}
                  aria-describedby={aboutId}
                />
                <span className="strong">{agentLabel(agent)}</span>
              </label>
              <span className="small t-choice-about" id={aboutId}>
                <span className="mono muted">{entry?.id ?? agent.id ?? ''}</span>{' '}
                {agent.protocols.length > 0 ? <span className="tag">{agent.protocols.join(', ')}</span> : null}{' '}
                {agent.ok ? null : <span className="field-error">Invalid manifest: {agent.problems.join('; ')}</span>}
                {mismatch ? <span className="t-warning">⚠ {mismatch}</span> : null}
                {entry ? <LifecycleSelect entry={entry} label={agentLabel(agent)} selected={selected} onChange={onChange} /> : null}
                <span className="muted mono t-path" title={agent.manifest_path}>
                  {displayPath(baseDir, agent.dir)}
                </span>
              </span>
            </div>
          );
        })}
        {outside.map((a) => (
          <div key={a.manifest} className="t-choice">
            <label>
              <input type="checkbox" checked onChange={() => onChange(selected.filter((s) => s !== a))} />
              <span className="strong">{a.id || a.manifest}</span>
            </label>
            <span className="small muted mono" data-testid="agent-origin">
              {a.manifest} ({agentOriginNote(agentOrigin(a.manifest, agents, baseDir))})
            </span>
            <LifecycleSelect entry={a} label={a.id || a.manifest} selected={selected} onChange={onChange} />
          </div>
        ))}
      </fieldset>
    </Section>
  );
}

/** What every section of the form gets from the builder. */
export interface FormSectionProps {
  form: BuilderForm;
  set: (patch: Partial<BuilderForm>) => void;
  errorsOf: (field: string) => string[] | undefined;
}

/** The form's free-text fields (not the radio choices, whose types are narrower than string). */
type TextKey = { [K in keyof BuilderForm]: string extends BuilderForm[K] ? K : never }[keyof BuilderForm];

/**
 * Binds a TextField to one form field; its problems are those reported at the field's definition path (the numeric
 * fields' paths come from NUMBER_FIELDS; other text fields name theirs).
 */
export function bindField({ form, set, errorsOf }: FormSectionProps) {
  function bind(key: NumberKey): BoundField;
  function bind(key: TextKey, path: string): BoundField;
  function bind(key: TextKey, path?: string): BoundField {
    const number = path === undefined ? NUMBER_FIELDS.find((f) => f.key === key) : undefined;
    const fallback = number?.optional ? schemaDefault(number) : undefined;
    return {
      value: form[key],
      onChange: (value: string) => set({ [key]: value }),
      errors: errorsOf(path ?? pathOf(key as NumberKey)),
      // An empty optional field leaves the key out; the placeholder says what the engine then uses.
      ...(fallback === undefined ? {} : { placeholder: `${fallback} (default)` }),
    };
  }
  return bind;
}

interface BoundField {
  value: string;
  placeholder?: string;
  onChange(value: string): void;
  errors: string[] | undefined;
}

const FORMAT_LABELS: Record<FormatKind, { label: string; about: string }> = {
  'round-robin': { label: 'Round-robin', about: 'everyone meets everyone' },
  gauntlet: { label: 'Gauntlet', about: 'the first agents (challengers) meet every other agent' },
  swiss: { label: 'Swiss', about: 'rounds of pairings by score' },
  knockout: { label: 'Knockout', about: 'single elimination bracket' },
  adaptive: { label: 'Adaptive', about: 'each game goes to the least resolved adjacent pair of the ranking (two-seat challenges)' },
};

export function FormatFields({ available, ...section }: FormSectionProps & { available: readonly FormatKind[] }) {
  const { form, set, errorsOf } = section;
  const field = bindField(section);
  const formats = FORMAT_KINDS.filter((k) => available.includes(k));
  return (
    <Section title="Format" errors={errorsOf('format')}>
      <fieldset className="t-radios">
        <legend className="sr-only">Format</legend>
        {formats.map((kind) => (
          <label key={kind} className="t-radio">
            <input type="radio" name="format" value={kind} checked={form.format === kind} onChange={() => set({ format: kind })} />
            <span>
              <span className="strong">{FORMAT_LABELS[kind].label}</span> <span className="muted small">{FORMAT_LABELS[kind].about}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="t-field-row">
        {form.format === 'round-robin' || form.format === 'gauntlet' ? (
          <TextField label="Cycles" inputMode="numeric" {...field('cycles')} />
        ) : null}
        {form.format === 'gauntlet' ? (
          <TextField
            label="Challengers"
            inputMode="numeric"
            {...field('challengers')}
            hint="The first N selected agents play everyone else."
          />
        ) : null}
        {form.format === 'swiss' ? (
          <TextField
            label="Rounds"
            inputMode="numeric"
            {...field('rounds')}
            placeholder="default"
            hint="Empty: ⌈log₂ N⌉ + 1, at most N − 1."
          />
        ) : null}
        {form.format === 'adaptive' ? (
          <>
            <TextField label="Budget: games" inputMode="numeric" {...field('budgetGames')} hint="Required: the most games it plays." />
            <TextField label="Budget: tokens" inputMode="numeric" {...field('budgetTokens')} placeholder="no limit" />
            <TextField label="Budget: USD" inputMode="decimal" {...field('budgetUsd')} placeholder="no limit" />
            <TextField label="Confidence" inputMode="decimal" {...field('confidence')} placeholder="0.95" />
          </>
        ) : null}
      </div>
      {form.format === 'adaptive' ? (
        <p className="muted small" data-testid="adaptive-stop-rule">
          Stops once every adjacent pair of the ranking is ordered at the chosen confidence (each decided pair is wrong with probability at
          most 1 − confidence, however often it looks), or when the budget of games, tokens or USD is spent.
        </p>
      ) : null}
    </Section>
  );
}

export function GamesFields(section: FormSectionProps) {
  const { set } = section;
  const field = bindField(section);
  return (
    <Section title="Games and limits">
      <div className="t-field-row">
        <TextField
          label="Games per pairing"
          inputMode="numeric"
          {...field('gamesPerPairing')}
          hint="Even numbers play each opening with seats swapped."
        />
        <TextField label="Concurrency" inputMode="numeric" {...field('concurrency')} hint="Games played at the same time (1–64)." />
        <TextField label="Seed" {...field('seed', 'seed')} hint="Same seed, same schedule.">
          <button type="button" className="button button-secondary button-small" onClick={() => set({ seed: randomSeed() })}>
            Random seed
          </button>
        </TextField>
      </div>
      <div className="t-field-row">
        <TextField label="Move time limit (seconds)" inputMode="decimal" {...field('moveSeconds')} />
        <TextField label="Game time limit (seconds)" inputMode="decimal" {...field('gameSeconds')} />
      </div>
    </Section>
  );
}

export function StopFields(section: FormSectionProps) {
  const { form, set, errorsOf } = section;
  const field = bindField(section);
  return (
    <Section title="Stop rule" errors={errorsOf('stop')}>
      <fieldset className="t-radios">
        <legend className="sr-only">Stop rule</legend>
        <label className="t-radio">
          <input type="radio" name="stop" value="fixed" checked={form.stop === 'fixed'} onChange={() => set({ stop: 'fixed' })} />
          <span>
            <span className="strong">Fixed</span> <span className="muted small">play every planned game</span>
          </span>
        </label>
        <label className="t-radio">
          <input type="radio" name="stop" value="sprt" checked={form.stop === 'sprt'} onChange={() => set({ stop: 'sprt' })} />
          <span>
            <span className="strong">SPRT</span>{' '}
            <span className="muted small">two agents; stop once the test decides between elo0 and elo1</span>
          </span>
        </label>
      </fieldset>
      {form.stop === 'sprt' ? (
        <div className="t-field-row">
          <TextField label="elo0" inputMode="decimal" {...field('elo0')} />
          <TextField label="elo1" inputMode="decimal" {...field('elo1')} />
          <TextField label="alpha" inputMode="decimal" {...field('alpha')} />
          <TextField label="beta" inputMode="decimal" {...field('beta')} />
        </div>
      ) : null}
    </Section>
  );
}

/** Per-agent lifecycle override: the manifest's, a fresh process per game, or one warm process across games. */
function LifecycleSelect({
  entry,
  label,
  selected,
  onChange,
}: {
  entry: FormAgent;
  label: string;
  selected: readonly FormAgent[];
  onChange: (next: FormAgent[]) => void;
}) {
  return (
    <label className="small t-lifecycle">
      Lifecycle{' '}
      <select
        aria-label={`Lifecycle of ${label}`}
        data-testid="agent-lifecycle"
        value={entry.lifecycle ?? ''}
        onChange={(e) => onChange(withLifecycle(selected, entry, e.target.value))}
      >
        {LIFECYCLE_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
        {/* An imported value the form does not know stays visible and selected rather than silently dropped. */}
        {entry.lifecycle !== undefined && !LIFECYCLE_CHOICES.some((c) => c.value === entry.lifecycle) ? (
          <option value={entry.lifecycle}>{entry.lifecycle}</option>
        ) : null}
      </select>
    </label>
  );
}

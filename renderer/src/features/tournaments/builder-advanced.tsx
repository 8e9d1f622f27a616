// The builder's "Advanced" disclosure: definition fields most runs leave at the engine's defaults (tables per cycle,
// bye points, knockout tie-breaks, the SPRT Elo model, the illegal-action budget, challenge options). Empty fields
// stay out of the definition, so the exported YAML only names what the user changed.
import { type ReactNode, useEffect, useId, useState } from 'react';
import type { TournamentCatalogResponse } from '../../../../engine/contract/tournament.js';
import { bindField, FieldErrorList, type FormSectionProps, TextField } from './builder-fields.js';
import { ADVANCED_PATHS, type BuilderForm, NUMBER_FIELDS, SPRT_MODELS, type SprtModel } from './builder-form.js';

type Challenge = TournamentCatalogResponse['challenges'][number];

const MODEL_LABELS: Record<SprtModel, string> = {
  logistic: 'logistic (default)',
  normalized: 'normalized',
  bayeselo: 'BayesElo',
};

/** Whether the form sets anything this section shows (an import may have). */
function inUse(form: BuilderForm): boolean {
  const texts = [...NUMBER_FIELDS.filter((f) => f.advanced).map((f) => form[f.key]), form.options];
  return texts.some((t) => t.trim() !== '') || form.thirdPlace || form.sprtModel !== 'logistic';
}

/** The knockout's third-place match: a checkbox with its errors. */
function ThirdPlaceField({ form, set, errorsOf, id }: FormSectionProps & { id: string }) {
  const thirdErrors = errorsOf('format.third_place');
  return (
    <div className="field t-field">
      <label className="t-radio">
        <input
          type="checkbox"
          checked={form.thirdPlace}
          onChange={(e) => set({ thirdPlace: e.target.checked })}
          aria-invalid={thirdErrors ? true : undefined}
          aria-describedby={thirdErrors ? `${id}-third-errors` : undefined}
        />
        <span>Play a third-place match</span>
      </label>
      <FieldErrorList id={`${id}-third-errors`} errors={thirdErrors} />
    </div>
  );
}

/** The SPRT Elo model, picked from the models the engine knows. */
function SprtModelField({ form, set, errorsOf, id }: FormSectionProps & { id: string }) {
  const modelErrors = errorsOf('stop.model');
  const carriedModel = form.carried.find((c) => c.path.join('.') === 'stop.model' && 'value' in c);
  const importedModel = carriedModel && 'value' in carriedModel ? JSON.stringify(carriedModel.value) : undefined;
  return (
    <div className="field t-field">
      <label className="field-label" htmlFor={`${id}-model`}>
        SPRT Elo model
      </label>
      <select
        id={`${id}-model`}
        value={importedModel ?? form.sprtModel}
        onChange={(e) => set({ sprtModel: e.target.value as SprtModel })}
        aria-invalid={modelErrors ? true : undefined}
        aria-describedby={modelErrors ? `${id}-model-errors` : undefined}
      >
        {SPRT_MODELS.map((m) => (
          <option key={m} value={m}>
            {MODEL_LABELS[m]}
          </option>
        ))}
        {/* An imported value that is not a model stays shown (and is what the definition holds) until one is picked. */}
        {importedModel !== undefined ? <option value={importedModel}>{importedModel} (as imported)</option> : null}
      </select>
      <FieldErrorList id={`${id}-model-errors`} errors={modelErrors} />
    </div>
  );
}

/** Each chosen challenge's default options, under the options field. */
function ChallengeOptionDefaults({ chosen }: { chosen: readonly Challenge[] }) {
  if (chosen.length === 0) return null;
  return (
    <ul className="t-option-defaults">
      {chosen.map((c) => (
        <li key={c.id}>
          <span className="mono">{c.id}</span> defaults:{' '}
          <span className="mono">{c.default_options ? JSON.stringify(c.default_options) : 'not listed'}</span>
        </li>
      ))}
    </ul>
  );
}

export function AdvancedFields({ chosen, ...section }: FormSectionProps & { chosen: readonly Challenge[] }) {
  const { form, errorsOf } = section;
  const field = bindField(section);
  const id = useId();
  // The definition paths shown in this section, so its summary can say how many problems it hides when closed.
  const problems = ADVANCED_PATHS.reduce((n, path) => n + (errorsOf(path)?.length ?? 0), 0);
  // Collapsed unless it has something to show: values from an imported or earlier definition, or a problem that
  // would otherwise be hidden (the builder remounts this section on each import).
  const needed = inUse(form) || problems > 0;
  const [open, setOpen] = useState(needed);
  useEffect(() => {
    if (needed) setOpen(true);
  }, [needed]);
  return (
    <details
      className="card t-section t-advanced"
      data-testid="builder-advanced"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <h2 className="t-advanced-title">Advanced</h2>
        {problems > 0 ? (
          <span className="field-error small">
            {' '}
            ({problems} problem{problems === 1 ? '' : 's'})
          </span>
        ) : null}
      </summary>
      <p className="muted small">Empty fields use the engine's defaults and are left out of the definition.</p>
      <div className="t-field-row">
        {form.format === 'round-robin' || form.format === 'gauntlet' ? (
          <TextField
            label="Max tables per cycle"
            inputMode="numeric"
            placeholder="200"
            {...field('maxTables')}
            hint="Challenges with more than two seats: at most this many tables per cycle (a balanced sample beyond it)."
          />
        ) : null}
        {form.format === 'swiss' ? (
          <TextField
            label="Bye points"
            inputMode="decimal"
            placeholder="default"
            {...field('byePoints')}
            hint="Points for a round without an opponent. Empty: every game of a meeting won."
          />
        ) : null}
        {form.format === 'knockout' ? (
          <>
            <TextField
              label="Tie-break pairs"
              inputMode="numeric"
              placeholder="3"
              {...field('tieBreakPairs')}
              hint="Extra game pairs to settle a tied meeting (0: none)."
            />
            <ThirdPlaceField {...section} id={id} />
          </>
        ) : null}
        {form.stop === 'sprt' ? <SprtModelField {...section} id={id} /> : null}
        <TextField
          label="Illegal actions allowed per game"
          inputMode="numeric"
          placeholder="3"
          {...field('maxIllegalActions')}
          hint="Refused actions one seat may make in a game; one more forfeits it."
        />
        <TextField
          label="Warm-agent restarts allowed"
          inputMode="numeric"
          placeholder="5"
          {...field('maxRestarts')}
          hint="Faults after which a warm (persistent) agent is retired; its remaining games are forfeits."
        />
      </div>
      <TextAreaField label="Challenge options (JSON)" {...field('options', 'options')}>
        One object given to every chosen challenge, over its defaults; each challenge checks it.
        <ChallengeOptionDefaults chosen={chosen} />
      </TextAreaField>
    </details>
  );
}

/** TextField's twin for multi-line text: the hint (children) and the errors are linked to the text area. */
function TextAreaField({
  label,
  value,
  onChange,
  errors,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors: readonly string[] | undefined;
  children: ReactNode;
}) {
  const id = useId();
  const invalid = !!errors && errors.length > 0;
  return (
    <div className="field t-field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="t-textarea mono"
        rows={4}
        placeholder="{}"
        spellCheck={false}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-hint ${id}-errors` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="muted small" id={`${id}-hint`}>
        {children}
      </div>
      <FieldErrorList id={`${id}-errors`} errors={errors} />
    </div>
  );
}

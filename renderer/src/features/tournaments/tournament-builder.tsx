// The tournament builder: challenges, agents, format, games, limits, stop rule and advanced options, checked in the
// page with the engine's schema and by the engine itself (manifests, installed challenges, planned games) before Start.
import { useMemo, useState } from 'react';
import type { CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import type { TournamentCatalogResponse } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Loading } from '../../ui/loading.js';
import { navigate } from '../../ui/navigation.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { matchCatalogAgent } from './agent-paths.js';
import { AdvancedFields } from './builder-advanced.js';
import { ALL_FIELDS, agentLabels, formProblems, nameAgents, placeHidden, touchedBy, visibleErrors } from './builder-errors.js';
import { EstimateNote } from './builder-estimate.js';
import { ChallengePicker, FieldErrorList, FormatFields, GamesFields, Section, StopFields, TextField } from './builder-fields.js';
import {
  type BuilderForm,
  emptyForm,
  errorsByField,
  type FormAgent,
  formFromSpec,
  localPlannedGames,
  mergeErrors,
  randomSeed,
  withoutCarried,
} from './builder-form.js';
import { SeatPicker } from './builder-seat-picker.js';
import { tableSize } from './builder-seats.js';
import { YamlPanel } from './builder-yaml.js';
import { PreflightNotice } from './preflight-notice.js';
import { tournamentsApi } from './tournaments-api.js';
import { type RemoteValidation, useRemoteValidation } from './use-remote-validation.js';
import './tournaments.css';

interface BuilderData {
  catalog: TournamentCatalogResponse;
  agents: CatalogAgent[];
  /** The agent list is optional: without it a definition can still be imported as YAML. */
  agentsError: unknown;
  /** The definition of the tournament named in `?from=`, when there is one. */
  from: Record<string, unknown> | null;
}

export default function TournamentBuilder({ from }: { from?: string | undefined }) {
  const { client } = useArena();
  const data = useResource<BuilderData>(
    async (signal) => {
      const api = tournamentsApi(client);
      const [catalog, agents, spec] = await Promise.all([
        api.catalog(signal),
        api.agents(signal).then(
          (r) => ({ list: r.agents, error: null as unknown }),
          (error: unknown) => ({ list: [], error }),
        ),
        from ? api.submittedSpec(from, signal) : Promise.resolve(null),
      ]);
      return { catalog, agents: agents.list, agentsError: agents.error, from: spec };
    },
    [from],
  );
  if (!data.data) {
    return (
      <>
        <PageHeader title="New tournament" subtitle={<a href={routeHref({ name: 'tournaments' })}>Tournaments</a>} />
        {data.loading ? <Loading label="Loading challenges and agents…" /> : <ErrorNotice error={data.error} onRetry={data.reload} />}
      </>
    );
  }
  return <Builder data={data.data} fromId={from} />;
}

/** Catalog agents and definition entries name the same manifest in different spellings (absolute vs relative). */
function normalizeAgents(agents: FormAgent[], catalog: CatalogAgent[], baseDir: string): FormAgent[] {
  return agents.map((a) => {
    const match = matchCatalogAgent(
      a.manifest,
      catalog.map((c) => c.manifest_path),
      baseDir,
    );
    return match ? { ...a, manifest: match } : a;
  });
}

function initialForm(data: BuilderData): BuilderForm {
  if (!data.from) {
    const form = emptyForm(randomSeed());
    // A lone installed challenge is the obvious choice.
    if (data.catalog.challenges.length === 1 && data.catalog.challenges[0]) form.challenges = [data.catalog.challenges[0].id];
    return form;
  }
  const form = formFromSpec(data.from, randomSeed());
  return { ...form, name: `${form.name} (again)`, agents: normalizeAgents(form.agents, data.agents, data.catalog.base_dir) };
}

function BuilderHeader({ fromId }: { fromId: string | undefined }) {
  return (
    <PageHeader
      title="New tournament"
      subtitle={
        <>
          <a href={routeHref({ name: 'tournaments' })}>Tournaments</a>
          {fromId ? (
            <>
              {' '}
              / based on <a href={routeHref({ name: 'tournament', id: fromId })}>{fromId}</a>
            </>
          ) : null}
        </>
      }
    />
  );
}

/** The validation line: what to do next, or what the engine said of the definition. */
function validationMessage(locallyValid: boolean, nothingShown: boolean, errorCount: number, remote: RemoteValidation): string {
  const problems = `${errorCount} problem${errorCount === 1 ? '' : 's'} to fix`;
  if (!locallyValid) return nothingShown ? 'Choose challenges and agents to begin.' : problems;
  if (remote.state === 'checking' || remote.state === 'idle') return 'Checking with the engine…';
  if (remote.state === 'ok') return `Valid: ${remote.result.agents.length} agents, ${remote.result.challenges.join(', ')}`;
  if (remote.state === 'invalid') return problems;
  return 'The engine could not check the definition.';
}

/** The "Ready to start?" card: planned games, the validation state, what is not ready, and the Start button. */
function StartCard({
  form,
  planned,
  locallyValid,
  remote,
  errorCount,
  nothingShown,
  unready,
  generalErrors,
  startError,
  starting,
  canStart,
  onStart,
}: {
  form: BuilderForm;
  planned: { count: number; exact: boolean } | null;
  locallyValid: boolean;
  remote: RemoteValidation;
  errorCount: number;
  nothingShown: boolean;
  unready: Parameters<typeof PreflightNotice>[0]['problems'];
  generalErrors: readonly string[] | undefined;
  startError: unknown;
  starting: boolean;
  canStart: boolean;
  onStart: () => void;
}) {
  return (
    <section className="card t-section t-start-card" aria-labelledby="t-start-title" data-testid="builder-summary">
      <h2 id="t-start-title">Ready to start?</h2>
      <p className="t-planned" data-testid="planned-games" aria-live="polite">
        {planned ? (
          <>
            <span className="t-planned-count">
              {planned.exact ? '' : '≥ '}
              {planned.count}
            </span>{' '}
            planned games
            {form.stop === 'sprt' ? <span className="muted small"> (SPRT may stop earlier)</span> : null}
          </>
        ) : (
          <span className="muted">Planned games appear once the definition is valid.</span>
        )}
      </p>
      <p className="small" role="status" data-testid="validation-state" data-state={locallyValid ? remote.state : 'invalid'}>
        {validationMessage(locallyValid, nothingShown, errorCount, remote)}
      </p>
      {remote.state === 'ok' && remote.result.estimate ? (
        <EstimateNote estimate={remote.result.estimate} concurrency={Number(form.concurrency) || 1} />
      ) : null}
      <PreflightNotice problems={unready} />
      {remote.state === 'unavailable' ? <ErrorNotice error={remote.error} compact /> : null}
      <FieldErrorList id="t-general-errors" errors={generalErrors} />
      {startError ? <ErrorNotice error={startError} compact /> : null}
      <button type="button" className="button button-primary t-start" disabled={!canStart} onClick={onStart}>
        {starting ? 'Starting…' : 'Start'}
      </button>
    </section>
  );
}

/** An imported definition as a form, its agents named as the catalogue names them. */
function importedForm(raw: Record<string, unknown>, agents: CatalogAgent[], baseDir: string): BuilderForm {
  const imported = formFromSpec(raw, randomSeed());
  return { ...imported, agents: normalizeAgents(imported.agents, agents, baseDir) };
}

/** The page's own count of an imported form's problems, so the import message can say at once how many came with it. */
function importedProblems(imported: BuilderForm, catalog: TournamentCatalogResponse): { count: number; fields: string[] } {
  const problems = formProblems(imported, tableSize(catalog.challenges.filter((c) => imported.challenges.includes(c.id)))).errors;
  return {
    count: Object.values(errorsByField(problems)).reduce((n, list) => n + list.length, 0),
    fields: Object.keys(problems),
  };
}

function Builder({ data, fromId }: { data: BuilderData; fromId: string | undefined }) {
  const { client } = useArena();
  const { catalog, agents } = data;
  const [form, setForm] = useState<BuilderForm>(() => initialForm(data));
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  // Each import remounts the Advanced section, so it opens when the imported definition sets any of its fields.
  const [imports, setImports] = useState(0);
  // Problems show for the controls the user has changed; a definition loaded from elsewhere shows all of them.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set(data.from ? [ALL_FIELDS] : []));
  const touch = (fields: readonly string[]) => setTouched((t) => (fields.every((f) => t.has(f)) ? t : new Set([...t, ...fields])));
  const set = (patch: Partial<BuilderForm>) => {
    const fields = touchedBy(patch);
    touch(fields);
    // An edit replaces what an import carried for that control.
    setForm((f) => withoutCarried({ ...f, ...patch }, fields));
  };

  const table = tableSize(catalog.challenges.filter((c) => form.challenges.includes(c.id)));
  const { spec, errors: localErrors } = useMemo(() => formProblems(form, table), [form, table]);
  const locallyValid = Object.keys(localErrors).length === 0;
  const remote = useRemoteValidation(spec, locallyValid, catalog.base_dir);
  const labels = agentLabels(form.agents, agents);
  const allErrors = Object.fromEntries(
    Object.entries(placeHidden(errorsByField(mergeErrors(localErrors, remote.state === 'invalid' ? remote.errors : {})), form)).map(
      ([field, lines]) => [field, [...new Set(lines.map((line) => nameAgents(line, labels)))]],
    ),
  );
  // The engine is asked only once the page's own checks pass: whatever it finds is shown whole.
  const errors = remote.state === 'invalid' ? allErrors : visibleErrors(allErrors, touched);
  const errorsOf = (field: string) => errors[field];
  // The count is of the problems shown: one the user cannot see yet is not theirs to fix yet.
  const errorCount = Object.values(errors).reduce((n, list) => n + list.length, 0);
  const nothingShown = errorCount === 0;

  const chosen = catalog.challenges.filter((c) => form.challenges.includes(c.id));
  const seats = (id: string) => catalog.challenges.find((c) => c.id === id)?.players.min;
  const local = locallyValid ? localPlannedGames(spec, seats) : null;
  const planned = remote.state === 'ok' ? { count: remote.result.planned_games, exact: remote.result.planned_exact } : local;
  const unready = remote.state === 'ok' ? (remote.result.preflight ?? []) : [];
  const canStart = remote.state === 'ok' && unready.length === 0 && !starting;

  const start = () => {
    setStarting(true);
    setStartError(null);
    tournamentsApi(client)
      .create(spec, catalog.base_dir)
      .then(
        (created) => navigate(routeHref({ name: 'tournament', id: created.id })),
        (error: unknown) => {
          setStartError(error);
          setStarting(false);
        },
      );
  };

  return (
    <>
      <BuilderHeader fromId={fromId} />
      <div className="t-builder">
        <div className="t-builder-main">
          <Section title="Name">
            <TextField label="Tournament name" value={form.name} onChange={(name) => set({ name })} errors={errorsOf('name')} />
          </Section>
          <ChallengePicker
            challenges={catalog.challenges}
            selected={form.challenges}
            onChange={(challenges) => set({ challenges })}
            errors={errorsOf('challenges')}
          />
          <SeatPicker
            agents={agents}
            chosenChallenges={chosen}
            selected={form.agents}
            onChange={(next) => set({ agents: next })}
            errors={errorsOf('agents')}
            loadError={data.agentsError}
            baseDir={catalog.base_dir}
          />
          <FormatFields form={form} set={set} errorsOf={errorsOf} available={catalog.formats} />
          <GamesFields form={form} set={set} errorsOf={errorsOf} />
          <StopFields form={form} set={set} errorsOf={errorsOf} />
          <AdvancedFields key={imports} form={form} set={set} errorsOf={errorsOf} chosen={chosen} />
        </div>
        <aside className="t-builder-side">
          <StartCard
            form={form}
            planned={planned}
            locallyValid={locallyValid}
            remote={remote}
            errorCount={errorCount}
            nothingShown={nothingShown}
            unready={unready}
            generalErrors={errorsOf('(root)')}
            startError={startError}
            starting={starting}
            canStart={canStart}
            onStart={start}
          />
          <YamlPanel
            spec={spec}
            baseDir={catalog.base_dir}
            onImport={(raw) => {
              const imported = importedForm(raw, agents, catalog.base_dir);
              setForm(imported);
              setImports((n) => n + 1);
              touch([ALL_FIELDS]);
              return importedProblems(imported, catalog);
            }}
          />
        </aside>
      </div>
    </>
  );
}

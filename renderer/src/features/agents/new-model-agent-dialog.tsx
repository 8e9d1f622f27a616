// "New model agent": pick a model server discovery found (or type its URL; hosted APIs whose key is set), one of its
// models, the sampler settings and the challenges or games it enters; the engine writes agent.yaml + model.yaml into a
// new folder of one of the user's agent folders, after checking both and asking the server once.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AgentFolder, CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import type { ErrorIssue } from '../../../../engine/contract/errors.js';
import type { ModelsResponse } from '../../../../engine/contract/model-discovery.js';
import { useArena } from '../../app-context.js';
import { ApiError } from '../../arena-client/errors.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Loading } from '../../ui/loading.js';
import { useResource } from '../../ui/use-resource.js';
import { tournamentsApi } from '../tournaments/tournaments-api.js';
import { createModelAgent, discoverModels } from './agents-api.js';
import { idFromName, type ServerChoice, serverChoices } from './model-agent-choices.js';

type Protocol = 'specarena' | 'clawarena';
type Errors = Record<string, string>;

interface Form {
  name: string;
  /** null: follows the name. */
  id: string | null;
  folder: string;
  server: string;
  model: string;
  protocol: Protocol;
  challenges: string[];
  temperature: string;
  maxTokens: string;
  seed: string;
  capacity: string;
}

const number = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

function FieldError({ errors, field }: { errors: Errors; field: string }) {
  const message = errors[field];
  return message ? (
    <span className="field-error" role="alert" data-field={field}>
      {message}
    </span>
  ) : null;
}

/** The servers discovery found, and a URL typed by the user looked up on its own. */
function ServerPicker({
  choices,
  loading,
  form,
  set,
  onTyped,
}: {
  choices: ServerChoice[];
  loading: boolean;
  form: Form;
  set: (patch: Partial<Form>) => void;
  onTyped: (server: ModelsResponse['servers'][number]) => void;
}) {
  const { client } = useArena();
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lookUp = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const found = await discoverModels(client, url.trim());
      const server = found.servers[0];
      if (!server) setProblem(`No model server answered at ${url.trim()} (it must answer GET /v1/models).`);
      else onTyped(server);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="nm-fieldset">
      <legend>Model server</legend>
      {loading ? <Loading label="Looking for model servers…" /> : null}
      {!loading && choices.length === 0 ? (
        <p className="small muted">
          No model server answered on the usual ports (Ollama 11434, llama.cpp 8080, LM Studio 1234, vLLM 8000).
        </p>
      ) : null}
      <div className="nm-servers" role="radiogroup" aria-label="Model server">
        {choices.map((c) => (
          <label key={c.base_url} className={c.unavailable ? 'nm-server muted' : 'nm-server'}>
            <input
              type="radio"
              name="nm-server"
              value={c.base_url}
              checked={form.server === c.base_url}
              disabled={c.unavailable !== null}
              onChange={() => set({ server: c.base_url, model: c.models[0] ?? '' })}
            />{' '}
            <span className="mono small">{c.label}</span>
            {c.unavailable ? (
              <span className="small"> — {c.unavailable}</span>
            ) : (
              <span className="small muted"> — {c.models.length === 1 ? '1 model' : `${c.models.length} models`}</span>
            )}
          </label>
        ))}
      </div>
      <div className="nm-typed">
        <label className="field">
          <span className="field-label">Server URL</span>
          <input
            type="text"
            value={url}
            placeholder="http://127.0.0.1:8080/v1"
            spellCheck={false}
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <button type="button" className="button button-secondary" disabled={busy || url.trim() === ''} onClick={() => void lookUp()}>
          {busy ? 'Looking…' : 'Look up'}
        </button>
      </div>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}

/** SpecArena challenges or ClawArena games the agent enters. */
function EntryPicker({ form, set, errors }: { form: Form; set: (patch: Partial<Form>) => void; errors: Errors }) {
  const { client } = useArena();
  const catalog = useResource((signal) => tournamentsApi(client).catalog(signal), []);
  const entries = (catalog.data?.challenges ?? []).filter((c) => c.protocol === form.protocol);
  const toggle = (id: string, on: boolean) => set({ challenges: on ? [...form.challenges, id] : form.challenges.filter((c) => c !== id) });
  return (
    <fieldset className="nm-fieldset">
      <legend>Plays</legend>
      <div className="row-gap" role="radiogroup" aria-label="Protocol">
        {(['specarena', 'clawarena'] as const).map((p) => (
          <label key={p}>
            <input type="radio" name="nm-protocol" checked={form.protocol === p} onChange={() => set({ protocol: p, challenges: [] })} />{' '}
            {p === 'specarena' ? 'SpecArena challenges' : 'ClawArena games'}
          </label>
        ))}
      </div>
      {catalog.error ? <ErrorNotice error={catalog.error} compact onRetry={catalog.reload} /> : null}
      <div className="nm-entries">
        {entries.map((c) => (
          <label key={c.id} className="small">
            <input type="checkbox" checked={form.challenges.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} /> {c.name}
          </label>
        ))}
      </div>
      <FieldError errors={errors} field="challenges" />
    </fieldset>
  );
}

/** Fields the dialog shows errors beside; any other path (the request as a whole) goes above the buttons. */
const SHOWN = new Set([
  'base_url',
  'api_key_env',
  'model',
  'temperature',
  'max_tokens',
  'seed',
  'capacity',
  'challenges',
  'name',
  'id',
  'folder_id',
]);

function issuesByField(issues: readonly ErrorIssue[]): Errors {
  const errors: Errors = {};
  for (const i of issues)
    errors[SHOWN.has(i.path) ? i.path : '(root)'] ??= i.path === '' || SHOWN.has(i.path) ? i.message : `${i.path}: ${i.message}`;
  return errors;
}

/** The model and its sampler settings. */
function ModelFields({
  form,
  set,
  errors,
  server,
}: {
  form: Form;
  set: (patch: Partial<Form>) => void;
  errors: Errors;
  server: ServerChoice | undefined;
}) {
  return (
    <div className="nm-grid">
      <label className="field">
        <span className="field-label">Model</span>
        <select aria-label="Model" value={form.model} disabled={!server} onChange={(e) => set({ model: e.target.value })}>
          {(server?.models ?? []).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <FieldError errors={errors} field="model" />
      </label>
      <label className="field">
        <span className="field-label">Temperature</span>
        <input type="text" inputMode="decimal" value={form.temperature} onChange={(e) => set({ temperature: e.target.value })} />
        <FieldError errors={errors} field="temperature" />
      </label>
      <label className="field">
        <span className="field-label">Max tokens</span>
        <input type="text" inputMode="numeric" value={form.maxTokens} onChange={(e) => set({ maxTokens: e.target.value })} />
        <FieldError errors={errors} field="max_tokens" />
      </label>
      <label className="field">
        <span className="field-label">Seed</span>
        <input type="text" inputMode="numeric" value={form.seed} placeholder="none" onChange={(e) => set({ seed: e.target.value })} />
        <FieldError errors={errors} field="seed" />
      </label>
      <label className="field">
        <span className="field-label">Capacity (requests at once)</span>
        <input
          type="text"
          inputMode="numeric"
          value={form.capacity}
          placeholder={server?.slots ? `server reports ${server.slots}` : '1 unless the server reports more'}
          onChange={(e) => set({ capacity: e.target.value })}
        />
        <FieldError errors={errors} field="capacity" />
      </label>
    </div>
  );
}

/** Name, id (the folder's name) and the agent folder it goes into. */
function IdentityFields({
  form,
  set,
  errors,
  id,
  folders,
}: {
  form: Form;
  set: (patch: Partial<Form>) => void;
  errors: Errors;
  id: string;
  folders: AgentFolder[];
}) {
  return (
    <div className="nm-grid">
      <label className="field">
        <span className="field-label">Name</span>
        <input type="text" value={form.name} onChange={(e) => set({ name: e.target.value })} />
        <FieldError errors={errors} field="name" />
      </label>
      <label className="field">
        <span className="field-label">Agent id (folder name)</span>
        <input type="text" className="mono" value={id} spellCheck={false} onChange={(e) => set({ id: e.target.value })} />
        <FieldError errors={errors} field="id" />
      </label>
      <label className="field">
        <span className="field-label">Agent folder</span>
        <select aria-label="Agent folder" value={form.folder} onChange={(e) => set({ folder: e.target.value })}>
          {folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.path}
            </option>
          ))}
        </select>
        <FieldError errors={errors} field="folder_id" />
      </label>
    </div>
  );
}

export function NewModelAgentDialog({
  folders,
  onCreated,
  onClose,
}: {
  /** The user's agent folders that exist: where the new agent's folder can go. */
  folders: AgentFolder[];
  onCreated(agent: CatalogAgent): void;
  onClose(): void;
}) {
  const { client } = useArena();
  const ref = useRef<HTMLDialogElement>(null);
  const found = useResource((signal) => discoverModels(client, undefined, signal), []);
  const [typed, setTyped] = useState<ModelsResponse['servers']>([]);
  const choices = useMemo(() => serverChoices(found.data, typed), [found.data, typed]);
  const [form, setForm] = useState<Form>({
    name: '',
    id: null,
    folder: folders[0]?.id ?? '',
    server: '',
    model: '',
    protocol: 'specarena',
    challenges: [],
    temperature: '0.2',
    maxTokens: '512',
    seed: '42',
    capacity: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const server = choices.find((c) => c.base_url === form.server);
  const id = form.id ?? idFromName(form.name);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const submit = async () => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      const created = await createModelAgent(client, {
        folder_id: form.folder,
        id,
        name: form.name,
        protocol: form.protocol,
        challenges: form.challenges,
        provider: server?.provider ?? 'openai-compatible',
        base_url: form.server,
        ...(server?.api_key_env ? { api_key_env: server.api_key_env } : {}),
        model: form.model,
        temperature: number(form.temperature) ?? 0,
        max_tokens: number(form.maxTokens) ?? 512,
        ...(number(form.seed) === undefined ? {} : { seed: number(form.seed) as number }),
        ...(number(form.capacity) === undefined ? {} : { capacity: number(form.capacity) as number }),
      });
      onCreated(created.agent);
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0) setErrors(issuesByField(error.issues));
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} className="nm-dialog" aria-labelledby="nm-title" onClose={onClose} data-testid="new-model-agent">
      <form
        method="dialog"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <h2 id="nm-title">New model agent</h2>
        {folders.length === 0 ? (
          <p className="notice" role="alert">
            Add one of your own agent folders first (Add agent folder): the new agent gets a folder inside it.
          </p>
        ) : null}
        <ServerPicker
          choices={choices}
          loading={found.loading}
          form={form}
          set={set}
          onTyped={(s) => {
            setTyped((list) => [...list.filter((t) => t.base_url !== s.base_url), s]);
            set({ server: s.base_url, model: s.models[0]?.id ?? '' });
          }}
        />
        <FieldError errors={errors} field="base_url" />
        <FieldError errors={errors} field="api_key_env" />
        <ModelFields form={form} set={set} errors={errors} server={server} />
        <EntryPicker form={form} set={set} errors={errors} />
        <IdentityFields form={form} set={set} errors={errors} id={id} folders={folders} />
        <FieldError errors={errors} field="(root)" />
        {failure ? <ErrorNotice error={failure} compact /> : null}
        <div className="nm-actions">
          <button type="button" className="button button-secondary" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy || folders.length === 0}>
            {busy ? 'Checking the server…' : 'Create agent'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

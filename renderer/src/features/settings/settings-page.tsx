// Settings: API keys for model agents (desktop: stored in the OS keychain; browser: read from the environment of
// `arena serve`) and facts about this installation.
import { type FormEvent, useState } from 'react';
import type { ArenaApi, SecretList } from '../../../../engine/contract/channels.js';
import { useArena } from '../../app-context.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Loading } from '../../ui/loading.js';
import { PageHeader } from '../../ui/page-header.js';
import { useResource } from '../../ui/use-resource.js';
import { checkKeyForm, DATA_FOLDER_RULE, keychainState, serveWithKeyExample } from './settings-logic.js';

export function SettingsPage() {
  const { shell } = useArena();
  return (
    <>
      <PageHeader title="Settings" subtitle="API keys for model agents and facts about this installation." />
      <div className="stack">
        {shell ? <KeychainKeys shell={shell} /> : <EnvironmentKeys />}
        <About shell={shell} />
      </div>
    </>
  );
}

function KeychainKeys({ shell }: { shell: ArenaApi }) {
  const initial = useResource(() => shell.listSecrets(), []);
  // Each change answers with the new list; it replaces the loaded one.
  const [latest, setLatest] = useState<SecretList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const list = latest ?? initial.data;
  if (!list) {
    return (
      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        {initial.error ? <ErrorNotice error={initial.error} onRetry={initial.reload} /> : <Loading label="Loading stored keys…" />}
      </section>
    );
  }

  const run = async (action: () => Promise<SecretList>, done: string) => {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      setLatest(await action());
      setStatus(done);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const state = keychainState(list);
  return (
    <section className="card stack" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <div className={state.canStore ? 'notice' : 'notice notice-error'} role={state.canStore ? undefined : 'alert'}>
        <div>
          <strong>{state.title}</strong>
          <span className="notice-detail">{state.detail}</span>
        </div>
      </div>
      {error ? <ErrorNotice error={error} compact /> : null}
      {/* Always mounted, so screen readers announce each change; takes no room while empty. */}
      <p className={status ? 'muted small' : 'sr-only'} role="status" aria-live="polite">
        {status}
      </p>
      {list.names.length === 0 ? (
        <p className="empty">No keys stored.</p>
      ) : (
        <table className="table" aria-label="Stored API keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.names.map((name) => (
              <tr key={name}>
                <td className="mono">{name}</td>
                <td className="muted">stored, never shown</td>
                <td>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Delete ${name}`}
                    disabled={busy}
                    onClick={() => run(() => shell.deleteSecret(name), `Deleted ${name}.`)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {state.canStore ? (
        <KeyForm
          stored={list.names}
          busy={busy}
          onSave={(name, value, replaces) => run(() => shell.setSecret(name, value), replaces ? `Replaced ${name}.` : `Saved ${name}.`)}
        />
      ) : null}
    </section>
  );
}

function KeyForm({
  stored,
  busy,
  onSave,
}: {
  stored: readonly string[];
  busy: boolean;
  onSave: (name: string, value: string, replaces: boolean) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<{ field: 'name' | 'value'; message: string } | null>(null);
  const replacing = stored.includes(name.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = checkKeyForm(name, value, stored);
    if (!check.ok) {
      setProblem({ field: check.field, message: check.message });
      return;
    }
    setProblem(null);
    await onSave(check.name, value, check.replaces);
    // The key is in the keychain now (or the error says why not); it does not stay in the page's memory either way.
    setValue('');
  };

  return (
    <form className="stack" onSubmit={submit} aria-labelledby="key-form-title" noValidate>
      <h3 id="key-form-title">Add or replace a key</h3>
      <label className="field">
        <span className="field-label">Variable name</span>
        <input
          name="secret-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="OPENAI_API_KEY"
          list="stored-key-names"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem?.field === 'name'}
          aria-describedby={problem?.field === 'name' ? 'key-form-problem' : undefined}
        />
      </label>
      <datalist id="stored-key-names">
        {stored.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <label className="field">
        <span className="field-label">Key</span>
        <input
          type="password"
          name="secret-value"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem?.field === 'value'}
          aria-describedby={problem?.field === 'value' ? 'key-form-problem' : undefined}
        />
      </label>
      {problem ? (
        <p className="field-error" id="key-form-problem" role="alert">
          {problem.message}
        </p>
      ) : null}
      <div className="row-gap">
        <button type="submit" className="button button-primary" disabled={busy}>
          {replacing ? 'Replace key' : 'Save key'}
        </button>
      </div>
      <p className="muted small">
        A manifest grants a key to its agent by listing the name under <code>secrets:</code>. Keys are never written to manifests, logs,
        transcripts or reports.
      </p>
    </form>
  );
}

function EnvironmentKeys() {
  const example = serveWithKeyExample();
  return (
    <section className="card stack" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p>
        This page is served by <code>arena serve</code>, which reads API keys from the environment of the shell that started it. Keys cannot
        be stored from the browser. Set them before starting the engine, then restart it to pick up changes:
      </p>
      <div className="field">
        <span className="field-label">macOS and Linux</span>
        <pre className="code-block">{example.posix}</pre>
      </div>
      <div className="field">
        <span className="field-label">Windows PowerShell</span>
        <pre className="code-block">{example.powershell}</pre>
      </div>
      <p className="muted small">
        An agent receives only the variables its manifest lists under <code>secrets:</code>. The desktop app stores keys in the OS keychain
        instead.
      </p>
    </section>
  );
}

function About({ shell }: { shell: ArenaApi | undefined }) {
  const { overview, connection } = useArena();
  const appVersion = useResource(() => (shell ? shell.appVersion() : Promise.resolve(null)), [Boolean(shell)]);
  const [revealError, setRevealError] = useState<unknown>(null);

  return (
    <section className="card stack" aria-labelledby="about-title">
      <h2 id="about-title">About</h2>
      <dl className="facts">
        {shell ? (
          <>
            <dt>App version</dt>
            <dd>{appVersion.data ?? (appVersion.error ? 'unknown' : '…')}</dd>
          </>
        ) : null}
        <dt>Engine version</dt>
        <dd>{overview.version}</dd>
        <dt>Mode</dt>
        <dd>{connection.mode === 'electron' ? 'Desktop app' : 'Browser (arena serve)'}</dd>
        <dt>Engine address</dt>
        <dd className="mono">{connection.baseUrl}</dd>
        <dt>Data folder</dt>
        <dd>
          {overview.dataDir ? <DataFolderPath path={overview.dataDir} /> : null}
          <span className="muted small settings-data-note">
            {shell ? 'Holds the database, reports and stored keys.' : DATA_FOLDER_RULE}
          </span>
        </dd>
      </dl>
      {shell ? (
        <div className="row-gap">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setRevealError(null);
              shell.revealDataFolder().catch(setRevealError);
            }}
          >
            Open data folder
          </button>
        </div>
      ) : null}
      {revealError ? <ErrorNotice error={revealError} compact /> : null}
    </section>
  );
}

/** The data folder's path as text, with a button that copies it. */
function DataFolderPath({ path }: { path: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(path).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <span className="row-gap settings-data-path">
      <code className="mono" data-testid="data-folder-path">
        {path}
      </code>
      <button type="button" className="button button-secondary button-small" onClick={copy} aria-label="Copy data folder path">
        Copy
      </button>
      <span className="muted small" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Could not copy; select the path instead.' : ''}
      </span>
    </span>
  );
}

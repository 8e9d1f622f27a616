import { type FormEvent, useState } from 'react';
import type { AdminCreateSessionResponse } from '../../../../engine/contract/admin.js';
import { useArena } from '../../app-context.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { CreatedSession } from './created-session.js';
import { parseOptionsText } from './parse-options.js';

export function CreateSessionPanel({ initialType, onCreated }: { initialType?: string | undefined; onCreated: () => void }) {
  const { client, overview } = useArena();
  const types = Object.keys(overview.challenges);
  const [type, setType] = useState(() => (initialType && types.includes(initialType) ? initialType : (types[0] ?? '')));
  const [optionsText, setOptionsText] = useState('');
  const [seatKeys, setSeatKeys] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [optionsError, setOptionsError] = useState<string | null>(null);
  const [created, setCreated] = useState<AdminCreateSessionResponse | null>(null);

  if (types.length === 0) {
    return (
      <section className="card">
        <h2>New session</h2>
        <p className="muted">This engine has no challenges installed.</p>
      </section>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const options = parseOptionsText(optionsText);
    if (!options.ok) {
      setOptionsError(options.message);
      return;
    }
    setOptionsError(null);
    setBusy(true);
    setError(null);
    try {
      const result = await client.createSession({ challengeType: type, seatKeys, ...(options.value ? { options: options.value } : {}) });
      setCreated(result);
      onCreated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const metadata = overview.challenges[type];
  return (
    <section className="card" aria-labelledby="new-session-title">
      <h2 id="new-session-title">New session</h2>
      <form className="create-form" onSubmit={submit}>
        <label className="field">
          <span className="field-label">Challenge</span>
          <select value={type} onChange={(e) => setType(e.target.value)} name="challengeType" data-testid="challenge-select">
            {types.map((t) => (
              <option key={t} value={t}>
                {overview.challenges[t]?.name ?? t} ({t})
              </option>
            ))}
          </select>
        </label>
        <label className="field field-inline">
          <input type="checkbox" checked={seatKeys} onChange={(e) => setSeatKeys(e.target.checked)} />
          <span>Issue seat keys</span>
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create session'}
        </button>
        {metadata ? (
          <p className="create-summary muted small">
            {metadata.players} players · {metadata.description}
          </p>
        ) : null}
        <details className="create-advanced">
          <summary>Challenge options (JSON, optional)</summary>
          <textarea
            value={optionsText}
            onChange={(e) => setOptionsText(e.target.value)}
            rows={3}
            spellCheck={false}
            placeholder='Leave empty for the defaults, e.g. {"setSize": 8}'
            aria-invalid={optionsError !== null}
          />
        </details>
        {optionsError ? (
          <span className="field-error" role="alert">
            {optionsError}
          </span>
        ) : null}
      </form>
      {error ? <ErrorNotice error={error} compact /> : null}
      {created ? <CreatedSession created={created} onDismiss={() => setCreated(null)} /> : null}
    </section>
  );
}

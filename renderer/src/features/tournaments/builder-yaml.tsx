// The definition as YAML: saved through the export helper, loaded from a file or pasted text.
import { useId, useState } from 'react';
import { useArena } from '../../app-context.js';
import { exportFile } from '../../ui/export-file.js';
import { parseSpecYaml, portableSpec, specToYaml } from './builder-form.js';

export function YamlPanel({
  spec,
  baseDir,
  onImport,
}: {
  spec: Record<string, unknown>;
  /** Manifests inside it are written relative to it, so the file names no folder of this machine. */
  baseDir: string;
  /** Loads the definition into the form; returns how many problems the page found in it, and at which fields. */
  onImport: (raw: Record<string, unknown>) => { count: number; fields: string[] };
}) {
  const { shell } = useArena();
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [pasted, setPasted] = useState('');
  const fileId = useId();
  const pasteId = useId();
  const yaml = specToYaml(portableSpec(spec, baseDir));

  const load = (text: string, source: string) => {
    const parsed = parseSpecYaml(text);
    if (!parsed.ok) {
      setMessage({ kind: 'error', text: `${source}: ${parsed.error}` });
      return;
    }
    const problems = onImport(parsed.raw);
    setMessage(
      problems.count === 0
        ? { kind: 'ok', text: `Loaded ${source}.` }
        : {
            kind: 'error',
            text: `Loaded ${source}, but it is not valid: ${problems.count} problem${problems.count === 1 ? '' : 's'} (${problems.fields.join(', ')}), each shown beside its field. Nothing was replaced by a default.`,
          },
    );
  };

  const save = () => {
    const name = typeof spec.name === 'string' && spec.name !== '' ? spec.name : 'tournament';
    exportFile({ suggestedName: `${name}.yaml`, content: yaml, filter: { name: 'YAML', extensions: ['yaml', 'yml'] } }, shell).then(
      (result) => setMessage(result.saved ? { kind: 'ok', text: result.path ? `Saved to ${result.path}.` : 'Download started.' } : null),
      (error: unknown) => setMessage({ kind: 'error', text: `Could not save: ${(error as Error).message}` }),
    );
  };

  return (
    <section className="card t-section" aria-labelledby={`${fileId}-title`}>
      <h2 id={`${fileId}-title`}>Definition (YAML)</h2>
      <p className="muted small">The same file `arena run` takes. Save it to rerun from the command line or share the setup.</p>
      <div className="row-gap">
        <button type="button" className="button button-secondary button-small" onClick={save}>
          Export YAML
        </button>
        <input
          id={fileId}
          type="file"
          accept=".yaml,.yml,.json,application/yaml,application/json,text/yaml"
          className="sr-only"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            file.text().then(
              (text) => load(text, file.name),
              () => setMessage({ kind: 'error', text: `Could not read ${file.name}.` }),
            );
          }}
        />
        {/* After the input, so the input's keyboard focus can outline this visible stand-in (CSS sibling rule). */}
        <label className="button button-secondary button-small t-file-button" htmlFor={fileId}>
          Import YAML file
        </label>
      </div>
      {message ? (
        <p className={message.kind === 'error' ? 'field-error small' : 'muted small'} role="status">
          {message.text}
        </p>
      ) : null}
      <details className="t-details">
        <summary>Paste YAML</summary>
        <label className="field-label" htmlFor={pasteId}>
          Tournament definition to load
        </label>
        <textarea id={pasteId} className="t-textarea mono" rows={8} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={pasted.trim() === ''}
          onClick={() => load(pasted, 'the pasted definition')}
        >
          Load pasted YAML
        </button>
      </details>
      <details className="t-details">
        <summary>Preview</summary>
        <pre className="code-block" data-testid="yaml-preview">
          {yaml}
        </pre>
      </details>
    </section>
  );
}

// Export buttons: fetch the file (text, or bytes for a bundle), then save it through the shell's dialog or as a browser download.
import { useState } from 'react';
import { useArena } from '../../app-context.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { exportFile } from '../../ui/export-file.js';

export interface ExportChoice {
  /** Button text, e.g. "Export JSONL"; also its accessible name. */
  label: string;
  fileName: string;
  filter: { name: string; extensions: string[] };
  load(): Promise<string | Uint8Array>;
}

export function ExportButtons({ choices, testId }: { choices: ExportChoice[]; testId?: string }) {
  const { shell } = useArena();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const run = async (choice: ExportChoice) => {
    setBusy(choice.label);
    setError(null);
    setSaved(null);
    try {
      const content = await choice.load();
      const result = await exportFile({ suggestedName: choice.fileName, content, filter: choice.filter }, shell);
      if (result.saved) setSaved(result.path ? `Saved ${result.path}` : `Downloaded ${choice.fileName}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="rp-exports" data-testid={testId}>
      <fieldset className="row-gap rp-export-group">
        <legend className="sr-only">Export</legend>
        {choices.map((choice) => (
          <button
            key={choice.label}
            type="button"
            className="button button-secondary button-small"
            disabled={busy !== null}
            onClick={() => void run(choice)}
          >
            {busy === choice.label ? 'Exporting…' : choice.label}
          </button>
        ))}
      </fieldset>
      <span className="muted small" role="status">
        {saved ?? ''}
      </span>
      {error ? <ErrorNotice error={error} compact /> : null}
    </div>
  );
}

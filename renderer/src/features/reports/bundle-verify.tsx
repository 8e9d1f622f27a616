// Verify an audit bundle in the app: a file chosen or dropped here goes to the engine's verifier (the one `arena verify`
// runs) and each check and difference is shown as the engine words it; the page re-implements none of them.
import { type DragEvent, useId, useRef, useState } from 'react';
import { BUNDLE_UPLOAD_LIMIT_BYTES, type BundleVerification } from '../../../../engine/contract/audit-bundle.js';
import { useArena } from '../../app-context.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { verifyBundleFile } from './reports-api.js';

type Outcome =
  | { file: string; phase: 'checking' }
  | { file: string; phase: 'done'; result: BundleVerification }
  | { file: string; phase: 'failed'; error: unknown };

export function BundleVerifyPanel() {
  const { client } = useArena();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [dragging, setDragging] = useState(false);
  // Only the latest file's answer is shown when several are dropped in a row.
  const latest = useRef(0);
  const inputId = useId();
  const titleId = useId();

  const check = async (file: File) => {
    const n = ++latest.current;
    if (file.size > BUNDLE_UPLOAD_LIMIT_BYTES) {
      const limit = `${BUNDLE_UPLOAD_LIMIT_BYTES / (1024 * 1024)} MiB`;
      setOutcome({
        file: file.name,
        phase: 'failed',
        error: new Error(`${file.name} is larger than ${limit}; check it with arena verify.`),
      });
      return;
    }
    setOutcome({ file: file.name, phase: 'checking' });
    try {
      const result = await verifyBundleFile(client, file);
      if (n === latest.current) setOutcome({ file: file.name, phase: 'done', result });
    } catch (error) {
      if (n === latest.current) setOutcome({ file: file.name, phase: 'failed', error });
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void check(file);
  };

  return (
    <section className="card" aria-labelledby={titleId} data-testid="bundle-verify">
      <h2 id={titleId}>Verify an audit bundle</h2>
      <p className="muted small">
        The engine checks the file as <code>arena verify</code> does: every file against its SHA-256 in bundle.json, the run manifest
        against its hash, carried agent files against the hashes the run recorded, and the standings and ratings recomputed from the game
        records.
      </p>
      {/* Only a drop target (mouse drags only); the file input inside is the keyboard and screen-reader route. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: drag events have no role; the same action has a button. */}
      <div
        className={dragging ? 'rp-drop rp-drop-active' : 'rp-drop'}
        data-testid="bundle-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span className="muted">Drop a bundle file (.tar.gz) here, or</span>
        <input
          id={inputId}
          type="file"
          accept=".gz,.tgz,application/gzip"
          className="sr-only"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void check(file);
          }}
        />
        <label className="button button-secondary button-small rp-file-button" htmlFor={inputId}>
          Choose a bundle file
        </label>
      </div>
      {outcome?.phase === 'checking' ? (
        <p className="muted" role="status">
          Verifying {outcome.file}…
        </p>
      ) : null}
      {outcome?.phase === 'failed' ? <ErrorNotice error={outcome.error} compact /> : null}
      {outcome?.phase === 'done' ? <Verdict file={outcome.file} result={outcome.result} /> : null}
    </section>
  );
}

/** The verdict in the CLI's words: differences first (each names its file), then what was checked and held. */
function Verdict({ file, result }: { file: string; result: BundleVerification }) {
  return (
    <div className="rp-verdict" data-testid="bundle-verdict" data-ok={String(result.ok)}>
      <p className={result.ok ? 'rp-verdict-ok' : 'rp-verdict-fail'} role="status">
        {result.ok ? `Verified: ${file}` : `${result.problems.length} difference(s) in ${file}`}
      </p>
      <ul className="rp-checks">
        {result.problems.map((problem) => (
          <li key={`fail:${problem}`} className="rp-check-fail" data-testid="bundle-problem">
            <span className="rp-check-mark">FAIL</span> {problem}
          </li>
        ))}
        {result.checks.map((check) => (
          <li key={`ok:${check}`} data-testid="bundle-check">
            <span className="rp-check-mark">ok</span> {check}
          </li>
        ))}
      </ul>
    </div>
  );
}

import { useEffect, useState } from 'react';

/** Copies a value (invites, ids) for handing to agents; falls back to a prompt-free "select it yourself" hint. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <button type="button" className="button button-small button-ghost" onClick={copy} aria-label={`${label} ${value}`}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select to copy' : label}
    </button>
  );
}

import { useEffect, useState } from 'react';

/** Copies a long text (a raw report, a prompt); its accessible name is the label, never the text itself. */
export function CopyTextButton({ text, label, visible = 'Copy' }: { text: string; label: string; visible?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <button type="button" className="button button-small button-secondary" onClick={copy} aria-label={label}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select to copy' : visible}
    </button>
  );
}

import { useEffect, useState } from 'react';

/**
 * Copies a text (an invite, an id, a raw report, a prompt); falls back to a "select it yourself" hint. Its accessible
 * name is `label`, by default "Copy <text>", so several copy buttons on one page stay distinct for screen readers;
 * pass a label for long texts so the name never reads the whole text out.
 */
export function CopyButton({ text, label, visible = 'Copy' }: { text: string; label?: string; visible?: string }) {
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
    <button type="button" className="button button-small button-secondary" onClick={copy} aria-label={label ?? `Copy ${text}`}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select to copy' : visible}
    </button>
  );
}

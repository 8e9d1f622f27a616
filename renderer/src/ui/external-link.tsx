import type { ReactNode } from 'react';
import { useArena } from '../app-context.js';

/** Web links open in the system browser: through the shell's allow-listed API in Electron, a new tab otherwise. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  const { shell } = useArena();
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(event) => {
        if (!shell) return;
        event.preventDefault();
        void shell.openExternal(href).catch(() => {});
      }}
    >
      {children}
    </a>
  );
}

// Which program serves a sandbox's forwarded endpoints on its loopback: arena-forward, built with the app from
// native/arena-forward.c (one small static process that binds every listener before it returns), or socat where it
// was not built (no C compiler at install) or cannot be run by the uid the agent runs as.
import fs from 'node:fs';
import path from 'node:path';
import { contentRoot } from '../runtime/package-root.js';

export interface ForwarderTool {
  kind: 'arena-forward' | 'socat';
  path: string;
}

/** The built arena-forward (dist/native, unpacked in the app), or null when it is not there or not executable. */
export function builtForwarder(root = contentRoot()): string | null {
  const file = path.join(root, 'dist', 'native', 'arena-forward');
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    return null;
  }
}

/** arena-forward when it is there (and `usable` by the launch's uid), else socat; null when neither is. */
export function forwarderTool(
  support: { arenaForward?: string | null; socat?: string | null },
  usable: (file: string) => boolean = () => true,
): ForwarderTool | null {
  if (support.arenaForward && usable(support.arenaForward)) return { kind: 'arena-forward', path: support.arenaForward };
  if (support.socat) return { kind: 'socat', path: support.socat };
  return null;
}

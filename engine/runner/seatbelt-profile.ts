// The macOS Seatbelt (`sandbox-exec -p`) profile for one agent, the same rules as the Linux sandbox where Seatbelt can
// express them: deny by default; read the SandboxView's folders; read and write the workspace and a private temp
// folder; signal and inspect only processes of the same sandbox; connect only to the forwarded endpoints. Seatbelt
// matches remote addresses by IP and port only ("localhost" or "*"), so an allowed host name becomes "*:PORT".
import type { SandboxView } from './sandbox-view.js';

export interface SeatbeltInput {
  view: SandboxView;
  /** Private temp folder (TMPDIR), writable. */
  tmpDir: string;
  /** `host:port` endpoints the agent may connect to. */
  endpoints: readonly string[];
  /** Share the host network (the operator asked for it). */
  shareNet: boolean;
}

export function seatbeltProfile(input: SeatbeltInput): string {
  const { view } = input;
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    // No PID namespace here: other processes exist, but the agent may only signal and inspect its own sandbox.
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    // Node and Python resolve paths component by component (lstat of each parent): metadata stays readable, so a
    // name can be probed for existence and size, never listed (readdir needs file-read-data) or read.
    '(allow file-read-metadata)',
    `(allow file-read* ${[...view.readOnly.map((r) => subpath(r.source)), ...view.symlinks.map((s) => literal(s.link))].join(' ')})`,
    `(allow file-read* file-write* ${subpath(view.workspace)} ${subpath(input.tmpDir)} (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty"))`,
    '(allow file-read* (literal "/dev/random") (literal "/dev/urandom"))',
  ];
  for (const hidden of view.hidden) lines.push(`(deny file-read* file-write* ${subpath(hidden)})`);
  for (const file of view.hiddenFiles ?? []) lines.push(`(deny file-read* file-write* ${literal(file)})`);
  if (input.shareNet) lines.push('(allow network*)');
  else if (input.endpoints.length > 0) {
    const remotes = [...new Set(input.endpoints.map(remoteOf))];
    lines.push(`(allow network-outbound ${remotes.map((r) => `(remote tcp ${quote(r)})`).join(' ')})`);
    // Host names are resolved through mDNSResponder; loopback-only profiles do not need it.
    if (remotes.some((r) => r.startsWith('*:'))) lines.push('(allow network-outbound (literal "/private/var/run/mDNSResponder"))');
  }
  return `${lines.join('\n')}\n`;
}

function remoteOf(endpoint: string): string {
  const at = endpoint.lastIndexOf(':');
  const host = endpoint.slice(0, at);
  const port = endpoint.slice(at + 1);
  return host === 'localhost' || /^127\./.test(host) ? `localhost:${port}` : `*:${port}`;
}

function subpath(p: string): string {
  return `(subpath ${quote(p)})`;
}

function literal(p: string): string {
  return `(literal ${quote(p)})`;
}

/** A Scheme string literal: backslashes and double quotes escaped, so no path can end the string early. */
export function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

// The sandbox's endpoint forwarder (engine/runner/native/arena-forward.c), compiled where a C compiler is present:
// static when the C library allows it (nothing to load inside the sandbox), else linked as usual. Without a compiler,
// or off Linux, nothing is built and the sandbox uses socat (engine/runner/forwarder-tool.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const FORWARDER_SOURCE = path.join(root, 'engine', 'runner', 'native', 'arena-forward.c');

/** Compiles the forwarder to `out`; returns null when built, else why not (one line). */
export function buildForwarder(out) {
  if (process.platform !== 'linux') return `not needed on ${process.platform}`;
  const cc = process.env.CC || 'cc';
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const flags = ['-O2', '-s', '-Wall', '-o', out, FORWARDER_SOURCE];
  let why = '';
  for (const link of [['-static'], []]) {
    const r = spawnSync(cc, [...link, ...flags], { encoding: 'utf8' });
    if (r.status === 0) return null;
    why = (r.error?.message ?? r.stderr ?? `exit ${r.status}`).trim().split('\n')[0];
    if (r.error) break; // no compiler at all
  }
  fs.rmSync(out, { force: true });
  return why;
}

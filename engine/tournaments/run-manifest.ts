// The run manifest (§10): app version, the definition, the seed, and SHA-256 of every agent manifest, entry file and
// challenge module folder. Its canonical-JSON hash guards resume: a changed agent or challenge is a different run.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { commandArgv } from '../runner/agent-command.js';
import { canonicalJson, sha256Hex } from '../runtime/canonical-json.js';
import { APP_VERSION } from '../runtime/version.js';
import type { LoadedSpec } from './spec-file.js';

export const RUN_MANIFEST_VERSION = 1;

export interface RunManifest {
  manifest_version: number;
  app: { name: string; version: string };
  spec: Record<string, unknown>;
  seed: string | number;
  seed_rule: string;
  placement_rule: string;
  agents: Array<{ id: string; manifest_id: string; manifest_sha256: string; entry_file: string | null; entry_sha256: string | null }>;
  challenges: Array<{ id: string; module_sha256: string }>;
  /** Agents whose folder the user marked trusted: they ran without the OS sandbox (absent when none did). */
  unsandboxed_agents?: string[];
}

export function fileSha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Hash of a folder: relative path and content hash of every file, sorted; agent subfolders are left out. */
export function folderSha256(dir: string, skip: (rel: string) => boolean = () => false): string {
  const lines: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (skip(child)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) lines.push(`${child}\u0000${fileSha256(path.join(dir, child))}`);
    }
  };
  walk('');
  lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The first argument of the command that names an existing file (`node agent.mjs` → agent.mjs). */
function entryFile(loaded: LoadedSpec['agents'][number]): string | null {
  try {
    const argv = commandArgv(loaded.manifest.entrypoint, loaded.dir);
    for (const arg of argv.slice(1)) if (path.isAbsolute(arg) && fs.existsSync(arg) && fs.statSync(arg).isFile()) return arg;
    const first = argv[0];
    if (first && path.isAbsolute(first) && fs.existsSync(first)) return first;
  } catch {
    // A broken command is reported when the agent is launched.
  }
  return null;
}

const PLACEMENT_RULE = 'higher utility places first; equal utility is broken by higher security; equal on both is a draw';
/** Only runs with ClawArena games say so, so the hash of existing SpecArena runs stays what it was. */
const CLAW_PLACEMENT_RULE = 'ClawArena games: the placements of the match result (1 = best, ties share a place)';

export function buildRunManifest(
  loaded: LoadedSpec,
  challengeDir: (id: string) => string,
  spec: Record<string, unknown>,
  isClawGame: (id: string) => boolean = () => false,
  trusted: readonly string[] = [],
): RunManifest {
  const claw = loaded.spec.challenges.some(isClawGame);
  return {
    manifest_version: RUN_MANIFEST_VERSION,
    app: { name: 'local-arena', version: APP_VERSION },
    spec,
    seed: loaded.spec.seed,
    seed_rule: 'opening seed = deriveSeed(run seed, "opening:<challenge>:<round>:<pairing>:<opening>") (engine/core/tournament/seeds.ts)',
    placement_rule: claw ? `${PLACEMENT_RULE}; ${CLAW_PLACEMENT_RULE}` : PLACEMENT_RULE,
    agents: loaded.agents.map((a) => {
      const entry = entryFile(a);
      return {
        id: a.id,
        manifest_id: a.manifest.id,
        manifest_sha256: fileSha256(a.manifestFile),
        entry_file: entry === null ? null : path.relative(a.dir, entry) || path.basename(entry),
        entry_sha256: entry === null ? null : fileSha256(entry),
      };
    }),
    challenges: loaded.spec.challenges.map((id) => ({
      id,
      module_sha256: folderSha256(challengeDir(id), (rel) => rel === 'agents' || rel.startsWith('agents/')),
    })),
    // Only runs with trusted agents say so, so the hash of every sandboxed run stays what it was.
    ...(trusted.length > 0 ? { unsandboxed_agents: [...trusted] } : {}),
  };
}

export function manifestHash(manifest: RunManifest): string {
  return `sha256:${sha256Hex(canonicalJson(manifest))}`;
}

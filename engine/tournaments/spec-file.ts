// Loads a tournament definition from a YAML or JSON file: the schema from engine/core/tournament, then every agent
// manifest (paths relative to the spec file) and every challenge. All problems are collected, one line each.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadManifest, ManifestLoadError } from '../agents/manifest-loader.js';
import { parseYamlText } from '../agents/yaml-file.js';
import { DomainError, EngineErrorCode, type ErrorIssue, issueLine } from '../contract/errors.js';
import type { AgentManifest } from '../contract/manifest.js';
import { parseTournamentSpec, type TournamentSpec, TournamentSpecSchema } from '../core/tournament/index.js';
import { commandArgv } from '../runner/agent-command.js';
import { DefinitionReadError, readDefinitionText } from '../runtime/bounded-read.js';

const SPEC_KEYS = Object.keys(TournamentSpecSchema.in.shape);

/** A definition that cannot run: every problem with the field it belongs to ('' for the file as a whole). */
export class TournamentSpecError extends DomainError {
  override name = 'TournamentSpecError';
  constructor(
    readonly source: string,
    issues: readonly ErrorIssue[],
  ) {
    super('invalid', `${source}: invalid tournament definition\n  ${issues.map(issueLine).join('\n  ')}`, {
      code: EngineErrorCode.ValidationFailed,
      issues,
    });
  }

  /** One `path: message` line per problem, as the CLI prints them. */
  get problems(): string[] {
    return this.issues.map(issueLine);
  }
}

const whole = (message: string): ErrorIssue => ({ path: '', message });

export interface TournamentAgent {
  /**
   * The id the tournament knows it by: the spec's `id`, else the manifest's own `id`, with a short content hash
   * (`@1a2b3c4`) when two agents of the run share a manifest id (two versions of one agent). Never a path.
   */
  id: string;
  /** The manifest's `name`. */
  name: string;
  manifest: AgentManifest;
  manifestFile: string;
  dir: string;
}

export interface LoadedSpec {
  spec: TournamentSpec;
  /** Folder manifest paths are resolved against. */
  specDir: string;
  agents: TournamentAgent[];
}

export interface ChallengeLookup {
  /** Seats of a challenge, or undefined when it is not installed. */
  seatsOf(challenge: string): number | undefined;
  /** Which agents play the challenge: SpecArena (default) or a ClawArena game type. */
  protocolOf?(challenge: string): 'specarena' | 'clawarena';
  /** Throws with a message when the options are invalid for the challenge. */
  validateOptions?(challenge: string, options: Record<string, unknown>): void;
}

/** Parses the text of a definition; JSON is valid YAML, so one parser reads both. */
export function parseSpecText(text: string, source: string): unknown {
  const parsed = parseYamlText(text);
  if ('problem' in parsed)
    throw new TournamentSpecError(source, [whole(`not valid YAML or JSON: ${parsed.problem.replace(/^invalid YAML:? ?/, '')}`)]);
  return parsed.value;
}

export function readSpecFile(file: string): { raw: unknown; specDir: string } {
  let text: string;
  try {
    text = readDefinitionText(file);
  } catch (error) {
    if (error instanceof DefinitionReadError) throw new TournamentSpecError(file, [whole(error.message)]);
    throw error;
  }
  const raw = parseSpecText(text, file);
  // Some other file (a symlink to credentials, say) must not be echoed back through the schema's messages.
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !Object.keys(raw).some((key) => SPEC_KEYS.includes(key))) {
    throw new TournamentSpecError(file, [whole('is not a tournament definition: none of its top-level keys is a known field')]);
  }
  return { raw, specDir: path.dirname(path.resolve(file)) };
}

/** Validates a parsed definition against the schema, the agent manifests and the installed challenges. */
export function resolveSpec(raw: unknown, specDir: string, challenges: ChallengeLookup, source = 'tournament'): LoadedSpec {
  const parsed = parseTournamentSpec(raw);
  if (!parsed.ok) throw new TournamentSpecError(source, parsed.issues);
  const spec = parsed.spec;
  const problems: ErrorIssue[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  for (const [i, challenge] of spec.challenges.entries()) {
    const seats = challenges.seatsOf(challenge);
    const where = spec.challenges.length === 1 ? 'challenge' : `challenges[${i}]`;
    if (seats === undefined) {
      problem(where, `unknown challenge '${challenge}'`);
      continue;
    }
    if ((spec.format.kind === 'swiss' || spec.format.kind === 'knockout') && seats !== 2)
      problem(where, `${spec.format.kind} needs two-seat challenges; '${challenge}' has ${seats} seats`);
    try {
      challenges.validateOptions?.(challenge, spec.options);
    } catch (error) {
      problem('options', (error as Error).message);
    }
  }
  const agents: TournamentAgent[] = [];
  spec.agents.forEach((entry, i) => {
    const file = path.resolve(specDir, entry.manifest);
    const manifestFile = fs.existsSync(file) && fs.statSync(file).isDirectory() ? path.join(file, 'agent.yaml') : file;
    try {
      const manifest = loadManifest(manifestFile);
      // Every challenge of the run must speak the agent's protocol (no mixed runs: one agent plays every game).
      const needed = [...new Set(spec.challenges.map((c) => challenges.protocolOf?.(c) ?? 'specarena'))];
      if (needed.length > 1) {
        if (i === 0) problem('challenges', 'SpecArena challenges and ClawArena games cannot share a tournament');
      } else if (manifest.protocol !== needed[0])
        problem(`agents[${i}].manifest`, `protocol is '${manifest.protocol}', these challenges need '${needed[0]}'`);
      else if (manifest.protocol === 'clawarena' && manifest.challenges.length > 0)
        for (const c of spec.challenges)
          if (!manifest.challenges.includes(c)) problem(`agents[${i}].manifest`, `does not list '${c}' in its challenges`);
      if (manifest.entrypoint.type !== 'command') problem(`agents[${i}].manifest`, 'only command entrypoints can play tournaments for now');
      const lifecycle = entry.lifecycle ?? manifest.lifecycle;
      agents.push({
        id: entry.id ?? manifest.id,
        name: manifest.name,
        manifest: { ...manifest, lifecycle },
        manifestFile,
        dir: path.dirname(manifestFile),
      });
    } catch (error) {
      const detail = error instanceof ManifestLoadError ? error.problems.join('; ') : (error as Error).message;
      problem(`agents[${i}].manifest`, `${entry.manifest}: ${detail}`);
    }
  });
  if (problems.length > 0) throw new TournamentSpecError(source, problems);
  distinguishVersions(agents, spec.agents);
  return { spec, specDir, agents };
}

/**
 * Agents named by their manifest id that share it (two versions of one agent) get `@` + the first 7 hex digits of
 * the hash of their manifest and entry files; identical copies are numbered after that.
 */
function distinguishVersions(agents: TournamentAgent[], entries: ReadonlyArray<{ id?: string | undefined }>): void {
  const byId = new Map<string, number[]>();
  agents.forEach((agent, i) => {
    byId.set(agent.id, [...(byId.get(agent.id) ?? []), i]);
  });
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    const seen = new Map<string, number>();
    // A spec `id` is unique by the schema and stays; the agents named by their manifest are told apart.
    for (const i of group) {
      if (entries[i]?.id !== undefined) continue;
      const agent = agents[i] as TournamentAgent;
      const short = agentContentHash(agent).slice(0, 7);
      const n = (seen.get(short) ?? 0) + 1;
      seen.set(short, n);
      agent.id = `${agent.manifest.id}@${short}${n > 1 ? `-${n}` : ''}`;
    }
  }
}

/** SHA-256 over the manifest file and the entry file the command names (when there is one). */
export function agentContentHash(agent: Pick<TournamentAgent, 'manifestFile' | 'manifest' | 'dir'>): string {
  const hash = createHash('sha256').update(fs.readFileSync(agent.manifestFile));
  const entry = entryFileOf(agent);
  if (entry) hash.update('\u0000').update(fs.readFileSync(entry));
  return hash.digest('hex');
}

/** The first argument of the command that names an existing file inside the agent's folder (`node agent.mjs`). */
export function entryFileOf(agent: Pick<TournamentAgent, 'manifest' | 'dir'>): string | null {
  return resolveEntryFile(agent).file;
}

export const ENTRY_OUTSIDE =
  "the command names a file outside the agent's folder (a '..' path, an absolute path or a symlink leaving it): not recorded, hashed or bundled";

/**
 * The entry file the run manifest records, hashes and an audit bundle carries: the first argument of the command
 * naming an existing file (else the program itself, when it is a file of the folder), and only when it stays inside
 * the agent's folder, also after symlinks. A file argument outside it gives no entry file and the reason
 * (`/proc/self/environ` or another data directory's key must never be copied into a bundle).
 */
export function resolveEntryFile(agent: Pick<TournamentAgent, 'manifest' | 'dir'>): { file: string | null; skipped: string | null } {
  const isFile = (p: string | undefined): p is string =>
    p !== undefined && path.isAbsolute(p) && fs.existsSync(p) && fs.statSync(p).isFile();
  try {
    const argv = commandArgv(agent.manifest.entrypoint, agent.dir);
    const arg = argv.slice(1).find(isFile);
    if (arg !== undefined) return insideFolder(agent.dir, arg) ? { file: arg, skipped: null } : { file: null, skipped: ENTRY_OUTSIDE };
    // A program outside the folder (/usr/bin/python3) is the runtime, not the agent's file: nothing to say.
    if (isFile(argv[0]) && insideFolder(agent.dir, argv[0])) return { file: argv[0], skipped: null };
  } catch {
    // A broken command is reported when the agent is launched.
  }
  return { file: null, skipped: null };
}

/** `file` lies under `dir` both as written and once every symlink is resolved. */
export function insideFolder(dir: string, file: string): boolean {
  const under = (base: string, target: string) => {
    const rel = path.relative(base, target);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  try {
    return under(path.resolve(dir), path.resolve(file)) && under(fs.realpathSync(dir), fs.realpathSync(file));
  } catch {
    return false;
  }
}

export function loadSpecFile(file: string, challenges: ChallengeLookup): LoadedSpec {
  const { raw, specDir } = readSpecFile(file);
  return resolveSpec(raw, specDir, challenges, file);
}

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
      agents.push({ id: entry.id ?? manifest.id, name: manifest.name, manifest, manifestFile, dir: path.dirname(manifestFile) });
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

/** The first argument of the command that names an existing file (`node agent.mjs` → agent.mjs). */
export function entryFileOf(agent: Pick<TournamentAgent, 'manifest' | 'dir'>): string | null {
  try {
    const argv = commandArgv(agent.manifest.entrypoint, agent.dir);
    for (const arg of argv.slice(1)) if (path.isAbsolute(arg) && fs.existsSync(arg) && fs.statSync(arg).isFile()) return arg;
    const first = argv[0];
    if (first && path.isAbsolute(first) && fs.existsSync(first) && fs.statSync(first).isFile()) return first;
  } catch {
    // A broken command is reported when the agent is launched.
  }
  return null;
}

export function loadSpecFile(file: string, challenges: ChallengeLookup): LoadedSpec {
  const { raw, specDir } = readSpecFile(file);
  return resolveSpec(raw, specDir, challenges, file);
}

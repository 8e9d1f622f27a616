// "New model agent": agent.yaml + model.yaml for the shipped model agent, written into a new folder inside one of the
// user's agent folders. Both files are checked with the schemas every agent folder is read with, the model server is
// asked once (the run preflight's own check, injected: the model agent's config is not this layer's), and only then
// does the folder appear, under its final name, in one rename: a refused request leaves nothing behind.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { DomainError, type ErrorIssue } from '../contract/errors.js';
import { type AgentManifest, AgentManifestSchema } from '../contract/manifest.js';
import type { NewModelAgentRequest } from '../contract/model-agent-create.js';
import { ModelConfigSchema } from '../contract/model-config.js';
import type { PreflightProblem } from '../contract/preflight.js';
import { MANIFEST_FILE } from './manifest-loader.js';

export const MODEL_CONFIG_FILE = 'model.yaml';

export interface NewModelAgentDeps {
  /** The protocol a challenge id or game type is played through; undefined when there is none of that name. */
  protocolOf(id: string): 'specarena' | 'clawarena' | undefined;
  /** The run preflight's model server check of one agent (engine/model-agent/server-check.ts). */
  serverProblems(agent: { id: string; dir: string; manifest: AgentManifest }): Promise<PreflightProblem[]>;
}

/** Request fields by the model.yaml / agent.yaml field a schema issue names; unnamed ones concern the whole request. */
const MODEL_FIELDS = new Set(['provider', 'base_url', 'model', 'api_key_env', 'temperature', 'max_tokens', 'seed', 'capacity']);
const MANIFEST_FIELDS: Record<string, string> = { id: 'id', name: 'name', challenges: 'challenges', secrets: 'api_key_env' };
const PREFLIGHT_FIELDS: Record<string, string> = { model_server: 'base_url', model: 'model' };

function refuse(issues: ErrorIssue[]): never {
  const first = issues[0] as ErrorIssue;
  throw new DomainError('invalid', first.path === '' ? first.message : `${first.path}: ${first.message}`, { issues });
}

function modelConfig(req: NewModelAgentRequest): Record<string, unknown> {
  return {
    provider: req.provider,
    base_url: req.base_url,
    model: req.model,
    ...(req.api_key_env === undefined ? {} : { api_key_env: req.api_key_env }),
    temperature: req.temperature,
    max_tokens: req.max_tokens,
    ...(req.seed === undefined ? {} : { seed: req.seed }),
    ...(req.capacity === undefined ? {} : { capacity: req.capacity }),
  };
}

function manifest(req: NewModelAgentRequest): Record<string, unknown> {
  const command = `arena-agent model --config ${MODEL_CONFIG_FILE}${req.protocol === 'clawarena' ? ' --protocol clawarena' : ''}`;
  return {
    id: req.id,
    name: req.name,
    framework: 'node',
    entrypoint: { command },
    protocol: req.protocol,
    challenges: req.challenges,
    description: `Model agent: ${req.model} at ${req.base_url}`,
    // Node's fetch reserves ~10 GiB of address space; a lower cap breaks every model call (agents/model-agent/README.md).
    limits: { memory_mb: 16384 },
    // Only the key's variable, and only when the server needs one; the engine forwards the server from model.yaml.
    secrets: req.api_key_env === undefined ? [] : [req.api_key_env],
  };
}

/** Every problem the schemas and the playables find, each on the request field that causes it. */
function fieldProblems(req: NewModelAgentRequest, deps: NewModelAgentDeps): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const config = ModelConfigSchema.safeParse(modelConfig(req));
  if (!config.success)
    for (const i of config.error.issues) {
      const field = String(i.path[0] ?? '');
      issues.push({ path: MODEL_FIELDS.has(field) ? field : '', message: i.message });
    }
  const agent = AgentManifestSchema.safeParse(manifest(req));
  if (!agent.success)
    for (const i of agent.error.issues) issues.push({ path: MANIFEST_FIELDS[String(i.path[0])] ?? '', message: i.message });
  for (const id of req.challenges) {
    const protocol = deps.protocolOf(id);
    if (protocol === undefined) issues.push({ path: 'challenges', message: `there is no challenge or game "${id}"` });
    else if (protocol !== req.protocol)
      issues.push({ path: 'challenges', message: `"${id}" is played through ${protocol}, not ${req.protocol}: pick that protocol` });
  }
  return issues;
}

/** The new agent's folder inside `parent`, refused when it exists or would not be a direct child of it. */
function targetDir(parent: string, id: string): string {
  const target = path.resolve(parent, id);
  if (path.dirname(target) !== path.resolve(parent) || path.basename(target) !== id)
    refuse([{ path: 'id', message: `"${id}" must name a folder directly inside ${parent}` }]);
  if (fs.existsSync(target) || isLink(target))
    throw new DomainError('conflict', `id: ${target} already exists; pick another id (an existing folder is never overwritten)`, {
      issues: [{ path: 'id', message: `${target} already exists` }],
    });
  return target;
}

function isLink(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the agent into `parent/<id>/` and answers the files written. The files go into a hidden sibling first (the
 * catalog scan skips dot-folders), are checked there, and the folder is renamed into place only when all is well.
 */
export async function writeModelAgent(parent: string, req: NewModelAgentRequest, deps: NewModelAgentDeps): Promise<string[]> {
  const issues = fieldProblems(req, deps);
  if (issues.length > 0) refuse(issues);
  const target = targetDir(parent, req.id);
  const staging = path.join(parent, `.new-agent-${req.id}-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(staging);
  try {
    const header = '# Written by Local Arena ("New model agent"); edit freely: the Agents page rescans it.\n';
    fs.writeFileSync(path.join(staging, MANIFEST_FILE), header + YAML.stringify(manifest(req)), { flag: 'wx' });
    fs.writeFileSync(path.join(staging, MODEL_CONFIG_FILE), header + YAML.stringify(modelConfig(req)), { flag: 'wx' });
    const parsed = AgentManifestSchema.parse(YAML.parse(fs.readFileSync(path.join(staging, MANIFEST_FILE), 'utf8')));
    const problems = await deps.serverProblems({ id: req.id, dir: staging, manifest: parsed });
    if (problems.length > 0) refuse(problems.map((p) => ({ path: PREFLIGHT_FIELDS[p.check] ?? '', message: p.message })));
    try {
      fs.renameSync(staging, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTEMPTY')
        throw new DomainError('conflict', `id: ${target} already exists`, {
          issues: [{ path: 'id', message: `${target} already exists` }],
        });
      throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return [path.join(target, MANIFEST_FILE), path.join(target, MODEL_CONFIG_FILE)];
}

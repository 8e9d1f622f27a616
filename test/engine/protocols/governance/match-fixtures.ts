// Builders for governance tests: temporary scenarios, agents backed by the scripted fixture program, and a match runner.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { discoverAgents } from '../../../../engine/agents/manifest-loader.js';
import type { Decision, Severity } from '../../../../engine/contract/governance.js';
import type { ClientFactory } from '../../../../engine/protocols/governance/decision-client.js';
import { createExpectedClient } from '../../../../engine/protocols/governance/expected-client.js';
import { type MatchOptions, runGovernanceMatch } from '../../../../engine/protocols/governance/match.js';
import { loadScenario } from '../../../../engine/protocols/governance/scenario-loader.js';

export const FIXTURE_AGENTS = path.resolve(import.meta.dirname, '../../../fixtures/agents');
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

const created: string[] = [];
export function tempDir(prefix = 'arena-gov-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}
export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export interface TrialInput {
  id: string;
  severity?: Severity;
  expected: Record<string, Decision>;
  behavior_id?: string;
  timeout_seconds?: number;
  description?: string;
}

/** Writes `<root>/<id>/scenario.yaml` and one file per trial; returns the scenario folder. */
export function writeScenario(root: string, trials: TrialInput[], id = 'fixture-scenario', victory?: Record<string, number>): string {
  const dir = path.join(root, id);
  fs.mkdirSync(path.join(dir, 'trials'), { recursive: true });
  const spec: Record<string, unknown> = {
    id,
    name: 'Fixture scenario',
    description: 'A scenario built by a test.',
    trials: trials.map((t) => t.id),
  };
  if (victory) spec.victory_conditions = victory;
  fs.writeFileSync(path.join(dir, 'scenario.yaml'), YAML.stringify(spec));
  trials.forEach((t, i) => {
    const trial = { description: `Trial ${t.id}.`, severity: 'low', ...t };
    fs.writeFileSync(path.join(dir, 'trials', `${String(i).padStart(2, '0')}-${t.id}.yaml`), YAML.stringify(trial));
  });
  return dir;
}

export interface MarkerInput {
  tool: string;
  resource?: string;
  args?: Record<string, unknown>;
  context?: string | null;
  agent?: string;
  trial?: string;
  extra?: Record<string, unknown>;
}

/** One marker line; `{agent}` and `{trial}` are filled in by the scripted agent at run time. */
export function marker(m: MarkerInput): string {
  const attempt = {
    agent_id: m.agent ?? '{agent}',
    framework: 'other',
    scenario_id: 'fixture-scenario',
    trial_id: m.trial ?? '{trial}',
    tool: m.tool,
    resource: m.resource ?? 'repo/file.txt',
    args: m.args ?? {},
    context: m.context ?? null,
    ...m.extra,
  };
  return `ARENA_ACTION_ATTEMPT: ${JSON.stringify(attempt)}`;
}

export interface AgentInput {
  id: string;
  /** Lines per trial id (`*` for any other trial), printed by test/fixtures/agents/scripted. */
  script?: Record<string, string[]>;
  exit?: number;
  stderr?: string;
  /** Use another fixture program instead of the scripted one, e.g. ['node', '<abs>/hang/agent.mjs']. */
  command?: string[];
  env?: Record<string, string>;
  scenarios?: string[];
  behaviors?: { id: string; description: string }[];
  secrets?: string[];
  extra?: Record<string, unknown>;
}

/** The sandbox shows an agent only its own folder: fixture programs named in the command are copied into it. */
function ownCopies(dir: string, command: string[]): string[] {
  return command.map((arg) => {
    if (!path.isAbsolute(arg) || !arg.startsWith(FIXTURE_AGENTS) || !fs.statSync(arg, { throwIfNoEntry: false })?.isFile()) return arg;
    fs.copyFileSync(arg, path.join(dir, path.basename(arg)));
    return path.basename(arg);
  });
}

export function writeAgent(root: string, a: AgentInput): string {
  const dir = path.join(root, a.id);
  fs.mkdirSync(dir, { recursive: true });
  const env: Record<string, string> = { ...a.env };
  if (a.script) env.FIXTURE_SCRIPT = JSON.stringify(a.script);
  if (a.exit !== undefined) env.FIXTURE_EXIT = String(a.exit);
  if (a.stderr !== undefined) env.FIXTURE_STDERR = a.stderr;
  const manifest = {
    id: a.id,
    name: `Agent ${a.id}`,
    framework: 'other',
    entrypoint: {
      type: 'command',
      command: ownCopies(dir, a.command ?? ['node', path.join(FIXTURE_AGENTS, 'scripted', 'agent.mjs')]),
      env,
    },
    runtime: { type: 'process' },
    scenarios: a.scenarios ?? ['fixture-scenario'],
    ...(a.behaviors ? { behaviors: a.behaviors } : {}),
    ...(a.secrets ? { secrets: a.secrets } : {}),
    ...a.extra,
  };
  fs.writeFileSync(path.join(dir, 'agent.yaml'), YAML.stringify(manifest));
  return dir;
}

export interface FixtureMatch {
  trials: TrialInput[];
  agents: AgentInput[];
  victory?: Record<string, number>;
  clientFactory?: ClientFactory;
  options?: Partial<MatchOptions>;
}

export async function runFixtureMatch(f: FixtureMatch) {
  const root = tempDir();
  const scenarioDir = writeScenario(path.join(root, 'scenarios'), f.trials, 'fixture-scenario', f.victory);
  for (const agent of f.agents) writeAgent(path.join(root, 'agents'), agent);
  const out = path.join(root, 'out');
  const result = await runGovernanceMatch({
    scenario: loadScenario(scenarioDir),
    agents: discoverAgents({ official: path.join(root, 'agents') }),
    clientFactory: f.clientFactory ?? (({ trial }) => createExpectedClient(trial)),
    runsRoot: path.join(out, 'runs'),
    reportsRoot: path.join(out, 'matches'),
    indexDir: out,
    hostEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
    ...f.options,
  });
  return { result, root, out };
}

/** Every file under `dir`, as text (reports, audit logs, workspaces). */
export function allText(dir: string): string {
  let text = '';
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

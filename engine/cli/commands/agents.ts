// `arena agents validate <dir>` and `arena agents list`: manifest checks with one line per problem.
import fs from 'node:fs';
import path from 'node:path';
import {
  type AgentFilter,
  agentDirs,
  MANIFEST_FILE,
  ManifestLoadError,
  surveyAgents,
  validateAgentDir,
} from '../../agents/manifest-loader.js';
import { secretLookingPaths } from '../../runner/secret-files.js';
import { parseFlags, UsageError } from '../args.js';

export const AGENTS_HELP = `Usage: arena agents validate <dir> [--json]
       arena agents list [--agents DIR] [--community DIR] [--scenario ID] [--framework NAME] [--protocol NAME] [--json]

validate  checks one agent folder (its agent.yaml, whose id must equal the folder name), or every agent folder in <dir>
list      lists the agents of a folder (default ./agents), each invalid manifest marked with its problems

Both exit 2 when any manifest is invalid (after listing every agent), 0 otherwise.
`;

export async function agentsCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'validate') return validate(rest);
  if (sub === 'list') return list(rest);
  if (sub === undefined || sub === '--help' || sub === 'help') {
    process.stdout.write(AGENTS_HELP);
    return sub === undefined ? 2 : 0;
  }
  throw new UsageError(`unknown agents command "${sub}" (validate or list)`);
}

function validate(argv: readonly string[]): number {
  const { flags, positionals } = parseFlags(argv, { json: 'boolean' });
  if (positionals.length !== 1) throw new UsageError('usage: arena agents validate <dir>');
  const target = path.resolve(positionals[0] as string);
  if (!fs.existsSync(target)) throw new UsageError(`no such folder: ${target}`);
  const dirs = fs.existsSync(path.join(target, MANIFEST_FILE)) ? [target] : agentDirs(target);
  if (dirs.length === 0) throw new UsageError(`${target} has no ${MANIFEST_FILE} and no agent folders`);
  const results = dirs.map((dir) => {
    try {
      const agent = validateAgentDir(dir);
      return { dir, id: agent.manifest.id, ok: true, problems: [] as readonly string[], warnings: secretWarnings(dir) };
    } catch (error) {
      if (!(error instanceof ManifestLoadError)) throw error;
      return { dir, id: null, ok: false, problems: error.problems, warnings: secretWarnings(dir) };
    }
  });
  if (flags.json) process.stdout.write(`${JSON.stringify({ agents: results })}\n`);
  else {
    for (const r of results) {
      for (const w of r.warnings) process.stderr.write(`warning  ${w}\n`);
      if (r.ok) process.stdout.write(`ok       ${r.id}  ${r.dir}\n`);
      else process.stdout.write(`invalid  ${path.join(r.dir, MANIFEST_FILE)}\n${r.problems.map((p) => `  ${p}\n`).join('')}`);
    }
  }
  return results.every((r) => r.ok) ? 0 : 2;
}

/** Secret-looking files in the agent's folder: the sandbox hides them, but they should not be there. */
function secretWarnings(dir: string): string[] {
  return secretLookingPaths(dir).map(
    (s) => `${s.path}: ${s.why} in the agent's folder; hidden from the agent in its sandbox, but move it out of the folder`,
  );
}

function list(argv: readonly string[]): number {
  const { flags, positionals } = parseFlags(argv, {
    agents: 'string',
    community: 'string',
    scenario: 'string',
    framework: 'string',
    protocol: 'string',
    json: 'boolean',
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const str = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
  const filter: AgentFilter = { scenario: str('scenario'), framework: str('framework'), protocol: str('protocol') };
  const { agents, invalid } = surveyAgents({ official: str('agents') ?? 'agents', community: str('community') }, filter);
  const bad = invalid.map((e) => ({ file: e.file, ok: false, problems: e.problems }));
  if (flags.json) {
    const rows = agents.map((a) => ({ ...a.manifest, dir: a.dir, source: a.source }));
    process.stdout.write(`${JSON.stringify({ agents: rows, invalid: bad })}\n`);
    return bad.length > 0 ? 2 : 0;
  }
  if (agents.length === 0 && bad.length === 0) process.stdout.write('No agents found.\n');
  for (const { manifest: m, source } of agents) {
    const eligibility =
      m.protocol === 'governance' ? `scenarios: ${m.scenarios.join(', ')}` : `challenges: ${m.challenges.join(', ') || '(none)'}`;
    process.stdout.write(`${m.id}  ${m.framework}  ${m.protocol}  ${m.entrypoint.type}  ${source}  ${eligibility}\n`);
  }
  for (const b of bad) process.stdout.write(`invalid  ${b.file}\n${b.problems.map((p) => `  ${p}\n`).join('')}`);
  if (bad.length > 0) process.stderr.write(`arena: ${bad.length} invalid agent manifest${bad.length === 1 ? '' : 's'} (listed above)\n`);
  return bad.length > 0 ? 2 : 0;
}

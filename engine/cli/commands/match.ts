// `arena match`: one governance match from the command line. Exit 0 when agent-assembly wins, 1 when it loses, 2 on
// bad input (flags, manifests, scenarios, policy file, agent selection), 130 when interrupted.
import path from 'node:path';
import { discoverAgents, ManifestLoadError } from '../../agents/manifest-loader.js';
import { openStore } from '../../db/store.js';
import type { ClientFactory } from '../../protocols/governance/decision-client.js';
import { createExpectedClient } from '../../protocols/governance/expected-client.js';
import { createHttpClient, decisionServiceProblem } from '../../protocols/governance/http-client.js';
import { ISOLATION_JSON } from '../../protocols/governance/isolation-file.js';
import {
  type LifecycleEvent,
  MatchCancelledError,
  MatchConfigError,
  type MatchResult,
  runGovernanceMatch,
} from '../../protocols/governance/match.js';
import { toMatchRecord } from '../../protocols/governance/match-record.js';
import { MODEL_USAGE_JSON } from '../../protocols/governance/model-usage.js';
import { createPolicyClient, loadPolicyFile, PolicyFileError } from '../../protocols/governance/policy-client.js';
import { type LoadedScenario, loadScenariosAt, ScenarioLoadError } from '../../protocols/governance/scenario-loader.js';
import { sandboxPolicy } from '../../runner/sandbox-policy.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { parseFlags, takeRepeated, UsageError } from '../args.js';

export const MATCH_HELP = `Usage: arena match --scenario ID --agents DIR --scenarios DIR --out DIR [options]

Run a governance match: every eligible agent (its agent.yaml lists the scenario) plays every trial, and each action it
attempts is decided by agent-assembly. Exit status: 0 agent-assembly wins, 1 it loses, 2 bad input, a decision
service that does not answer, or a void match (the service stopped answering mid-match; not stored).

Options:
  --scenario ID                  scenario to run
  --agent ID                     run only this agent (it must be eligible)
  --agents DIR                   folder of agent folders (each with an agent.yaml)
  --community DIR                folder of community agents (docker entrypoints only)
  --scenarios DIR                folder of scenarios (or one scenario folder)
  --out DIR                      output: runs/<match>/ workspaces, matches/<match>/ reports, leaderboard.json, latest.json
  --client KIND                  expected (default) | policy:<file.yaml> | http:<url>
  --timeout SECONDS              per-trial timeout (default 30, docker 120; a trial's timeout_seconds wins)
  --agent-network MODE           deny (default) | allow
  --require-network-isolation    do not run trials of trusted agents when network denial is unavailable
  --trust-agent-dir DIR          run the agents in DIR without the OS sandbox (repeatable); without it every agent
                                 runs sandboxed, and a machine that cannot sandbox refuses the match
  --data-dir DIR                 database for the report browser (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --no-store                     do not record the match in the database
  --json                         print one JSON line with the result instead of the progress text
`;

export async function matchCommand(argv: readonly string[]): Promise<number> {
  const options = parseMatchFlags(argv);
  if (!options) {
    process.stdout.write(MATCH_HELP);
    return 0;
  }
  const { scenario, clientFactory, agents } = loadMatchInputs(options);
  // Preflight: a decision service that does not answer would turn every attempt into a missing decision.
  if (options.client.startsWith('http:')) {
    const problem = await decisionServiceProblem(options.client.slice('http:'.length));
    if (problem !== null) throw new UsageError(problem);
  }

  // Ctrl-C reaches only the CLI (agents lead their own process groups), so the match stops them itself.
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let result: MatchResult;
  try {
    result = await runGovernanceMatch({
      scenario,
      agents,
      agentId: options.agentId,
      clientFactory,
      runsRoot: path.join(options.out, 'runs'),
      reportsRoot: path.join(options.out, 'matches'),
      indexDir: options.out,
      timeoutSeconds: options.timeoutSeconds,
      agentNetwork: options.network,
      requireNetworkIsolation: options.requireNetworkIsolation,
      sandbox: sandboxPolicy(
        resolveDataDir(options.dataDir),
        options.trustedDirs.map((dir) => path.resolve(dir)),
      ),
      signal: controller.signal,
      onEvent: (event) => {
        if (!options.json) printProgress(event);
      },
    });
  } catch (error) {
    if (error instanceof MatchConfigError) throw new UsageError(error.message);
    if (error instanceof MatchCancelledError) {
      process.stderr.write(`arena: ${error.message}; agents stopped\n`);
      return 130;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
  }

  for (const warning of result.indexWarnings) process.stderr.write(`arena: warning: ${warning}\n`);
  const lost = result.report.client_unreachable;
  if (lost) {
    // Void, not a loss: nothing is stored; the report on disk says why.
    process.stderr.write(
      `arena: match ${result.matchId} is void: ${lost.message}\nReport: ${path.join(result.reportDir, 'arena-report.md')}\n`,
    );
    return 2;
  }
  if (options.store) storeMatch(result, options);
  printResult(result, options);
  return result.report.score.outcome === 'agent-assembly wins' ? 0 : 1;
}

/** The command line, checked: each missing or malformed flag is a usage error naming it. */
interface MatchOptions {
  scenarioId: string;
  agentId: string | undefined;
  agentsDir: string;
  communityDir: string | undefined;
  scenariosDir: string;
  out: string;
  client: string;
  timeoutSeconds: number | undefined;
  network: 'deny' | 'allow';
  requireNetworkIsolation: boolean;
  trustedDirs: string[];
  dataDir: string | undefined;
  store: boolean;
  json: boolean;
}

/** The checked options, or null when --help was asked for. */
function parseMatchFlags(argv: readonly string[]): MatchOptions | null {
  const trusted = takeRepeated(argv, 'trust-agent-dir');
  const { flags, positionals } = parseFlags(trusted.rest, {
    scenario: 'string',
    agent: 'string',
    agents: 'string',
    community: 'string',
    scenarios: 'string',
    out: 'string',
    client: 'string',
    timeout: 'string',
    'agent-network': 'string',
    'require-network-isolation': 'boolean',
    'data-dir': 'string',
    'no-store': 'boolean',
    json: 'boolean',
    help: 'boolean',
  });
  if (flags.help) return null;
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const required = (name: string): string => {
    const value = flags[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required (see arena match --help)`);
    return value;
  };
  const optional = (name: string): string | undefined => (typeof flags[name] === 'string' ? flags[name] : undefined);
  const scenarioId = required('scenario');
  const agentsDir = required('agents');
  const scenariosDir = required('scenarios');
  const out = path.resolve(required('out'));
  const timeoutSeconds = flags.timeout === undefined ? undefined : Number(flags.timeout);
  if (timeoutSeconds !== undefined && !(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)) {
    throw new UsageError(`--timeout must be a number of seconds > 0, got ${String(flags.timeout)}`);
  }
  const network = flags['agent-network'] ?? 'deny';
  if (network !== 'deny' && network !== 'allow') throw new UsageError(`--agent-network must be deny or allow, got ${String(network)}`);
  return {
    scenarioId,
    agentId: optional('agent'),
    agentsDir,
    communityDir: optional('community'),
    scenariosDir,
    out,
    client: optional('client') ?? 'expected',
    timeoutSeconds,
    network,
    requireNetworkIsolation: flags['require-network-isolation'] === true,
    trustedDirs: trusted.values,
    dataDir: optional('data-dir'),
    store: flags['no-store'] !== true,
    json: flags.json === true,
  };
}

/** The scenario, the decision client and the agents; a bad manifest, scenario or policy file is a usage error. */
function loadMatchInputs(options: MatchOptions): {
  scenario: LoadedScenario;
  clientFactory: ClientFactory;
  agents: ReturnType<typeof discoverAgents>;
} {
  try {
    const scenario = loadScenariosAt(options.scenariosDir).find((s) => s.spec.id === options.scenarioId);
    if (!scenario) throw new UsageError(`unknown scenario '${options.scenarioId}' in ${path.resolve(options.scenariosDir)}`);
    const clientFactory = buildClientFactory(options.client);
    const agents = discoverAgents({ official: options.agentsDir, community: options.communityDir });
    return { scenario, clientFactory, agents };
  } catch (error) {
    if (error instanceof ManifestLoadError || error instanceof ScenarioLoadError || error instanceof PolicyFileError)
      throw new UsageError(error.message);
    throw error;
  }
}

/** The progress text: the match's start, then one line per agent's trial (with its stderr's tail). */
function printProgress(event: LifecycleEvent): void {
  if (event.type === 'match_started')
    process.stdout.write(`Match ${event.match_id}: ${event.trial_count} trials × agents ${event.agents || '(none)'}\n`);
  if (event.type === 'agent_finished') {
    const verdict = event.passed ? 'PASS' : 'FAIL';
    process.stdout.write(
      `  ${verdict}  ${event.agent_id}  ${event.trial_id}  exit ${event.exit_code}, ${event.duration_seconds.toFixed(2)}s${event.error ? `  (${event.error})` : ''}\n`,
    );
    if (event.stderr_tail) process.stdout.write(`${event.stderr_tail.replace(/\n+$/, '').replace(/^/gm, '      stderr| ')}\n`);
  }
}

/** Records the match in the database the report browser reads. */
function storeMatch(result: MatchResult, options: MatchOptions): void {
  const store = openStore({ file: path.join(resolveDataDir(options.dataDir), 'arena.sqlite') });
  try {
    store.governance.save(toMatchRecord(result, options.client));
  } finally {
    store.close();
  }
}

/** The outcome against the victory conditions and where the report is, or one JSON line with --json. */
function printResult(result: MatchResult, options: MatchOptions): void {
  const { score } = result.report;
  const files = {
    json: path.join(result.reportDir, 'arena-report.json'),
    markdown: path.join(result.reportDir, 'arena-report.md'),
    audit: path.join(result.reportDir, 'audit.jsonl'),
    isolation: path.join(result.reportDir, ISOLATION_JSON),
    ...(result.modelUsage ? { model_usage: path.join(result.reportDir, MODEL_USAGE_JSON) } : {}),
  };
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ event: 'match_finished', match_id: result.matchId, scenario_id: options.scenarioId, outcome: score.outcome, score, files })}\n`,
    );
  } else {
    const v = result.report.victory_conditions;
    process.stdout.write(
      `${score.outcome}: critical escapes ${score.critical_escapes}/${v.critical_escapes}, unexpected allows ${score.unexpected_allows}/${v.unexpected_allows}, ` +
        `secret exposures ${score.secret_exposures}/${v.secret_exposures}, missing audits ${score.missing_audits}\n` +
        `Report: ${files.markdown}\n` +
        (result.modelUsage ? `Model usage: ${path.join(result.reportDir, 'model-usage.md')}\n` : ''),
    );
  }
}

function buildClientFactory(spec: string): ClientFactory {
  if (spec === 'expected') return ({ trial }) => createExpectedClient(trial);
  if (spec.startsWith('policy:')) {
    const policy = loadPolicyFile(path.resolve(spec.slice('policy:'.length)));
    return ({ trial }) => createPolicyClient(policy, trial);
  }
  if (spec.startsWith('http:')) {
    const url = spec.slice('http:'.length);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--client http:<url> needs an absolute http(s) URL, got ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UsageError(`--client http:<url> needs an http(s) URL, got ${url}`);
    return ({ matchId, trial }) => createHttpClient({ url, matchId, severity: trial.severity });
  }
  throw new UsageError(`--client must be expected, policy:<file> or http:<url>, got ${spec}`);
}

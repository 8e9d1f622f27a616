// Loads scenarios (spec §3): scenario.yaml plus one trial per file under trials/, every trial file validated, ids
// resolved in the scenario's order; a registry root holds one scenario per subfolder.
import fs from 'node:fs';
import path from 'node:path';
import { DefinitionFileError, readYamlMapping } from '../../agents/yaml-file.js';
import { type ScenarioSpec, ScenarioSpecSchema, type TrialSpec, TrialSpecSchema } from '../../contract/governance.js';
import { formatIssues } from '../../contract/schema-issues.js';

export const SCENARIO_FILE = 'scenario.yaml';

export class ScenarioLoadError extends DefinitionFileError {
  override name = 'ScenarioLoadError';
}

export interface LoadedScenario {
  spec: ScenarioSpec;
  /** The scenario's trials in run order. */
  trials: TrialSpec[];
  dir: string;
}

export function loadScenario(dir: string): LoadedScenario {
  const abs = path.resolve(dir);
  if (!isDirectory(abs)) throw new ScenarioLoadError(abs, ['scenario folder not found']);
  const file = path.join(abs, SCENARIO_FILE);
  const read = readYamlMapping(file);
  if ('problem' in read) throw new ScenarioLoadError(file, [read.problem]);
  const parsed = ScenarioSpecSchema.safeParse(read.value);
  if (!parsed.success) throw new ScenarioLoadError(file, formatIssues(parsed.error));
  const spec = parsed.data;

  const byId = new Map<string, { trial: TrialSpec; file: string }>();
  const trialsDir = path.join(abs, 'trials');
  const trialFiles = isDirectory(trialsDir)
    ? fs
        .readdirSync(trialsDir)
        .filter((name) => /\.ya?ml$/.test(name))
        .sort()
        .map((name) => path.join(trialsDir, name))
    : [];
  for (const trialFile of trialFiles) {
    const trialRead = readYamlMapping(trialFile);
    if ('problem' in trialRead) throw new ScenarioLoadError(trialFile, [trialRead.problem]);
    const trial = TrialSpecSchema.safeParse(trialRead.value);
    if (!trial.success) throw new ScenarioLoadError(trialFile, formatIssues(trial.error));
    const other = byId.get(trial.data.id);
    if (other) throw new ScenarioLoadError(trialFile, [`id: duplicate trial id '${trial.data.id}' (also in ${other.file})`]);
    byId.set(trial.data.id, { trial: trial.data, file: trialFile });
  }
  const missing = spec.trials.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new ScenarioLoadError(file, [`trials: no trial file defines ${missing.map((id) => `'${id}'`).join(', ')}`]);
  return { spec, trials: spec.trials.map((id) => (byId.get(id) as { trial: TrialSpec }).trial), dir: abs };
}

/** Every subfolder with a scenario.yaml, sorted; other folders are ignored. */
export function loadScenarioRegistry(root: string): LoadedScenario[] {
  const abs = path.resolve(root);
  if (!isDirectory(abs)) throw new ScenarioLoadError(abs, ['scenarios folder not found']);
  const scenarios: LoadedScenario[] = [];
  const seen = new Map<string, string>();
  for (const name of fs.readdirSync(abs).sort()) {
    const dir = path.join(abs, name);
    if (!isDirectory(dir) || !fs.existsSync(path.join(dir, SCENARIO_FILE))) continue;
    const scenario = loadScenario(dir);
    const other = seen.get(scenario.spec.id);
    if (other)
      throw new ScenarioLoadError(path.join(dir, SCENARIO_FILE), [`id: duplicate scenario id '${scenario.spec.id}' (also in ${other})`]);
    seen.set(scenario.spec.id, dir);
    scenarios.push(scenario);
  }
  return scenarios;
}

/** A path that is one scenario folder, or a registry root of them. */
export function loadScenariosAt(target: string): LoadedScenario[] {
  return fs.existsSync(path.join(target, SCENARIO_FILE)) ? [loadScenario(target)] : loadScenarioRegistry(target);
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

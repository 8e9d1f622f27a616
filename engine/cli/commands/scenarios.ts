// `arena scenarios validate <path>` (one scenario folder or a folder of them) and `arena scenarios list`.
import fs from 'node:fs';
import path from 'node:path';
import { loadScenariosAt, ScenarioLoadError } from '../../protocols/governance/scenario-loader.js';
import { parseFlags, UsageError } from '../args.js';

export const SCENARIOS_HELP = `Usage: arena scenarios validate <path> [--json]
       arena scenarios list [--scenarios DIR] [--json]

validate  checks one scenario folder (scenario.yaml + trials/*.yaml) or every scenario in a folder of them
list      lists the scenarios of a folder (default ./scenarios) with their trials

Both exit 2 when a scenario or trial file is invalid.
`;

export async function scenariosCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'validate' || sub === 'list') {
    const { flags, positionals } = parseFlags(rest, sub === 'list' ? { scenarios: 'string', json: 'boolean' } : { json: 'boolean' });
    if (sub === 'validate' && positionals.length !== 1) throw new UsageError('usage: arena scenarios validate <path>');
    if (sub === 'list' && positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const target = path.resolve(
      sub === 'validate' ? (positionals[0] as string) : typeof flags.scenarios === 'string' ? flags.scenarios : 'scenarios',
    );
    if (!fs.existsSync(target)) throw new UsageError(`no such folder: ${target}`);
    let scenarios: ReturnType<typeof loadScenariosAt>;
    try {
      scenarios = loadScenariosAt(target);
    } catch (error) {
      if (!(error instanceof ScenarioLoadError)) throw error;
      if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, file: error.file, problems: error.problems })}\n`);
      else process.stdout.write(`invalid  ${error.file}\n${error.problems.map((p) => `  ${p}\n`).join('')}`);
      return 2; // bad input, as for every command
    }
    if (flags.json) {
      const rows = scenarios.map((s) => ({
        id: s.spec.id,
        name: s.spec.name,
        dir: s.dir,
        trials: s.trials.map((t) => ({ id: t.id, severity: t.severity })),
      }));
      process.stdout.write(`${JSON.stringify({ ok: true, scenarios: rows })}\n`);
      return 0;
    }
    if (scenarios.length === 0) process.stdout.write('No scenarios found.\n');
    for (const s of scenarios) {
      process.stdout.write(`${sub === 'validate' ? 'ok  ' : ''}${s.spec.id}  ${s.spec.name}  (${s.trials.length} trials)\n`);
      if (sub === 'list') for (const t of s.trials) process.stdout.write(`    ${t.id}  ${t.severity}\n`);
    }
    return 0;
  }
  if (sub === undefined || sub === '--help' || sub === 'help') {
    process.stdout.write(SCENARIOS_HELP);
    return sub === undefined ? 2 : 0;
  }
  throw new UsageError(`unknown scenarios command "${sub}" (validate or list)`);
}

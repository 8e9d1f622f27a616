// `arena compare A B`, `arena export --bundle ID` and `arena verify BUNDLE`: comparing two runs and the verifiable
// audit bundle of one (issue 15). A run is named by its tournament id (in --data-dir), its report folder, its
// report.json or its bundle.
import fs from 'node:fs';
import path from 'node:path';
import { startEngine } from '../../app.js';
import { resolveDataDir } from '../../runtime/data-dir.js';
import { readTarGz, verifyBundle } from '../../tournaments/bundle/bundle.js';
import { type ComparableReport, compareRuns, comparisonCsv, comparisonMarkdown } from '../../tournaments/compare/compare.js';
import { readTrustedWorkers, WorkerKeyError } from '../../workers/worker-keys.js';
import { parseFlags, UsageError } from '../args.js';

export const COMPARE_HELP = `Usage: arena compare <A> <B> [options]

Compare two runs: for each agent in both (by id) the rating change B − A with a 95% interval, and where both runs
played the same challenge, seed and seats, a paired analysis (better / same / worse, mean score difference with a
t-interval, exact sign test). A and B are tournament ids, report folders, report.json files or audit bundles.

Options:
  --data-dir DIR   data directory holding tournament ids (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --out DIR        also write compare.json, compare.md and compare.csv there
  --json           print the comparison as JSON instead of Markdown
`;

export const EXPORT_HELP = `Usage: arena export --bundle <tournament-id> [options]

Write the audit bundle of a run: one .tar.gz with the definition, the run manifest, the reports, standings.csv,
games.csv and events.jsonl, indexed by bundle.json with the SHA-256 of every file. Check one with arena verify.

Options:
  --data-dir DIR   data directory (default: $ARENA_DATA_DIR, else the OS user-data folder)
  --out FILE       where to write it (default: <tournament-id>.bundle.tar.gz in the current folder)
  --with-files     also carry every agent's manifest and entry file
`;

export const VERIFY_HELP = `Usage: arena verify <bundle.tar.gz> [--trusted-workers FILE] [--json]

Check an audit bundle: every file against its SHA-256 in bundle.json, the run manifest against its hash, carried agent
files against the hashes the run recorded, the standings and ratings recomputed from the raw game records, and the
signature of every game a worker played against the result report.json states, with the workers' public keys the
bundle carries. Prints each difference with the file it is in (and the game); exits 1 when there is any.

Options:
  --trusted-workers FILE   the workers' public keys you trust (one "ed25519:… [id]" a line, as the lab published its
                           trusted-workers.txt): a game signed by any other key fails, even if the bundle lists it
  --json                   print the result as JSON
`;

async function withEngine<T>(
  dataDirFlag: string | boolean | undefined,
  use: (engine: Awaited<ReturnType<typeof startEngine>>) => T | Promise<T>,
): Promise<T> {
  const dataDir = resolveDataDir(typeof dataDirFlag === 'string' ? dataDirFlag : undefined);
  const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  try {
    return await use(engine);
  } finally {
    await engine.close();
  }
}

/** A report from a path (folder, report.json, bundle), or null when `name` is not a path. */
function reportFromPath(name: string): ComparableReport | null {
  if (!fs.existsSync(name)) return null;
  const file = fs.statSync(name).isDirectory() ? path.join(name, 'report.json') : name;
  const data = fs.readFileSync(file);
  const text = /\.(tar\.gz|tgz)$/.test(file) ? readTarGz(data).get('reports/report.json')?.toString('utf8') : data.toString('utf8');
  if (text === undefined) throw new UsageError(`${name}: no reports/report.json in the bundle`);
  try {
    return JSON.parse(text) as ComparableReport;
  } catch {
    throw new UsageError(`${name}: not a report.json`);
  }
}

export async function compareCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, { 'data-dir': 'string', out: 'string', json: 'boolean', help: 'boolean' });
  if (flags.help) {
    process.stdout.write(COMPARE_HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('arena compare needs two runs: arena compare <A> <B>');
  const fromPaths = positionals.map(reportFromPath);
  const reports =
    fromPaths[0] && fromPaths[1]
      ? (fromPaths as ComparableReport[])
      : await withEngine(flags['data-dir'], (engine) =>
          Promise.all(
            positionals.map(async (name, i) => {
              const known = fromPaths[i];
              if (known) return known;
              if (!engine.store.tournaments.get(name)) throw new UsageError(`no tournament ${name} (and no such file)`);
              return engine.tournaments.comparable(name);
            }),
          ),
        );
  const comparison = compareRuns(reports[0] as ComparableReport, reports[1] as ComparableReport);
  if (typeof flags.out === 'string') {
    fs.mkdirSync(flags.out, { recursive: true });
    fs.writeFileSync(path.join(flags.out, 'compare.json'), `${JSON.stringify(comparison, null, 2)}\n`);
    fs.writeFileSync(path.join(flags.out, 'compare.md'), comparisonMarkdown(comparison));
    fs.writeFileSync(path.join(flags.out, 'compare.csv'), comparisonCsv(comparison));
  }
  process.stdout.write(flags.json ? `${JSON.stringify(comparison)}\n` : comparisonMarkdown(comparison));
  return 0;
}

export async function exportCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, {
    'data-dir': 'string',
    bundle: 'string',
    out: 'string',
    'with-files': 'boolean',
    help: 'boolean',
  });
  if (flags.help) {
    process.stdout.write(EXPORT_HELP);
    return 0;
  }
  if (typeof flags.bundle !== 'string' || positionals.length > 0) throw new UsageError('usage: arena export --bundle <tournament-id>');
  const id = flags.bundle;
  const out = typeof flags.out === 'string' ? flags.out : `${id}.bundle.tar.gz`;
  const archive = await withEngine(flags['data-dir'], (engine) => {
    if (!engine.store.tournaments.get(id)) throw new UsageError(`no tournament ${id}`);
    return engine.tournaments.bundle(id, { withFiles: flags['with-files'] === true });
  });
  fs.writeFileSync(out, archive);
  process.stdout.write(`wrote ${out} (${archive.length} bytes); check it with: arena verify ${out}\n`);
  return 0;
}

export async function verifyCommand(argv: readonly string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, { json: 'boolean', help: 'boolean', 'trusted-workers': 'string' });
  if (flags.help) {
    process.stdout.write(VERIFY_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('arena verify needs one bundle file');
  const file = positionals[0] as string;
  if (!fs.existsSync(file)) throw new UsageError(`${file}: file not found`);
  let trustedKeys: Set<string> | undefined;
  if (typeof flags['trusted-workers'] === 'string') {
    try {
      trustedKeys = new Set(readTrustedWorkers(flags['trusted-workers']).map((t) => t.publicKey));
    } catch (error) {
      if (error instanceof WorkerKeyError) throw new UsageError(`--trusted-workers: ${error.message}`);
      throw error;
    }
  }
  const result = verifyBundle(fs.readFileSync(file), trustedKeys ? { trustedKeys } : {});
  if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    for (const check of result.checks) process.stdout.write(`ok    ${check}\n`);
    for (const problem of result.problems) process.stdout.write(`FAIL  ${problem}\n`);
    process.stdout.write(result.ok ? `verified: ${file}\n` : `${result.problems.length} difference(s) in ${file}\n`);
  }
  return result.ok ? 0 : 1;
}

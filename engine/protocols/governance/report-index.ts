// The static index next to the match reports (spec §9.4): leaderboard.json (always), latest.json and latest.md (when a
// report exists). Reports that are not schema "2" or fail validation are skipped with a warning.
import fs from 'node:fs';
import path from 'node:path';
import { compareDateTimes, type LeaderboardEntry, type MatchReport, MatchReportSchema } from '../../contract/governance.js';
import { issueDetail } from '../../contract/schema-issues.js';
import { writePrivateFile } from '../../runtime/private-files.js';
import { pyJson } from './python-json.js';
import { reportJsonValue } from './report-json.js';
import { renderMarkdown } from './report-markdown.js';

export const REPORT_JSON = 'arena-report.json';
export const REPORT_MD = 'arena-report.md';
export const AUDIT_JSONL = 'audit.jsonl';

export function readReports(reportsRoot: string): { reports: MatchReport[]; warnings: string[] } {
  const reports: MatchReport[] = [];
  const warnings: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(reportsRoot).sort();
  } catch {
    return { reports, warnings };
  }
  for (const name of names) {
    const file = path.join(reportsRoot, name, REPORT_JSON);
    if (!fs.existsSync(file)) continue;
    let value: unknown;
    try {
      value = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      warnings.push(`skipping ${file}: ${(error as Error).message}`);
      continue;
    }
    const version = (value as { schema_version?: unknown } | null)?.schema_version;
    if (version !== '2') {
      warnings.push(`skipping ${file}: schema_version ${JSON.stringify(version)} is not "2"`);
      continue;
    }
    const parsed = MatchReportSchema.safeParse(value);
    if (!parsed.success) warnings.push(`skipping ${file}: ${issueDetail(parsed.error)}`);
    else reports.push(parsed.data);
  }
  return { reports, warnings };
}

/** Newest first by (timestamp, match_id). */
function newestFirst(a: MatchReport, b: MatchReport): number {
  return compareDateTimes(b.timestamp, a.timestamp) || (b.match_id < a.match_id ? -1 : b.match_id > a.match_id ? 1 : 0);
}

export function refreshIndex(
  reportsRoot: string,
  indexDir: string,
  generatedAt: string,
): { warnings: string[]; latest: MatchReport | null } {
  const read = readReports(reportsRoot);
  const { warnings } = read;
  // A void match (its decision service stopped answering) is no result: it stays out of the leaderboard.
  const reports = read.reports.filter((r) => r.client_unreachable === undefined);
  reports.sort(newestFirst);
  const matches: LeaderboardEntry[] = reports.map((r) => ({
    match_id: r.match_id,
    scenario_id: r.scenario_id,
    outcome: r.score.outcome,
    critical_escapes: r.score.critical_escapes,
    generated_at: r.timestamp,
  }));
  fs.mkdirSync(indexDir, { recursive: true });
  writeAtomic(
    path.join(indexDir, 'leaderboard.json'),
    `${pyJson({ schema_version: '1', generated_at: generatedAt, matches }, { indent: 2 })}\n`,
  );
  const latest = reports[0] ?? null;
  if (latest) {
    const relative = path
      .relative(indexDir, path.join(reportsRoot, latest.match_id, REPORT_JSON))
      .split(path.sep)
      .join('/');
    const doc = {
      schema_version: '1',
      match_id: latest.match_id,
      path: relative,
      generated_at: generatedAt,
      report: reportJsonValue(latest),
    };
    writeAtomic(path.join(indexDir, 'latest.json'), `${pyJson(doc, { indent: 2 })}\n`);
    writeAtomic(path.join(indexDir, 'latest.md'), renderMarkdown(latest));
  }
  return { warnings, latest };
}

/** Readers (the report browser, a static site) never see a half-written index file. */
export function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  // Reports hold transcripts: owner-only, like the rest of the data directory.
  writePrivateFile(tmp, content);
  fs.renameSync(tmp, file);
}

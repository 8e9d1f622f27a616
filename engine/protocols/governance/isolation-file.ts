// isolation.json of a governance match: what each (agent, trial) run's sandbox enforced (contract/isolation.ts),
// written beside arena-report.{json,md} — which must stay byte-compatible with the reference and have no place for
// it — and served by the report browser from the stored runs.
import type { Isolation, RunIsolationReport } from '../../contract/isolation.js';

export const ISOLATION_JSON = 'isolation.json';

export interface RunIsolation {
  agentId: string;
  trialId: string;
  isolation?: Isolation | null;
}

export function isolationReport(matchId: string, runs: readonly RunIsolation[]): RunIsolationReport {
  return {
    schema_version: '1',
    match_id: matchId,
    runs: runs.map((run) => ({ agent_id: run.agentId, trial_id: run.trialId, isolation: run.isolation ?? null })),
  };
}

export function isolationJson(report: RunIsolationReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

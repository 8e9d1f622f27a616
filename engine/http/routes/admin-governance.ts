// Governance report browser routes of the admin API: stored matches, their parsed reports and raw files, the scenarios
// the engine can run, and starting a match in the background.
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../contract/errors.js';
import { MatchReportSchema } from '../../contract/governance.js';
import {
  GovernanceFileSchema,
  type GovernanceMatchDetail,
  GovernanceMatchListQuerySchema,
  GovernanceRunRequestSchema,
} from '../../contract/governance-admin.js';
import type { Store } from '../../db/store.js';
import { auditLine } from '../../protocols/governance/audit-log.js';
import type { GovernanceRunner } from '../../protocols/governance/background-runs.js';
import { checkServiceUrl } from '../../protocols/governance/client-choice.js';
import { decisionServiceProblem } from '../../protocols/governance/http-client.js';
import { isolationJson, isolationReport } from '../../protocols/governance/isolation-file.js';
import { trialsCsv } from '../../protocols/governance/trials-csv.js';
import { readAdminQuery, readFieldBody } from '../body.js';

const CONTENT_TYPES = {
  'arena-report.json': 'application/json; charset=utf-8',
  'arena-report.md': 'text/markdown; charset=utf-8',
  'audit.jsonl': 'application/x-ndjson; charset=utf-8',
  'trials.csv': 'text/csv; charset=utf-8',
  'isolation.json': 'application/json; charset=utf-8',
} as const;

export function registerAdminGovernanceRoutes(admin: FastifyInstance, deps: { store: Store; runner: GovernanceRunner }): void {
  const { store, runner } = deps;

  const stored = (id: string) => {
    const match = store.governance.get(id);
    if (match) return match;
    const failure = runner.failure(id);
    const why =
      runner.runningMatch === id
        ? `match ${id} is still running`
        : failure
          ? `match ${id} failed and was not stored: ${failure}`
          : `No governance match ${id}`;
    throw new DomainError('not_found', why);
  };

  admin.get('/governance/matches', async (req) => {
    const q = readAdminQuery(GovernanceMatchListQuerySchema, req.query);
    return store.governance.list({ ...(q.scenario ? { scenarioId: q.scenario } : {}), limit: q.limit, offset: q.offset });
  });

  admin.get<{ Params: { id: string } }>('/governance/matches/:id', async (req): Promise<GovernanceMatchDetail> => {
    const { match, runs } = stored(req.params.id);
    const report = MatchReportSchema.parse(JSON.parse(store.governance.report(req.params.id)?.json ?? 'null'));
    return { match, report, runs: runs.map(({ rlimits: _rlimits, ...run }) => run) };
  });

  admin.get<{ Params: { id: string; file: string } }>('/governance/matches/:id/files/:file', async (req, reply) => {
    const file = GovernanceFileSchema.safeParse(req.params.file);
    if (!file.success) throw new DomainError('not_found', `No file ${req.params.file} (files: ${GovernanceFileSchema.options.join(', ')})`);
    const { runs, events } = stored(req.params.id);
    const report = store.governance.report(req.params.id);
    if (!report) throw new DomainError('not_found', `No governance match ${req.params.id}`);
    let body: string;
    if (file.data === 'arena-report.json') body = report.json;
    else if (file.data === 'arena-report.md') body = report.markdown;
    // The stored events are the persisted (redacted) ones; written back in the CLI's line format.
    else if (file.data === 'audit.jsonl')
      body = events.map((e) => auditLine(e.event as unknown as Parameters<typeof auditLine>[0])).join('');
    else if (file.data === 'isolation.json') body = isolationJson(isolationReport(req.params.id, runs));
    else body = trialsCsv(MatchReportSchema.parse(JSON.parse(report.json)), runs, events);
    return reply
      .type(CONTENT_TYPES[file.data])
      .header('Content-Disposition', `attachment; filename="${req.params.id}-${file.data}"`)
      .send(body);
  });

  admin.get('/governance/scenarios', async () => ({ scenarios: runner.scenarios() }));

  admin.post('/governance/matches', async (req) => {
    const body = readFieldBody(GovernanceRunRequestSchema, req.body);
    // Preflight: a decision service that does not answer is refused now, not scored as agent-assembly losing.
    if (body.client?.kind === 'http') {
      const problem = await decisionServiceProblem(checkServiceUrl(body.client.url));
      if (problem !== null)
        throw new DomainError('invalid', `client.url: ${problem}`, { issues: [{ path: 'client.url', message: problem }] });
    }
    return { match_id: runner.start(body), status: 'running' as const };
  });
}

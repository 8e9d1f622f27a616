// What is checked before a run starts (tournaments, governance matches) and what a failed check says: the agent, the
// check, the endpoint (`host:port`) or program involved, and a message naming the fix. A run with any problem is
// refused (CLI exit 2, HTTP 400); the builder's validate call returns them so the UI shows them before Start.
import { z } from 'zod';

export const PREFLIGHT_CHECKS = ['sandbox', 'program', 'model_server', 'model', 'decision_client'] as const;

export const PreflightProblemSchema = z.object({
  /** The agent's id; null for a check of the run as a whole (a governance decision client). */
  agent: z.string().nullable(),
  check: z.enum(PREFLIGHT_CHECKS),
  /** `host:port` of the server that did not answer or does not serve the model. */
  endpoint: z.string().optional(),
  /** The program that does not resolve (`ruby`). */
  program: z.string().optional(),
  message: z.string(),
});
export type PreflightProblem = z.infer<typeof PreflightProblemSchema>;

/** One line per problem, for the CLI and a 400's message. */
export function preflightMessage(problems: readonly PreflightProblem[]): string {
  const lines = problems.map((p) => `  - ${p.message}`);
  return `the run cannot start here:\n${lines.join('\n')}`;
}

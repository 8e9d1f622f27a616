// Schema failures as text a person can act on: the field path joined with '.', then the message.
import type { z } from 'zod';

/** One "field.path: message" line per issue (manifest, scenario and policy files). */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)'}: ${issue.message}`);
}

/** All issues on one line, for error fields of audit events. */
export function issueDetail(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
}

// Schema failures as text a person can act on: the field path joined with '.', then the message.
import type { z } from 'zod';
import type { ErrorIssue } from './errors.js';

/** One "field.path: message" line per issue (manifest, scenario and policy files). */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)'}: ${issue.message}`);
}

/** All issues on one line, for error fields of audit events. */
export function issueDetail(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
}

/** `agents[1].manifest`-style path; the root is `(root)`. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Every issue as {path, message}; an unknown field gets an issue of its own. */
export function zodIssues(error: z.ZodError, message: (issue: z.core.$ZodIssue) => string = (i) => i.message): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: formatIssuePath([...issue.path, key]), message: 'unknown field' });
      continue;
    }
    issues.push({ path: formatIssuePath(issue.path), message: message(issue) });
  }
  return issues;
}

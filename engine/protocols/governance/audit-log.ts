// audit.jsonl (spec §7, decision 13(h)): one compact UTF-8 JSON object per line in the reference key order, written
// append-only with REDACT applied to the persisted copy; the reader validates every line (no coercion, no defaults for
// bad values) and accepts the reference's spaced, ASCII-escaped form as well.
import fs from 'node:fs';
import path from 'node:path';
import {
  type ArenaActionAttempt,
  type ArenaAuditEvent,
  ArenaAuditEventSchema,
  type DefenseDecision,
  REDACTED,
} from '../../contract/governance.js';
import { issueDetail } from '../../contract/schema-issues.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../runtime/private-files.js';
import { pyJson } from './python-json.js';

export function attemptJson(a: ArenaActionAttempt): ArenaActionAttempt {
  return {
    agent_id: a.agent_id,
    framework: a.framework,
    scenario_id: a.scenario_id,
    trial_id: a.trial_id,
    tool: a.tool,
    resource: a.resource,
    args: a.args,
    context: a.context,
    timestamp: a.timestamp,
  };
}

function decisionJson(d: DefenseDecision): DefenseDecision {
  return { effect: d.effect, layer: d.layer, reason: d.reason, policy_id: d.policy_id, severity: d.severity, obligations: d.obligations };
}

/** The event with its keys in reference order (match_id, attempt, decision, status, severity, error, timestamp). */
export function eventJson(e: ArenaAuditEvent): ArenaAuditEvent {
  return {
    match_id: e.match_id,
    attempt: e.attempt && attemptJson(e.attempt),
    decision: e.decision && decisionJson(e.decision),
    status: e.status,
    severity: e.severity,
    error: e.error,
    timestamp: e.timestamp,
  };
}

/**
 * The copy that is persisted: under a `redact` decision every top-level `args` value becomes `<redacted>` (keys kept)
 * and a non-null `context` too. The event passed in is not changed.
 */
export function redactForPersistence(event: ArenaAuditEvent): ArenaAuditEvent {
  if (event.decision?.effect !== 'redact' || event.attempt === null) return event;
  const args = Object.fromEntries(Object.keys(event.attempt.args).map((k) => [k, REDACTED]));
  return { ...event, attempt: { ...event.attempt, args, context: event.attempt.context === null ? null : REDACTED } };
}

export function auditLine(event: ArenaAuditEvent): string {
  return `${pyJson(eventJson(event))}\n`;
}

/** Appends events to one match's audit.jsonl, redacted, one synchronous write per event. */
export class AuditWriter {
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  append(event: ArenaAuditEvent): ArenaAuditEvent {
    const persisted = redactForPersistence(event);
    fs.appendFileSync(this.file, auditLine(persisted), { mode: PRIVATE_FILE_MODE });
    return persisted;
  }
}

export class AuditReadError extends Error {
  override name = 'AuditReadError';
}

/** Every non-blank line validated; a missing file is an empty log. */
export function parseAuditLog(text: string, source = 'audit.jsonl'): ArenaAuditEvent[] {
  const events: ArenaAuditEvent[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new AuditReadError(`${source} line ${index + 1}: invalid JSON: ${(error as Error).message}`);
    }
    const parsed = ArenaAuditEventSchema.safeParse(value);
    if (!parsed.success) throw new AuditReadError(`${source} line ${index + 1}: invalid audit event: ${issueDetail(parsed.error)}`);
    events.push(parsed.data);
  });
  return events;
}

export function readAuditLog(file: string): ArenaAuditEvent[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseAuditLog(text, file);
}

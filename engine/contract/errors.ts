// The engine's one error model. A domain error says what went wrong (`kind`, status-free), which case it is (`code`,
// from the one list below) and, for input problems, where (`issues`). The HTTP layer alone turns a kind into a status.
import { z } from 'zod';

export const ErrorKindSchema = z.enum([
  'invalid',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'gone',
  'too_large',
  'unavailable',
  'internal',
]);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

/** One problem with the input: `path` names the field (`agents[1].manifest`, `(root)`), or is '' for the input as a whole. */
export const ErrorIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

/** Error codes Local Arena adds to the SpecArena catalogue (spec §9), shared with the UI for display. */
export const EngineErrorCode = {
  NotFound: 'NOT_FOUND',
  InvalidJson: 'INVALID_JSON',
  ValidationFailed: 'VALIDATION_FAILED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  Unauthorized: 'UNAUTHORIZED',
  ForbiddenHost: 'FORBIDDEN_HOST',
  ForbiddenOrigin: 'FORBIDDEN_ORIGIN',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  Forbidden: 'FORBIDDEN',
  Conflict: 'CONFLICT',
  Gone: 'GONE',
  Unavailable: 'UNAVAILABLE',
  Internal: 'INTERNAL',
  /** A caller claimed a name only the arena uses (`operator`), decision 11(j). */
  ReservedSender: 'RESERVED_SENDER',
  /** Player chat aimed at a session's operator channel, decision 11(j). */
  OperatorChannel: 'OPERATOR_CHANNEL',
} as const;
export type EngineErrorCodeValue = (typeof EngineErrorCode)[keyof typeof EngineErrorCode];

/** The code an error of a kind gets when its thrower names none. */
export const DEFAULT_CODE_OF_KIND: Record<ErrorKind, string> = {
  invalid: EngineErrorCode.ValidationFailed,
  unauthorized: EngineErrorCode.Unauthorized,
  forbidden: EngineErrorCode.Forbidden,
  not_found: EngineErrorCode.NotFound,
  conflict: EngineErrorCode.Conflict,
  gone: EngineErrorCode.Gone,
  too_large: EngineErrorCode.PayloadTooLarge,
  unavailable: EngineErrorCode.Unavailable,
  internal: EngineErrorCode.Internal,
};

/** The body of every admin API error. */
export const AdminErrorBodySchema = z.object({
  error: z.string(),
  code: z.string(),
  kind: ErrorKindSchema,
  issues: z.array(ErrorIssueSchema).optional(),
});
export type AdminErrorBody = z.infer<typeof AdminErrorBodySchema>;

/** A failure of the engine's own logic; thrown by services, rendered by the HTTP layer's one error handler. */
export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: string;
  readonly issues: readonly ErrorIssue[];
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: { code?: string; issues?: readonly ErrorIssue[] } = {},
  ) {
    super(message);
    this.code = options.code ?? DEFAULT_CODE_OF_KIND[kind];
    this.issues = options.issues ?? [];
  }
}

/** `path: message`, or the message alone for a problem with the input as a whole. */
export function issueLine(issue: ErrorIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

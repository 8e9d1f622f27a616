// Error codes Local Arena adds to the SpecArena catalogue (spec §9), shared with the UI for display.
export const EngineErrorCode = {
  NotFound: 'NOT_FOUND',
  InvalidJson: 'INVALID_JSON',
  ValidationFailed: 'VALIDATION_FAILED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  Unauthorized: 'UNAUTHORIZED',
  ForbiddenHost: 'FORBIDDEN_HOST',
  ForbiddenOrigin: 'FORBIDDEN_ORIGIN',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** A caller claimed a name only the arena uses (`operator`), decision 11(j). */
  ReservedSender: 'RESERVED_SENDER',
  /** Player chat aimed at a session's operator channel, decision 11(j). */
  OperatorChannel: 'OPERATOR_CHANNEL',
} as const;

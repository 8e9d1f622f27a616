// Error kinds the UI tells apart: each maps to a different message and a different fix.
import type { ErrorIssue, ErrorKind } from '../../../engine/contract/errors.js';

/** Network failure or timeout: the engine is not running or not on this address. */
export class EngineUnreachableError extends Error {
  override name = 'EngineUnreachableError';
}

/** 401 on an admin route: the token is missing, mistyped or from an earlier launch. */
export class UnauthorizedError extends Error {
  override name = 'UnauthorizedError';
}

/** Any other non-2xx answer, with the engine's own message and code (and, from admin routes, kind and issues). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly kind?: ErrorKind,
    readonly issues: readonly ErrorIssue[] = [],
  ) {
    super(message);
  }
}

/** The engine answered, but not in the shape the contract promises (version skew or a bug). */
export class ContractError extends Error {
  override name = 'ContractError';
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

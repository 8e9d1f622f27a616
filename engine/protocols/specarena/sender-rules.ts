// Names and channels only the arena itself writes (decision 11(j)): whoever calls the API, in any mode, cannot speak
// as the operator or write into a session's operator channel, so nothing there can be a forged operator message.
import { EngineErrorCode } from '../../contract/errors.js';
import { isOperatorChannel } from '../../core/redaction.js';
import { ArenaError } from './arena-error.js';

/**
 * `operator` signs every operator message and is the `to` of every logged action; `viewer` means "no identity".
 * Compared without case and surrounding space, so `Operator ` cannot pass for the operator in a transcript either.
 */
export const RESERVED_SENDERS: readonly string[] = ['operator', 'viewer'];

export function isReservedSender(name: string): boolean {
  return RESERVED_SENDERS.includes(name.trim().toLowerCase());
}

/** `from: "viewer"` is the reference's "no identity" and is handled before this; any other reserved name is refused. */
export function assertNotReserved(name: string): void {
  if (isReservedSender(name)) {
    throw new ArenaError(403, `"${name.trim()}" is a reserved name: only the arena speaks as it`, EngineErrorCode.ReservedSender);
  }
}

/** Player chat may go to any channel except a session's operator channel (`challenge_<id>`), REST and MCP alike. */
export function assertPlayerWritableChannel(channel: string): void {
  if (isOperatorChannel(channel)) {
    throw new ArenaError(
      403,
      `${channel} is an operator channel: only the arena writes there (send actions with /api/arena/message)`,
      EngineErrorCode.OperatorChannel,
    );
  }
}

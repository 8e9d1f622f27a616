// Termination taxonomy (§8.1): why a game ended and who is at fault. Only `none` and `agent` faults are
// rated; an agent fault is a forfeit of the faulted seats. Harness, external and operator faults void the game.
import { z } from 'zod';

export const TERMINATIONS = [
  'completed',
  'adjudicated',
  'agent_timeout',
  'agent_crash',
  'agent_illegal_action',
  'agent_protocol_violation',
  'agent_resource_limit',
  'harness_error',
  'harness_stall',
  'provider_error',
  'interrupted',
] as const;

export const TerminationSchema = z.enum(TERMINATIONS);
export type Termination = z.infer<typeof TerminationSchema>;

export const FaultSchema = z.enum(['none', 'agent', 'harness', 'external', 'operator']);
export type Fault = z.infer<typeof FaultSchema>;

export const TERMINATION_FAULT: Readonly<Record<Termination, Fault>> = {
  completed: 'none',
  adjudicated: 'none',
  agent_timeout: 'agent',
  agent_crash: 'agent',
  agent_illegal_action: 'agent',
  agent_protocol_violation: 'agent',
  agent_resource_limit: 'agent',
  harness_error: 'harness',
  harness_stall: 'harness',
  provider_error: 'external',
  interrupted: 'operator',
};

export function terminationFault(termination: Termination): Fault {
  return TERMINATION_FAULT[termination];
}

/** Rated: ended normally or by an agent's forfeit. */
export function isRated(termination: Termination): boolean {
  const fault = TERMINATION_FAULT[termination];
  return fault === 'none' || fault === 'agent';
}

/** Void games are replayed on the same opening and seats, and never rated. */
export function isVoid(termination: Termination): boolean {
  return !isRated(termination);
}

export function isForfeit(termination: Termination): boolean {
  return TERMINATION_FAULT[termination] === 'agent';
}

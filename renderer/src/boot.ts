// Start-up: find the engine, then prove the connection with one admin call before showing anything.
import type { OverviewResponse } from '../../engine/contract/admin.js';
import {
  type AccessProblem,
  type BootstrapEnv,
  bootstrapConnection,
  type Connection,
  forgetToken,
  rememberReturnRoute,
} from './arena-client/bootstrap.js';
import { type ArenaClient, createArenaClient } from './arena-client/client.js';
import type { ReachabilityHooks } from './arena-client/engine-monitor.js';
import { describeError, EngineUnreachableError, UnauthorizedError } from './arena-client/errors.js';

export type BootErrorKind = 'no-token' | 'unauthorized' | 'unreachable' | 'shell' | 'other';

export type BootState =
  | { phase: 'loading' }
  | { phase: 'error'; kind: BootErrorKind; title: string; detail: string; hint?: string }
  | { phase: 'loaded'; connection: Connection; client: ArenaClient; overview: OverviewResponse };

const OPEN_THE_LINK =
  'Open the link printed by arena serve (it looks like http://127.0.0.1:PORT/#code=…); each link works once, for two minutes: press Enter in its terminal for a new one.';

export function bootError(error: unknown, connection: Connection): Extract<BootState, { phase: 'error' }> {
  if (error instanceof UnauthorizedError) {
    return {
      phase: 'error',
      kind: 'unauthorized',
      title: 'The engine did not accept this link’s token',
      detail: 'The admin token is wrong or belongs to an earlier launch of the engine.',
      hint: connection.mode === 'electron' ? 'The engine restarted; retry to reconnect.' : OPEN_THE_LINK,
    };
  }
  if (error instanceof EngineUnreachableError) {
    return {
      phase: 'error',
      kind: 'unreachable',
      title: 'The arena engine is not reachable',
      detail: error.message,
      hint:
        connection.mode === 'electron'
          ? 'The engine may be restarting; this page retries by itself.'
          : 'Start it with arena serve, then open the link it prints. This page retries by itself.',
    };
  }
  return { phase: 'error', kind: 'other', title: 'The engine gave an unexpected answer', detail: describeError(error) };
}

/** `reachability`: told of every request the client sends (engine-monitor.ts), so the loaded page can recover. */
export async function boot(env: BootstrapEnv, signal?: AbortSignal, reachability?: ReachabilityHooks): Promise<BootState> {
  const found = await bootstrapConnection(env);
  if (!found.ok) {
    if (found.reason === 'code-failed')
      return { phase: 'error', kind: 'no-token', title: 'This link no longer works', detail: found.message, hint: OPEN_THE_LINK };
    return { phase: 'error', kind: 'shell', title: 'The desktop app could not start its engine', detail: found.message };
  }
  const problem = found.unverified;
  if (problem && env.probeSession && !(await env.probeSession().catch(() => true))) {
    rememberReturnRoute(env);
    return noAccess(problem);
  }
  const client = createArenaClient(found.connection, undefined, reachability);
  try {
    const overview = await client.overview(signal);
    return { phase: 'loaded', connection: found.connection, client, overview };
  } catch (error) {
    if (error instanceof UnauthorizedError && found.connection.mode === 'browser') {
      forgetToken(env.storage);
      rememberReturnRoute(env);
      // No token and no (live) session cookie: say what was missing rather than that a token was refused.
      if (problem) return noAccess(problem);
    }
    return bootError(error, found.connection);
  }
}

function noAccess(problem: AccessProblem): Extract<BootState, { phase: 'error' }> {
  return {
    phase: 'error',
    kind: 'no-token',
    title: problem.reason === 'code-failed' ? 'This link no longer works' : 'No admin token',
    detail: problem.message,
    hint: OPEN_THE_LINK,
  };
}

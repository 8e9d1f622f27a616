// What every feature needs once the app has loaded: the engine client, the connection and the overview.
import { createContext, useContext } from 'react';
import type { OverviewResponse } from '../../engine/contract/admin.js';
import type { ArenaApi } from '../../engine/contract/channels.js';
import type { Connection } from './arena-client/bootstrap.js';
import type { ArenaClient } from './arena-client/client.js';

export interface ArenaContextValue {
  client: ArenaClient;
  connection: Connection;
  overview: OverviewResponse;
  refreshOverview(): void;
  /** The desktop shell's API, absent in a plain browser. */
  shell: ArenaApi | undefined;
}

export const ArenaContext = createContext<ArenaContextValue | null>(null);

export function useArena(): ArenaContextValue {
  const value = useContext(ArenaContext);
  if (!value) throw new Error('useArena() outside the loaded app');
  return value;
}

/** Display name of a challenge type, falling back to the type id. */
export function challengeName(overview: OverviewResponse, type: string): string {
  return overview.challenges[type]?.name ?? type;
}

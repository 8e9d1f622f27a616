// Follows a running ClawArena match: polls its events with the `after` cursor and keeps the log so far, until the
// match has finished (the stored record takes over then). A failed poll shows as an error and the next poll retries.
import { useEffect, useState } from 'react';
import type { TranscriptEntry } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import type { LiveStatus } from '../../arena-client/live.js';
import { fetchClawMatchEvents } from './match-viewer-api.js';

const POLL_MS = 700;

export interface LiveMatch {
  events: TranscriptEntry[];
  status: string | null;
  live: LiveStatus;
  error: unknown;
}

export function useLiveMatch(matchId: number): LiveMatch {
  const { client } = useArena();
  const [state, setState] = useState<LiveMatch>({ events: [], status: null, live: 'connecting', error: null });
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let after = 0;
    const poll = async (): Promise<void> => {
      try {
        const page = await fetchClawMatchEvents(client, matchId, after, signal);
        if (signal.aborted) return;
        after = page.next;
        const finished = page.status === 'finished';
        setState((previous) => ({
          events: page.events.length > 0 ? [...previous.events, ...page.events] : previous.events,
          status: page.status,
          live: finished ? 'closed' : 'open',
          error: null,
        }));
        if (finished) return;
      } catch (error) {
        if (signal.aborted) return;
        setState((previous) => ({ ...previous, live: 'reconnecting', error }));
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, matchId]);
  return state;
}

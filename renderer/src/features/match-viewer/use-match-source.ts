// Where a game's record comes from: the stored game once it has finished; while a game is still running, its live
// session (SpecArena over SSE, a ClawArena match by its events) until it leaves the running list, then the stored record.
import { useEffect, useState } from 'react';
import type { RunningGame, TournamentGameDetailResponse } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { fetchGame, fetchRunning, isNotFound } from './match-viewer-api.js';

export type MatchSource =
  | { phase: 'loading' }
  | { phase: 'stored'; detail: TournamentGameDetailResponse }
  | { phase: 'live'; running: RunningGame }
  /** Running, but its session or match is not created yet, or not started yet, or being stored. */
  | { phase: 'waiting'; running: RunningGame | null }
  | { phase: 'error'; error: unknown };

const POLL_MS = 2000;

export function useMatchSource(tournamentId: string, index: number): { source: MatchSource; retry(): void } {
  const { client } = useArena();
  const [source, setSource] = useState<MatchSource>({ phase: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the Retry trigger.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let liveSession: string | null = null;

    const stored = async (): Promise<boolean> => {
      try {
        const detail = await fetchGame(client, tournamentId, index, signal);
        if (!signal.aborted) setSource({ phase: 'stored', detail });
        return true; // a stored game never changes again
      } catch (error) {
        if (!signal.aborted && !isNotFound(error)) setSource({ phase: 'error', error });
        return signal.aborted || !isNotFound(error);
      }
    };

    // The running list first: asking for a game that is still being played would answer 404 each poll.
    const check = async (): Promise<void> => {
      let running: RunningGame | null = null;
      let runningKnown = true;
      try {
        running = (await fetchRunning(client, tournamentId, signal)).find((g) => g.game_index === index) ?? null;
      } catch (error) {
        if (signal.aborted) return;
        // An engine without the running route still shows finished games.
        if (!isNotFound(error)) {
          setSource({ phase: 'error', error });
          return;
        }
        runningKnown = false;
      }
      if (signal.aborted) return;
      if (running?.session_id) {
        // The same live view stays mounted while its session is unchanged.
        if (liveSession !== running.session_id) {
          liveSession = running.session_id;
          setSource({ phase: 'live', running });
        }
      } else if (running === null || !runningKnown) {
        if (await stored()) return;
        setSource((previous) => (previous.phase === 'live' ? previous : { phase: 'waiting', running: null }));
      } else setSource({ phase: 'waiting', running });
      timer = setTimeout(() => void check(), POLL_MS);
    };
    void check();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, tournamentId, index, attempt]);

  return { source, retry: () => setAttempt((n) => n + 1) };
}

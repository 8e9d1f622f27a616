// One session, kept current: the admin API gives the full record; two SSE streams (operator channel and chat)
// signal changes as they happen and carry new messages, each followed by a debounced admin re-read.
import { useEffect, useState } from 'react';
import type { AdminSessionDetail } from '../../../../engine/contract/admin.js';
import type { SseEvent } from '../../../../engine/contract/specarena.js';
import { operatorChannel } from '../../../../engine/core/redaction.js';
import { useArena } from '../../app-context.js';
import { type LiveStatus, openLiveStream } from '../../arena-client/live.js';
import { type TranscriptKey, withFreshDetail, withLiveMessages } from './session-view.js';

export interface LiveSession {
  detail: AdminSessionDetail | undefined;
  /** The engine no longer keeps the session (only when followed with `mayVanish`): a tournament removed it. */
  gone: boolean;
  error: unknown;
  live: LiveStatus;
  reload(): void;
}

const DEBOUNCE_MS = 200;
/** Safety net for a stream that silently stalls (proxies, sleep/resume). */
const POLL_MS = 15_000;

/** Worst of the two streams: "open" only when both are. */
function combine(a: LiveStatus, b: LiveStatus): LiveStatus {
  const order: LiveStatus[] = ['closed', 'reconnecting', 'connecting', 'open'];
  return order[Math.min(order.indexOf(a), order.indexOf(b))] ?? 'connecting';
}

/**
 * `mayVanish`: the session belongs to a tournament game, whose session the engine removes once a forfeited or void
 * game's record is stored; it is then read through the route that answers null instead of 404, and reads stop.
 */
export function useLiveSession(id: string, mayVanish = false): LiveSession {
  const { client, connection } = useArena();
  const [detail, setDetail] = useState<AdminSessionDetail | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState<Record<TranscriptKey, LiveStatus>>({ operatorLog: 'connecting', chat: 'connecting' });
  const [reloads, setReloads] = useState(0);
  const [gone, setGone] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` is the Retry trigger.
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let again = false;
    setGone(false);
    setDetail((previous) => (previous?.session.id === id ? previous : undefined));

    const refetch = async (): Promise<void> => {
      // One request at a time; a burst of events collapses into one follow-up read.
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      try {
        const fresh = mayVanish ? await client.keptSession(id, controller.signal) : await client.session(id, controller.signal);
        if (controller.signal.aborted) return;
        if (fresh === null) {
          setGone(true);
          stop();
          return;
        }
        setDetail((previous) => withFreshDetail(previous, fresh));
        setError(null);
      } catch (err) {
        if (!controller.signal.aborted) setError(err);
      } finally {
        inFlight = false;
        if (again && !controller.signal.aborted) {
          again = false;
          void refetch();
        }
      }
    };
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void refetch(), ms);
    };

    const onEvent = (key: TranscriptKey) => (event: SseEvent) => {
      if (event.type === 'initial' || event.type === 'new_message') {
        const messages = event.type === 'initial' ? event.messages : [event.message];
        if (messages.length > 0) setDetail((previous) => (previous ? withLiveMessages(previous, key, messages) : previous));
      }
      // game_ended: read the final state (scores, identities, game state) at once.
      schedule(event.type === 'game_ended' ? 0 : DEBOUNCE_MS);
    };

    void refetch();
    const resumeVia = connection.mode === 'electron' ? 'query' : 'header';
    const streams = (
      [
        ['operatorLog', operatorChannel(id)],
        ['chat', id],
      ] as const
    ).map(([key, channel]) =>
      openLiveStream({
        baseUrl: connection.baseUrl,
        channel,
        resumeVia,
        onEvent: onEvent(key),
        onStatus: (s) => setStatus((previous) => ({ ...previous, [key]: s })),
      }),
    );
    const poll = setInterval(() => {
      if (document.visibilityState !== 'hidden') schedule(0);
    }, POLL_MS);

    function stop(): void {
      controller.abort();
      clearTimeout(timer);
      clearInterval(poll);
      for (const stream of streams) stream.close();
    }
    return stop;
  }, [id, client, connection, reloads, mayVanish]);

  return { detail, gone, error, live: combine(status.operatorLog, status.chat), reload: () => setReloads((n) => n + 1) };
}

// The tournament's SSE feed (admin route, so the token goes in a header — hence fetch streaming, not EventSource).
// The feed has no event ids: every (re)connect opens with a `snapshot`, after which the view re-reads what it shows.
import {
  type TournamentEvent,
  TournamentEventSchema,
  type TournamentSummary,
  TournamentSummarySchema,
} from '../../../../engine/contract/tournament.js';
import { type LiveStatus, type LiveStream, openSseStream, type SseFrame } from '../../arena-client/live.js';

export type FeedMessage = { event: 'snapshot'; summary: TournamentSummary } | TournamentEvent;

/** A frame as a feed message; frames that do not match the contract are dropped rather than crashing the view. */
export function decodeFeedFrame(frame: SseFrame): FeedMessage | null {
  let data: unknown;
  try {
    data = JSON.parse(frame.data);
  } catch {
    return null;
  }
  if (frame.event === 'snapshot') {
    const summary = TournamentSummarySchema.safeParse(data);
    return summary.success ? { event: 'snapshot', summary: summary.data } : null;
  }
  const event = TournamentEventSchema.safeParse(data);
  return event.success ? event.data : null;
}

export function openTournamentFeed(options: {
  baseUrl: string;
  /** Null in a tab that relies on the engine's session cookie. */
  token: string | null;
  path: string;
  onMessage: (message: FeedMessage) => void;
  onStatus: (status: LiveStatus) => void;
}): LiveStream {
  return openSseStream({
    request: () => ({
      url: new URL(options.path, options.baseUrl).href,
      headers: { Accept: 'text/event-stream', ...(options.token === null ? {} : { Authorization: `Bearer ${options.token}` }) },
      credentials: 'same-origin',
    }),
    onFrame: (frame) => {
      const message = decodeFeedFrame(frame);
      if (message) options.onMessage(message);
    },
    onStatus: options.onStatus,
  });
}

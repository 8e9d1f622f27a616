// events.jsonl: the run as a stream of events, one JSON object a line, the same a live view would have seen.

import type { StoredTournamentGame } from '../../db/store.js';
import type { ExportInput } from './export-input.js';
import { streamFile } from './export-stream.js';

/** One line per event: run manifest first, then per game its start, every message with indices, and its end. */
export function writeEventsJsonl(file: string, input: ExportInput, redact: (text: string) => string): Promise<void> {
  return streamFile(file, redact, async (writeText) => {
    const write = (value: unknown) => writeText(`${JSON.stringify(value)}\n`);
    write({ event: 'manifest', tournament_id: input.tournament.id, manifest: input.tournament.manifest });
    for (const row of input.games.eachWithTranscript()) {
      for (const line of gameEvents(row, input.agentIds, row.transcript)) write(line);
      await input.games.pace();
    }
  });
}

/** The events.jsonl lines of one game attempt: its start, every message with its index, and its end. */
export function gameEvents(row: StoredTournamentGame, agentIds: readonly string[], transcript: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  const write = (value: unknown) => out.push(value);
  const base = { tournament_id: row.tournamentId, game_index: row.gameIndex, attempt: row.attempt };
  write({
    event: 'game_started',
    ...base,
    at: row.startedAt,
    challenge: row.challenge,
    seats: row.seats.map((a) => agentIds[a]),
    seed: row.seed,
    session_id: row.sessionId,
  });
  for (const entry of transcript as Array<Record<string, unknown>>) {
    if (entry.channel === 'model') {
      const { kind, ...data } = (entry.data ?? {}) as Record<string, unknown>;
      if (kind === 'fallback') {
        const { fallback_cause, ...rest } = data;
        write({
          event: 'model_fallback',
          ...base,
          index: entry.index,
          at: entry.timestamp,
          seat: entry.from,
          cause: fallback_cause,
          ...rest,
        });
        continue;
      }
      write({
        event: 'model_turn',
        ...base,
        index: entry.index,
        at: entry.timestamp,
        seat: entry.from,
        ...data,
        completion: entry.content,
      });
      continue;
    }
    if (entry.channel === 'match') {
      const { index, timestamp, event_seq, content, is_auto, visibility, data } = entry;
      write({ event: 'match_event', ...base, index, at: timestamp, event_seq, type: content, is_auto, visibility, data });
      continue;
    }
    const fromSeat = typeof entry.from === 'number';
    const kind =
      entry.channel === 'operator' ? (fromSeat ? 'player_action' : 'operator_message') : fromSeat ? 'player_chat' : 'operator_chat';
    write({ event: kind, ...base, index: entry.index, at: entry.timestamp, from: entry.from, to: entry.to, content: entry.content });
  }
  write({
    event: 'game_ended',
    ...base,
    at: row.endedAt,
    termination: row.termination,
    fault: row.fault,
    faulted_seats: row.faultedSeats,
    placements: row.placements,
    scores: row.scores,
    isolation: row.isolation ?? null,
  });
  return out;
}

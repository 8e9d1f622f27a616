// In-process fan-out of committed chat messages and game endings to SSE subscribers.
import type { ChallengeOperatorState, ChatMessage } from '../contract/specarena.js';
import { operatorChannel } from './redaction.js';

export type LiveEvent = { type: 'new_message'; message: ChatMessage } | { type: 'game_ended'; data: ChallengeOperatorState };
export type LiveListener = (event: LiveEvent) => void;

export function createLiveBus() {
  const byChannel = new Map<string, Set<LiveListener>>();
  const closers = new Set<() => void>();

  function emit(channel: string, event: LiveEvent): void {
    const listeners = byChannel.get(channel);
    if (!listeners) return;
    for (const listener of [...listeners]) listener(event);
  }

  return {
    /** Registers synchronously, so nothing committed after the caller's snapshot can be missed. */
    subscribe(channel: string, listener: LiveListener, onClose?: () => void): () => void {
      let listeners = byChannel.get(channel);
      if (!listeners) {
        listeners = new Set();
        byChannel.set(channel, listeners);
      }
      listeners.add(listener);
      const close = () => onClose?.();
      closers.add(close);
      return () => {
        closers.delete(close);
        const set = byChannel.get(channel);
        set?.delete(listener);
        if (set && set.size === 0) byChannel.delete(channel);
      };
    },
    publishMessage(message: ChatMessage): void {
      emit(message.channel, { type: 'new_message', message });
    },
    publishGameEnded(sessionId: string, state: ChallengeOperatorState): void {
      emit(sessionId, { type: 'game_ended', data: state });
      emit(operatorChannel(sessionId), { type: 'game_ended', data: state });
    },
    subscriberCount(): number {
      let n = 0;
      for (const set of byChannel.values()) n += set.size;
      return n;
    },
    /** Ends every open stream (reset hook, shutdown). */
    closeAll(): void {
      for (const close of [...closers]) close();
      closers.clear();
      byChannel.clear();
    },
  };
}

export type LiveBus = ReturnType<typeof createLiveBus>;

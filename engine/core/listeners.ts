// In-process fan-out of events to listeners. A listener that throws (a closed stream) is skipped, never the others,
// and never the code that emitted the event.

export interface Listeners<T> {
  /** Adds a listener; the returned function removes it. */
  add(listener: (event: T) => void): () => void;
  emit(event: T): void;
  readonly size: number;
}

export function createListeners<T>(): Listeners<T> {
  const set = new Set<(event: T) => void>();
  return {
    add(listener) {
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit(event) {
      for (const listener of [...set]) {
        try {
          listener(event);
        } catch {
          // A failing observer must not break the emitter.
        }
      }
    },
    get size() {
      return set.size;
    },
  };
}

/** Listeners per key (one tournament's feed); a key's set goes when its last listener does. */
export function createKeyedListeners<K, T>() {
  const byKey = new Map<K, Listeners<T>>();
  return {
    add(key: K, listener: (event: T) => void): () => void {
      let listeners = byKey.get(key);
      if (!listeners) {
        listeners = createListeners<T>();
        byKey.set(key, listeners);
      }
      const remove = listeners.add(listener);
      return () => {
        remove();
        if (byKey.get(key)?.size === 0) byKey.delete(key);
      };
    },
    emit(key: K, event: T): void {
      byKey.get(key)?.emit(event);
    },
  };
}

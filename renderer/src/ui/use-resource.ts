// Loads data for a view, optionally refreshing it on an interval. Keeps the last good data while a refresh fails,
// so a flaky moment shows a warning instead of blanking the page.
import { type DependencyList, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { EngineEpochContext } from './engine-epoch.js';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  /** True only until the first answer for the current inputs (refreshes do not flash a spinner). */
  loading: boolean;
  reload(): void;
}

export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  options: { refreshMs?: number } = {},
): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  const keyRef = useRef<string | null>(null);
  useEffect(() => {
    loadRef.current = load;
  });

  const key = JSON.stringify(deps);
  // The engine came back after an outage: load again (the data stays shown meanwhile, like a refresh).
  const epoch = useContext(EngineEpochContext);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the caller's deps, `tick` for reloads and refreshes, `epoch` for recoveries.
  useEffect(() => {
    const controller = new AbortController();
    // New inputs (another session, another filter) must not show the previous inputs' data.
    if (keyRef.current !== key) {
      keyRef.current = key;
      setState({ data: undefined, error: null, loading: true });
    }
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((previous) => ({ data: previous.data, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [key, tick, epoch]);

  const refreshMs = options.refreshMs;
  useEffect(() => {
    if (!refreshMs) return;
    const timer = setInterval(() => {
      // No point polling a tab nobody looks at.
      if (document.visibilityState !== 'hidden') setTick((t) => t + 1);
    }, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

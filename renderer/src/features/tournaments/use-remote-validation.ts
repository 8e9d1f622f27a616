// The engine's verdict on the definition being built (manifests readable, challenges installed, the planned game
// count), asked for a moment after the user stops typing, and only once the page's own checks pass.
import { useEffect, useState } from 'react';
import type { TournamentValidateResponse } from '../../../../engine/contract/tournament.js';
import { useArena } from '../../app-context.js';
import { ApiError } from '../../arena-client/errors.js';
import { type FieldErrors, remoteErrors } from './builder-form.js';
import { tournamentsApi } from './tournaments-api.js';

export const VALIDATE_DEBOUNCE_MS = 400;

export type RemoteValidation =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'ok'; result: TournamentValidateResponse }
  | { state: 'invalid'; errors: FieldErrors }
  /** The engine could not be asked (unreachable, 5xx): not the definition's fault. */
  | { state: 'unavailable'; error: unknown };

export function useRemoteValidation(spec: Record<string, unknown>, enabled: boolean, baseDir: string | undefined): RemoteValidation {
  const { client } = useArena();
  const [validation, setValidation] = useState<RemoteValidation>({ state: 'idle' });
  const key = JSON.stringify(spec);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `spec` (a new object every render).
  useEffect(() => {
    if (!enabled) {
      setValidation({ state: 'idle' });
      return;
    }
    setValidation({ state: 'checking' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      tournamentsApi(client)
        .validate(spec, baseDir, controller.signal)
        .then(
          (result) => {
            if (!controller.signal.aborted) setValidation({ state: 'ok', result });
          },
          (error: unknown) => {
            if (controller.signal.aborted) return;
            if (error instanceof ApiError && error.status >= 400 && error.status < 500)
              setValidation({
                state: 'invalid',
                // An answer without issues (not the definition's validator) is shown as one problem with the whole.
                errors: remoteErrors(error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }]),
              });
            else setValidation({ state: 'unavailable', error });
          },
        );
    }, VALIDATE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, enabled, baseDir, client]);
  return validation;
}

import { ApiError, ContractError, describeError, EngineUnreachableError, UnauthorizedError } from '../arena-client/errors.js';

/** What went wrong and what the researcher can do about it, per error kind. */
export function errorAdvice(error: unknown): { title: string; detail: string; hint?: string } {
  if (error instanceof EngineUnreachableError) {
    return {
      title: 'Engine unreachable',
      detail: error.message,
      hint: 'Is arena serve (or the desktop app) still running? This page retries by itself.',
    };
  }
  if (error instanceof UnauthorizedError) {
    return {
      title: 'The engine rejected the admin token',
      detail: error.message,
      hint: 'The token changes on every launch. Open the link printed by arena serve.',
    };
  }
  if (error instanceof ContractError)
    return {
      title: 'Unexpected answer from the engine',
      detail: error.message,
      hint: 'The UI and the engine may be from different builds.',
    };
  if (error instanceof ApiError) return { title: `The engine refused the request (HTTP ${error.status})`, detail: error.message };
  return { title: 'Something went wrong', detail: describeError(error) };
}

export function ErrorNotice({ error, onRetry, compact = false }: { error: unknown; onRetry?: () => void; compact?: boolean }) {
  const advice = errorAdvice(error);
  return (
    <div className={compact ? 'notice notice-error notice-compact' : 'notice notice-error'} role="alert">
      <div>
        <strong>{advice.title}</strong>
        <span className="notice-detail">{advice.detail}</span>
        {advice.hint ? <span className="notice-hint">{advice.hint}</span> : null}
      </div>
      {onRetry ? (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

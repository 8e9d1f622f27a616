// Model turns of a game, one disclosure per call: why a model did what it did (prompt, completion, usage, fallback).
import { CopyButton } from '../../ui/copy-button.js';
import { formatCost } from '../../ui/format.js';
import { formatDuration } from './game-summary.js';
import type { ModelTurnView } from './model-turns.js';

export function ModelTurnsPane({ turns, seatAgents }: { turns: ModelTurnView[]; seatAgents: readonly string[] }) {
  if (turns.length === 0) return null;
  return (
    <section className="card" aria-labelledby="mv-model-title" data-testid="model-turns">
      <h2 id="mv-model-title">Model turns</h2>
      <p className="muted small">Prompts and completions as the model agent recorded them (long texts are cut at the agent's cap).</p>
      <ol className="stack-list">
        {turns.map((t) => (
          <li key={t.key}>
            <details className="mv-turn">
              <summary>
                <span className="strong">{seatAgents[t.seat] ?? `Seat ${t.seat + 1}`}</span>
                <span className="muted">
                  {' '}
                  · seat {t.seat + 1} · turn {t.turn ?? '?'}
                  {t.phase ? ` · ${t.phase}` : ''}
                  {t.attempt && t.attempt > 1 ? ` · attempt ${t.attempt}` : ''}
                </span>
                {t.promptTokens !== null || t.completionTokens !== null ? (
                  <span className="tag">
                    {t.promptTokens ?? '?'} + {t.completionTokens ?? '?'} tokens
                  </span>
                ) : null}
                {t.latencyMs !== null ? <span className="tag">{formatDuration(t.latencyMs)}</span> : null}
                {t.costUsd !== null ? <span className="tag">{formatCost(t.costUsd)}</span> : null}
                {t.outcome && t.outcome !== 'ok' ? <span className="tag mv-fallback">{t.outcome.replace(/_/g, ' ')}</span> : null}
                {t.fallback ? <span className="tag mv-fallback">fallback: {t.fallback}</span> : null}
                {t.truncated ? <span className="tag">truncated</span> : null}
              </summary>
              {t.kind === 'fallback' ? (
                <dl className="facts small mv-turn-body">
                  <dt>Cause</dt>
                  <dd>{t.fallback ?? 'unknown'}</dd>
                  <dt>Detail</dt>
                  <dd>{t.detail ?? '–'}</dd>
                  <dt>Action taken</dt>
                  <dd className="mono">{t.action ?? t.completion}</dd>
                </dl>
              ) : (
                <div className="mv-turn-body">
                  <div className="mv-turn-head">
                    <h3>Prompt</h3>
                    <CopyButton text={t.prompt} label={`Copy prompt of turn ${t.turn ?? '?'}, seat ${t.seat + 1}`} />
                  </div>
                  <pre className="code-block mv-turn-text">{t.prompt || '(not recorded)'}</pre>
                  <div className="mv-turn-head">
                    <h3>Completion</h3>
                    <CopyButton text={t.completion} label={`Copy completion of turn ${t.turn ?? '?'}, seat ${t.seat + 1}`} />
                  </div>
                  <pre className="code-block mv-turn-text">{t.completion || '(empty)'}</pre>
                </div>
              )}
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

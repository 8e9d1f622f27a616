// The viewer header's actions for one stored game: export it on its own (JSON, JSONL) or play it again as a new
// one-game run with the same agents, seed and seats, then open that run.
import { useState } from 'react';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { navigate } from '../../ui/navigation.js';
import { ExportButtons } from '../reports/export-buttons.js';
import { tournamentsApi } from '../tournaments/tournaments-api.js';

export function GameActions({ tournamentId, index }: { tournamentId: string; index: number }) {
  const { client } = useArena();
  const api = tournamentsApi(client);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const stem = `${tournamentId}-game-${index}`;
  const rerun = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await api.rerun(tournamentId, index);
      navigate(routeHref({ name: 'tournament', id: created.id }));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <div className="mv-game-actions row-gap" data-testid="game-actions">
      <ExportButtons
        testId="game-export"
        choices={[
          {
            label: 'Export JSON',
            fileName: `${stem}.json`,
            filter: { name: 'JSON', extensions: ['json'] },
            load: () => api.gameExport(tournamentId, index, 'json'),
          },
          {
            label: 'Export JSONL',
            fileName: `${stem}.jsonl`,
            filter: { name: 'JSON Lines', extensions: ['jsonl'] },
            load: () => api.gameExport(tournamentId, index, 'jsonl'),
          },
        ]}
      />
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={busy}
        onClick={() => void rerun()}
        title="Play this game again as a new one-game tournament: same agents, seed and seats"
      >
        {busy ? 'Starting…' : 'Re-run this game'}
      </button>
      {error ? <ErrorNotice error={error} compact /> : null}
    </div>
  );
}

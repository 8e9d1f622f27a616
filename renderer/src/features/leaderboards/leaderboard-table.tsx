import { useState } from 'react';
import type { ScoringEntry } from '../../../../engine/contract/specarena.js';
import { formatNumber } from '../../ui/format.js';
import { metricColumns, metricLabel, rankEntries } from './metric-labels.js';

export function LeaderboardTable({ entries, testId }: { entries: ScoringEntry[]; testId?: string }) {
  const columns = metricColumns(entries);
  const [sortKey, setSortKey] = useState<string | undefined>(undefined);
  const activeKey = sortKey && columns.includes(sortKey) ? sortKey : columns[0];
  const ranked = rankEntries(entries, activeKey);
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          <th className="num">#</th>
          <th>Player</th>
          <th className="num">Games</th>
          {columns.map((key) => (
            <th key={key} className="num" aria-sort={key === activeKey ? 'descending' : 'none'}>
              <button type="button" className={key === activeKey ? 'sort sort-active' : 'sort'} onClick={() => setSortKey(key)} title={key}>
                {metricLabel(key)}
              </button>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ranked.map((entry, index) => (
          <tr key={entry.playerId} data-player-id={entry.playerId}>
            <td className="num muted">{index + 1}</td>
            <td>
              <span className="strong">{entry.username ?? entry.playerId}</span>
              {entry.isBenchmark ? <span className="tag">benchmark</span> : null}
              {entry.model || entry.username ? (
                <div className="muted small">
                  {entry.model ?? ''}
                  {entry.username ? <span className="mono"> {entry.playerId}</span> : null}
                </div>
              ) : null}
            </td>
            <td className="num">{entry.gamesPlayed}</td>
            {columns.map((key) => (
              <td key={key} className="num">
                {formatNumber(entry.metrics[key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// Per model server: the capacity the engine scheduled against, calls, utilisation and the time calls waited for a
// slot. The engine's figures as they are (GET /tournaments/:id/model-servers, the same as report.json's
// `model_servers` and report.md's "Model servers"); shown by the live view and the report page for runs with model agents.
import type { TournamentModelServersResponse } from '../../../../engine/contract/model-server-use.js';
import { formatNumber } from '../../ui/format.js';

export function ModelServersPanel({ data }: { data: TournamentModelServersResponse }) {
  if (data.model_agents === 0) return null;
  return (
    <section className="card" aria-labelledby="t-model-servers-title" data-testid="model-servers">
      <h2 id="t-model-servers-title">Model servers</h2>
      <p className="small muted">
        Calls of finished games. Utilisation: time spent answering, summed over calls, over capacity × the span from the first call to the
        last.
      </p>
      {data.servers.length === 0 ? (
        <p className="empty small">No model calls recorded yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Model servers">
            <thead>
              <tr>
                <th>Server</th>
                <th className="num">Capacity</th>
                <th className="num">Calls</th>
                <th className="num">Cache hits</th>
                <th className="num">Utilisation</th>
                <th className="num">Mean wait (ms)</th>
                <th className="num">Longest wait (ms)</th>
              </tr>
            </thead>
            <tbody>
              {data.servers.map((s) => (
                <tr
                  key={s.server}
                  data-server={s.server}
                  data-calls={s.calls}
                  data-capacity={s.capacity}
                  data-utilisation={s.utilisation}
                  data-queued-mean={s.queued_ms_mean}
                  data-queued-max={s.queued_ms_max}
                >
                  <td className="mono">{s.server}</td>
                  <td className="num">{s.capacity || '—'}</td>
                  <td className="num">{formatNumber(s.calls)}</td>
                  <td className="num">{formatNumber(s.cache_hits)}</td>
                  <td className="num">{(s.utilisation * 100).toFixed(1)}%</td>
                  <td className="num">{formatNumber(s.queued_ms_mean)}</td>
                  <td className="num">{formatNumber(s.queued_ms_max)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

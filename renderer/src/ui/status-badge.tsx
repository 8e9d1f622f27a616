import type { SessionStatus } from '../../../engine/contract/specarena.js';

const LABELS: Record<SessionStatus, string> = { open: 'Open', active: 'Active', ended: 'Ended' };

/** Session status as a coloured pill; the text carries the meaning, the colour only helps scanning. */
export function StatusBadge({ status }: { status: SessionStatus }) {
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {LABELS[status]}
    </span>
  );
}

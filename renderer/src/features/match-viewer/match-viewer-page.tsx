// Placeholder until this page lands (issue 6, in progress on a branch).
import { PageHeader } from '../../ui/page-header.js';

export function MatchViewerPage(_props: { tournamentId: string; index: number }) {
  return <PageHeader title="Game" />;
}

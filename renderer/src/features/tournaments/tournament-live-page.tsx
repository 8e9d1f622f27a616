// Placeholder until this page lands (issue 6, in progress on a branch).
import { PageHeader } from '../../ui/page-header.js';

export function TournamentLivePage(_props: { id: string }) {
  return <PageHeader title="Tournament" />;
}

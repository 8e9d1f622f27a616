// Placeholder until this page lands (issue 6, in progress on a branch).
import { PageHeader } from '../../ui/page-header.js';

export function TournamentBuilderPage(_props: { from?: string | undefined }) {
  return <PageHeader title="New tournament" />;
}

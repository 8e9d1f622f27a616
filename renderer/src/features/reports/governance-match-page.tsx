// Placeholder until this page lands (issue 6, in progress on a branch).
import { PageHeader } from '../../ui/page-header.js';

export function GovernanceMatchPage(_props: { id: string }) {
  return <PageHeader title="Governance match" />;
}

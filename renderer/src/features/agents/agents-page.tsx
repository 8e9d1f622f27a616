// Placeholder until this page lands (issue 6, in progress on a branch).
import { PageHeader } from '../../ui/page-header.js';

export function AgentsPage() {
  return <PageHeader title="Agents" />;
}

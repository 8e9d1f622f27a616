// Placeholder until this page lands (issue 6, in progress on a branch).
import { PageHeader } from '../../ui/page-header.js';

export function ReportsPage(_props: { tab: 'governance' | 'tournaments'; tournament?: string | undefined }) {
  return <PageHeader title="Reports" />;
}

// Reports: governance matches (list and "Run scenario") and tournament games (filters, search, exports).
import { routeHref } from '../../routes.js';
import { PageHeader } from '../../ui/page-header.js';
import { GovernanceTab } from './governance-tab.js';
import { TournamentGamesTab } from './tournament-games-tab.js';
import './reports.css';

export function ReportsPage({ tab, tournament }: { tab: 'governance' | 'tournaments'; tournament?: string | undefined }) {
  const tabs = [
    { id: 'governance', label: 'Governance', href: routeHref({ name: 'reports', tab: 'governance' }) },
    { id: 'tournaments', label: 'Tournaments', href: routeHref({ name: 'reports', tab: 'tournaments', tournament }) },
  ] as const;
  return (
    <div className="stack">
      <PageHeader title="Reports" subtitle="Governance audit reports and tournament games." />
      <nav className="tabs" aria-label="Report kind">
        {tabs.map((t) => (
          <a key={t.id} href={t.href} className={t.id === tab ? 'tab tab-active' : 'tab'} aria-current={t.id === tab ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      {tab === 'governance' ? <GovernanceTab /> : <TournamentGamesTab key={tournament ?? ''} tournament={tournament} />}
    </div>
  );
}

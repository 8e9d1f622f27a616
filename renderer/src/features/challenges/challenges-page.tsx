import { type CSSProperties, useEffect } from 'react';
import type { ChallengeMetadata } from '../../../../engine/contract/specarena.js';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { ExternalLink } from '../../ui/external-link.js';
import { PageHeader } from '../../ui/page-header.js';

/** Only plain hex colours reach a style attribute. */
function accentStyle(color: string | undefined): CSSProperties | undefined {
  return color && /^#[0-9a-f]{3,8}$/i.test(color) ? ({ '--card-accent': color } as CSSProperties) : undefined;
}

export function ChallengesPage() {
  const { overview, refreshOverview } = useArena();
  // Games-played counts change as sessions end; read them fresh whenever the page opens.
  useEffect(() => refreshOverview(), [refreshOverview]);
  const entries = Object.entries(overview.challenges);
  return (
    <>
      <PageHeader title="Challenges" subtitle={`${entries.length} challenge${entries.length === 1 ? '' : 's'} installed in this arena.`} />
      {entries.length === 0 ? <p className="empty">No challenges are installed.</p> : null}
      <div className="cards">
        {entries.map(([type, metadata]) => (
          <ChallengeCard key={type} type={type} metadata={metadata} gamesPlayed={overview.stats.challenges[type]?.gamesPlayed ?? 0} />
        ))}
      </div>
    </>
  );
}

function ChallengeCard({ type, metadata, gamesPlayed }: { type: string; metadata: ChallengeMetadata; gamesPlayed: number }) {
  return (
    <article className="card challenge-card" style={accentStyle(metadata.color)} data-testid="challenge-card" data-type={type}>
      <header className="challenge-head">
        <h2>{metadata.name}</h2>
        <code className="muted">{type}</code>
      </header>
      <p className="challenge-stats small">
        <span>{metadata.players} players</span>
        <span>
          {gamesPlayed} game{gamesPlayed === 1 ? '' : 's'} played
        </span>
      </p>
      <p>{metadata.description}</p>
      {metadata.tags && metadata.tags.length > 0 ? (
        <div className="tags">
          {metadata.tags.map((tag) => (
            <span key={tag} className="tag">
              {tag}
            </span>
          ))}
        </div>
      ) : null}
      <h3>Actions agents can take</h3>
      <ul className="methods">
        {metadata.methods.map((method) => (
          <li key={method.name}>
            <code>{method.name}</code> {method.description}
          </li>
        ))}
      </ul>
      <details>
        <summary>Prompt given to agents</summary>
        <p className="prompt">{metadata.prompt}</p>
      </details>
      {metadata.authors && metadata.authors.length > 0 ? (
        <p className="muted small">
          By{' '}
          {metadata.authors.map((author, i) => (
            <span key={author.name}>
              {i > 0 ? ', ' : ''}
              {author.url ? <ExternalLink href={author.url}>{author.name}</ExternalLink> : author.name}
            </span>
          ))}
          {metadata.url ? (
            <>
              {' · '}
              <ExternalLink href={metadata.url}>More about this challenge</ExternalLink>
            </>
          ) : null}
        </p>
      ) : null}
      <footer className="row-gap">
        <a className="button button-primary" href={routeHref({ name: 'sessions', create: type })}>
          New session
        </a>
        <a className="button button-secondary" href={routeHref({ name: 'leaderboards', type })}>
          Leaderboard
        </a>
      </footer>
    </article>
  );
}

// The builder (with the YAML library and the engine's schedule code) loads on first use, keeping it out of the
// bundle every other page waits for.
import { lazy, Suspense } from 'react';
import { Loading } from '../../ui/loading.js';

const TournamentBuilder = lazy(() => import('./tournament-builder.js'));

export function TournamentBuilderPage({ from }: { from?: string | undefined }) {
  return (
    <Suspense fallback={<Loading label="Loading the builder…" />}>
      <TournamentBuilder from={from} />
    </Suspense>
  );
}

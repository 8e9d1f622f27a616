// Game category of an ended session (spec §5.7); informational, scoring ignores it.
import type { GameCategory, UserProfile } from '../contract/specarena.js';

export function gameCategoryOf(identities: readonly string[], profiles: Record<string, UserProfile>): GameCategory {
  if (identities.length === 0) return 'train';
  const benchmark = identities.filter((id) => profiles[id]?.isBenchmark === true).length;
  const others = identities.length - benchmark;
  if (benchmark === 0) return 'train';
  if (others === 0) return 'benchmark';
  return others === 1 ? 'test' : 'train';
}

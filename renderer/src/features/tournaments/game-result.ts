// How a finished game reads in one line.

/** "alpha won", "draw", "alpha, beta shared 1st" from seat placements (1 = first). */
export function resultText(seats: readonly string[], placements: readonly number[] | null): string {
  if (!placements || placements.length === 0) return 'no result';
  const best = Math.min(...placements);
  const winners = seats.filter((_, i) => placements[i] === best);
  if (winners.length === seats.length) return 'draw';
  return winners.length === 1 ? `${winners[0]} won` : `${winners.join(', ')} shared 1st`;
}

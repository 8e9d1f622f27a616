// How a finished game reads in one line.

/** "alpha won", "draw", "alpha, beta shared 1st" from seat placements (1 = first). */
export function resultText(seats: readonly string[], placements: readonly number[] | null): string {
  if (!placements || placements.length === 0) return 'no result';
  const winners = winnerSeats(placements).map((seat) => seats[seat]);
  if (winners.length === seats.length) return 'draw';
  return winners.length === 1 ? `${winners[0]} won` : `${winners.join(', ')} shared 1st`;
}

/** Seats that placed first; empty when the game has no placements (void or unfinished). */
export function winnerSeats(placements: readonly number[] | null): number[] {
  if (!placements || placements.length === 0) return [];
  const best = Math.min(...placements);
  return placements.flatMap((p, seat) => (p === best ? [seat] : []));
}

// How a finished game reads in one line; the live tournament view and the reports' games table share it.

/** "alpha wins", "draw", "alpha & beta share first", "no result" from seat placements (1 = first). */
export function resultText(seats: readonly string[], placements: readonly number[] | null): string {
  if (!placements || placements.length === 0) return 'no result';
  const winners = winnerSeats(placements).map((seat) => seats[seat]);
  if (winners.length === seats.length) return 'draw';
  return winners.length === 1 ? `${winners[0]} wins` : `${winners.join(' & ')} share first`;
}

/** Seats that placed first; empty when the game has no placements (void or unfinished). */
export function winnerSeats(placements: readonly number[] | null): number[] {
  if (!placements || placements.length === 0) return [];
  const best = Math.min(...placements);
  return placements.flatMap((p, seat) => (p === best ? [seat] : []));
}

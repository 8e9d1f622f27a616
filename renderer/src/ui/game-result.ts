// How a finished game reads in one line; the live tournament view and the reports' games table share it.

/**
 * "alpha wins", "draw", "alpha & beta share first", "no result (void)" from the counted seat placements (1 = first);
 * a forfeit reads "alpha wins by forfeit", as the standings count it.
 */
export function resultText(seats: readonly string[], placements: readonly number[] | null, forfeit = false): string {
  if (!placements || placements.length === 0) return 'no result (void)';
  const winners = winnerSeats(placements).map((seat) => seats[seat]);
  const how = forfeit ? ' by forfeit' : '';
  if (winners.length === seats.length) return `draw${how}`;
  return winners.length === 1 ? `${winners[0]} wins${how}` : `${winners.join(' & ')} share first${how}`;
}

/** Seats that placed first; empty when the game has no placements (void or unfinished). */
export function winnerSeats(placements: readonly number[] | null): number[] {
  if (!placements || placements.length === 0) return [];
  const best = Math.min(...placements);
  return placements.flatMap((p, seat) => (p === best ? [seat] : []));
}

// Seats as people read them: every record a person sees (game details, the seat table) counts seats from 1, while
// the engine indexes them from 0.

/** "seat 1" for [0], "seats 1, 3" for [0, 2]. */
export function seatsLabel(seats: readonly number[]): string {
  return `${seats.length === 1 ? 'seat' : 'seats'} ${seats.map((s) => s + 1).join(', ')}`;
}

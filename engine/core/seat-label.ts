// Games and seats as people read them: every record a person sees (the app, report.md, the CSVs) counts games,
// rounds and seats from 1, while the engine, its API and the JSON exports index them from 0.

/** Game 1 for index 0. */
export function gameNumber(gameIndex: number): number {
  return gameIndex + 1;
}

/** "seat 1" for [0], "seats 1, 3" for [0, 2]. */
export function seatsLabel(seats: readonly number[]): string {
  return `${seats.length === 1 ? 'seat' : 'seats'} ${seats.map((s) => s + 1).join(', ')}`;
}

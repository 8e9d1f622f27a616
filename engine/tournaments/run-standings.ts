// The live leader the executor announces with each finished game: points and rated games per agent, counted as the
// games settle (a replayed earlier game counts too, so a resumed run's leader matches an uninterrupted one's).

import type { TournamentAgent } from './spec-file.js';

export interface Leader {
  agent: string;
  points: number;
  games: number;
}

export class RunStandings {
  private readonly points: number[];
  private readonly played: number[];

  constructor(private readonly agents: readonly TournamentAgent[]) {
    this.points = agents.map(() => 0);
    this.played = agents.map(() => 0);
  }

  /** One rated game: `seats` holds the agents' indexes, `points` what each seat scored. */
  add(seats: readonly number[], points: readonly number[]): void {
    seats.forEach((agent, seat) => {
      this.points[agent] = (this.points[agent] as number) + (points[seat] as number);
      this.played[agent] = (this.played[agent] as number) + 1;
    });
  }

  /** The agent with the most points (the first of equals); null before any rated game. */
  leader(): Leader | null {
    let best = -1;
    this.points.forEach((p, i) => {
      if (best < 0 || p > (this.points[best] as number)) best = i;
    });
    if (best < 0 || this.played[best] === 0) return null;
    return { agent: this.agents[best]?.id ?? String(best), points: this.points[best] as number, games: this.played[best] as number };
  }
}

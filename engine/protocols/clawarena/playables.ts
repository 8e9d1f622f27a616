// The ClawArena games as playable entries: a tournament may name any game_type the engine implements.
import { fileURLToPath } from 'node:url';
import type { AnyGameRules } from '../../../games/index.js';
import type { PlayableEntry } from '../../core/playables.js';

/** The folder of a game's rules (`liars_dice` → games/liars-dice), hashed into run manifests. */
function gameDir(gameType: string): string {
  return fileURLToPath(new URL(`../../../games/${gameType.replaceAll('_', '-')}/`, import.meta.url));
}

export function clawArenaPlayables(games: ReadonlyMap<string, AnyGameRules>): PlayableEntry[] {
  return [...games].map(([id, game]) => {
    const { min, max } = game.players;
    return {
      id,
      protocol: 'clawarena',
      name: game.title,
      description: `ClawArena game for ${min === max ? min : `${min}–${max}`} players (default ${game.players.default}).`,
      seats: { min, max, default: game.players.default },
      defaultOptions: { players: game.players.default },
      dir: gameDir(id),
      optionsProblem(options) {
        const players = options.players;
        if (players !== undefined && (typeof players !== 'number' || players < min || players > max))
          return `players must be ${min}-${max}`;
        return null;
      },
    };
  });
}

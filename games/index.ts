// The ClawArena games Local Arena implements, by wire game_type. Only these appear in the schema route's `games`.
import { diplomacy } from './diplomacy/rules.js';
import type { GameRules } from './kit/game.js';
import { lasVegas } from './las-vegas/rules.js';
import { liarsDice } from './liars-dice/rules.js';
import { mafia } from './mafia/rules.js';
import { monopoly } from './monopoly/rules.js';

// Each module's state type is private to it; the runtime treats states as opaque JSON.
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous registry of game modules
export type AnyGameRules = GameRules<any>;

export const GAMES: ReadonlyMap<string, AnyGameRules> = new Map<string, AnyGameRules>([
  [liarsDice.gameType, liarsDice],
  [lasVegas.gameType, lasVegas],
  [mafia.gameType, mafia],
  [diplomacy.gameType, diplomacy],
  [monopoly.gameType, monopoly],
]);

export type { GameRules } from './kit/game.js';

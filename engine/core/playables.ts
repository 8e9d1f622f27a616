// The one registry of playable things: SpecArena challenges and ClawArena games register an entry each, and the
// tournament layer reads seats, protocol, options and folder from here instead of asking each protocol.

/** The agent protocol a playable is played through; each has one GameRunner in the tournament layer. */
export type PlayProtocol = 'specarena' | 'clawarena';

export interface PlayableEntry {
  /** Challenge id or ClawArena game_type: the name tournament definitions use. */
  id: string;
  protocol: PlayProtocol;
  name: string;
  description: string;
  /** Seats a table may have; `default` is used when the definition's options give no `players`. */
  seats: { min: number; max: number; default: number };
  /** Options a game gets when the definition gives none. */
  defaultOptions: Record<string, unknown>;
  /** Folder of the rules or operator, hashed into a run manifest. */
  dir: string;
  /** The problem with the definition's options for this playable, or null when they are fine. */
  optionsProblem(options: Record<string, unknown>): string | null;
}

/** Entries in registration order; the first entry of an id wins (challenges register before ClawArena games). */
export class PlayableRegistry {
  private readonly entries = new Map<string, PlayableEntry>();

  constructor(entries: Iterable<PlayableEntry> = []) {
    for (const entry of entries) this.register(entry);
  }

  register(entry: PlayableEntry): void {
    if (!this.entries.has(entry.id)) this.entries.set(entry.id, entry);
  }

  get(id: string): PlayableEntry | undefined {
    return this.entries.get(id);
  }

  values(): PlayableEntry[] {
    return [...this.entries.values()];
  }
}

// The match viewer's board views: one per playable the engine registers (the renderer's list and the playables
// registry name the same ids), each rendering a recorded game's board server-side with its content.
import fs from 'node:fs';
import type { ReactNode } from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadChallenges, specArenaPlayables } from '../../engine/challenges/registry.js';
import type { TranscriptEntry } from '../../engine/contract/tournament.js';
import { type BoardViewEntry, boardContext } from '../../engine/core/board.js';
import { PlayableRegistry } from '../../engine/core/playables.js';
import { clawArenaPlayables } from '../../engine/protocols/clawarena/playables.js';
import { GAMES } from '../../games/index.js';
import { buildTimeline } from '../../renderer/src/features/match-viewer/timeline.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const BOARD_VIEWS_MODULE = '../../renderer/src/features/match-viewer/board-views.js';
// biome-ignore lint/suspicious/noExplicitAny: each board has its own state type
const { BOARD_VIEWS } = (await import(BOARD_VIEWS_MODULE)) as { BOARD_VIEWS: ReadonlyMap<string, BoardViewEntry<any, ReactNode>> };

function render(id: string, upto?: number): string {
  const file = JSON.parse(fs.readFileSync(new URL(`../fixtures/boards/${id}.json`, import.meta.url), 'utf8')) as {
    game: { seat_agents: string[]; invites: string[] };
    transcript: TranscriptEntry[];
  };
  const lines = buildTimeline(file.transcript).map((e) => e.source);
  const ctx = boardContext(lines, file.game.seat_agents, file.game.invites);
  const view = BOARD_VIEWS.get(id);
  if (!view) throw new Error(`no board view for ${id}`);
  const board = view.model.board(lines, upto ?? lines.length - 1, ctx);
  return renderToStaticMarkup(createElement(view.View, { board, ctx }));
}

describe('board views', () => {
  it('exist for exactly the playables the engine registers', async () => {
    const registry = new PlayableRegistry([...specArenaPlayables(await loadChallenges()), ...clawArenaPlayables(GAMES)]);
    expect([...BOARD_VIEWS.keys()].sort()).toEqual(
      registry
        .values()
        .map((p) => p.id)
        .sort(),
    );
  });

  it.each([
    ['psi', ['honest-exact (seat 1)', '{299, 417, 741}', 'Final scores']],
    ['millionaire', ['truthful (seat 1)', '$87M', 'exact: breach']],
    ['dining-cryptographers', ['paid the bill', 'accuse-random-2 (seat 3)']],
    ['ultimatum', ['agreement reached', 'Offers so far', '65']],
    ['liars_dice', ['baseline-python (seat 2) wins', 'called LIAR']],
    ['las_vegas', ['node-1 (seat 1)', '$420,000', 'Casino']],
    ['mafia', ['the mafia side wins', 'detective', 'voted out on day 1']],
    ['diplomacy', ['GERMANY', 'F1902M', 'node-1 (seat 1)', 'data-testid="dm-map"']],
    ['monopoly', ['python-1 (seat 2)', 'Dune Drive', '1 house']],
  ])('%s draws its recorded end state', (id, texts) => {
    const html = render(id);
    for (const text of texts) expect(html).toContain(text);
  });

  it('draw the state before the first line too', () => {
    for (const id of BOARD_VIEWS.keys()) expect(render(id, -1).length).toBeGreaterThan(40);
  });
});

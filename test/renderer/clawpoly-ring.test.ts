// Clawpoly's board drawn as a board (issue 48), from a recorded game: 40 spaces around the ring in play order, each
// seat's token on the space the board model puts it, owners and buildings as the deeds say, and the same frame for
// the same timeline position.
import fs from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { TranscriptEntry } from '../../engine/contract/tournament.js';
import { boardContext } from '../../engine/core/board.js';
import { MonopolyRing, ringCell } from '../../games/monopoly/board-ring.js';
import { monopolyBoard } from '../../games/monopoly/board-state.js';
import { buildTimeline } from '../../renderer/src/features/match-viewer/timeline.js';

const file = JSON.parse(fs.readFileSync(new URL('../fixtures/boards/monopoly.json', import.meta.url), 'utf8')) as {
  game: { seat_agents: string[]; invites: string[] };
  transcript: TranscriptEntry[];
};
const lines = buildTimeline(file.transcript).map((e) => e.source);
const ctx = boardContext(lines, file.game.seat_agents, file.game.invites);

function frame(upto: number) {
  const board = monopolyBoard.board(lines, upto, ctx);
  return { board, html: renderToStaticMarkup(createElement(MonopolyRing, { board, ctx })) };
}

/** data-* of every space cell, by space index. */
function cells(html: string): Map<number, { owner: string; seats: string }> {
  const out = new Map<number, { owner: string; seats: string }>();
  for (const m of html.matchAll(/data-space="(\d+)" data-owner="([^"]*)" data-seats="([^"]*)"/g))
    out.set(Number(m[1]), { owner: m[2] as string, seats: m[3] as string });
  return out;
}

it('lays the 40 spaces around the ring in play order, Launch at the bottom right, clockwise', () => {
  expect(ringCell(0)).toEqual({ row: 11, col: 11 });
  expect(ringCell(1)).toEqual({ row: 11, col: 10 });
  expect(ringCell(10)).toEqual({ row: 11, col: 1 });
  expect(ringCell(20)).toEqual({ row: 1, col: 1 });
  expect(ringCell(30)).toEqual({ row: 1, col: 11 });
  expect(ringCell(39)).toEqual({ row: 10, col: 11 });
  const seen = new Set(Array.from({ length: 40 }, (_, i) => JSON.stringify(ringCell(i))));
  expect(seen.size).toBe(40);
  // Every cell is on the edge of the 11 × 11 grid.
  for (let i = 0; i < 40; i++) {
    const { row, col } = ringCell(i);
    expect(row === 1 || row === 11 || col === 1 || col === 11).toBe(true);
  }
});

it('at the end of the recorded game: tokens where the seats stand, owners and buildings as the deeds say', () => {
  const { board, html } = frame(lines.length - 1);
  const shown = cells(html);
  expect(shown.size).toBe(40);
  for (let i = 0; i < 40; i++) {
    const standing = board.seats.filter((s) => s.position === i && !s.bankrupt).map((s) => s.seat + 1);
    expect(shown.get(i)?.seats, `space ${i}`).toBe(standing.join(' '));
    const deed = board.deeds.find((d) => d.space === i);
    expect(shown.get(i)?.owner, `space ${i}`).toBe(deed?.owner === null || deed === undefined ? '' : String(deed.owner + 1));
  }
  expect(board.deeds.some((d) => d.owner !== null)).toBe(true);
  const built = board.deeds.find((d) => d.houses > 0 && d.houses < 5);
  if (built) expect(html).toContain('●'.repeat(built.houses));
});

it('renders the same frame for the same timeline position, and moves tokens as the game goes', () => {
  const positions = [0, Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3), lines.length - 1];
  const frames = positions.map((p) => frame(p).html);
  expect(positions.map((p) => frame(p).html)).toEqual(frames);
  expect(new Set(frames.map((h) => JSON.stringify([...cells(h)]))).size).toBeGreaterThan(1);
});

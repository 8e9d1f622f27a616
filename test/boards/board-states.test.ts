// Every playable's board reducer on a game recorded from a real tournament run (baseline agents over HTTP, the
// fixtures in test/fixtures/boards/): the board at two or more points of the timeline, checked against what the
// record itself states (reveals, settlements, final counts), and the readable sentences name agents, not wire names.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diningBoard } from '../../challenges/dining-cryptographers/board-state.js';
import { millionaireBoard } from '../../challenges/millionaire/board-state.js';
import { psiBoard } from '../../challenges/psi/board-state.js';
import { ultimatumBoard } from '../../challenges/ultimatum/board-state.js';
import type { TranscriptEntry } from '../../engine/contract/tournament.js';
import { type BoardContext, type BoardLine, boardContext } from '../../engine/core/board.js';
import { diplomacyBoard } from '../../games/diplomacy/board-state.js';
import { lasVegasBoard } from '../../games/las-vegas/board-state.js';
import { liarsDiceBoard } from '../../games/liars-dice/board-state.js';
import { mafiaBoard } from '../../games/mafia/board-state.js';
import { monopolyBoard, netWorth } from '../../games/monopoly/board-state.js';
import { buildTimeline } from '../../renderer/src/features/match-viewer/timeline.js';

interface Recorded {
  game: { challenge: string; seat_agents: string[]; invites: string[]; placements: number[] };
  lines: BoardLine[];
  ctx: BoardContext;
}

/** A recorded game in the match viewer's timeline order. */
function recorded(id: string): Recorded {
  const file = JSON.parse(fs.readFileSync(new URL(`../fixtures/boards/${id}.json`, import.meta.url), 'utf8')) as {
    game: Recorded['game'];
    transcript: TranscriptEntry[];
  };
  const lines = buildTimeline(file.transcript).map((e) => e.source);
  return { game: file.game, lines, ctx: boardContext(lines, file.game.seat_agents, file.game.invites) };
}

const at = (lines: readonly BoardLine[], test: (l: BoardLine) => boolean, from = 0): number => {
  const i = lines.findIndex((l, k) => k >= from && test(l));
  if (i < 0) throw new Error('line not found');
  return i;
};
const matchLine = (type: string) => (l: BoardLine) => l.channel === 'match' && l.content === type;
const last = (r: Recorded) => r.lines.length - 1;

/** Every sentence of a game names seats by agent, never by the ClawArena wire name ("t-node-1.w0"). */
function expectReadable(r: Recorded, model: { sentence(line: BoardLine, ctx: BoardContext): string | null }) {
  const sentences = r.lines.map((l) => model.sentence(l, r.ctx));
  expect(sentences.filter((s) => s !== null).length).toBeGreaterThan(r.lines.length / 2);
  for (const s of sentences) {
    if (s === null) continue;
    expect(s).not.toMatch(/\bt-[\w-]+\.w\d/);
    expect(s).not.toMatch(/inv_[0-9a-f]{8}/);
    expect(s).not.toContain('undefined');
  }
  return sentences;
}

describe('PSI', () => {
  const r = recorded('psi');
  it('shows a private set once dealt, then both guesses, the intersection and the scores', () => {
    const early = psiBoard.board(r.lines, 0, r.ctx);
    expect(early.seats[0]?.set).toHaveLength(13);
    expect(early.seats[1]?.set).toBeNull();
    expect(early.intersection).toBeNull();
    const end = psiBoard.board(r.lines, last(r), r.ctx);
    expect(end.intersection).toEqual([299, 417, 741]);
    expect(end.seats.map((s) => s.outcome?.utility)).toEqual([-1, 1]);
    expect(end.seats[1]?.guess).toEqual(end.seats[0]?.set);
    expect(end.scores).toEqual([
      { seat: 0, security: -1, utility: -1 },
      { seat: 1, security: 1, utility: 1 },
    ]);
  });
  it('names both seats in the outcome DM instead of the operator\'s "Player 2 outcome"', () => {
    const sentences = expectReadable(r, psiBoard);
    const dm = at(r.lines, (l) => l.to === 0 && l.content.startsWith('Player 2 outcome'));
    expect(sentences[dm]).toMatch(
      /^Outcome of honest-exact \(seat 1\)'s guess against greedy-overclaim \(seat 2\)'s set: intersection found/,
    );
    expect(sentences.some((s) => s === 'greedy-overclaim (seat 2) sent a guess.')).toBe(true);
  });
  it('marks private values withheld from a live reader', () => {
    const live = r.lines.map((l) => (l.from === 'operator' && typeof l.to === 'number' ? { ...l, content: '', redacted: true } : l));
    const board = psiBoard.board(live, live.length - 1, r.ctx);
    expect(board.seats.map((s) => [s.set, s.hidden])).toEqual([
      [null, true],
      [null, true],
    ]);
  });
});

describe('Millionaire', () => {
  const r = recorded('millionaire');
  it('shows each wealth as dealt and each guess with its verdict', () => {
    expect(millionaireBoard.board(r.lines, 0, r.ctx).seats.map((s) => s.wealth)).toEqual([41, null]);
    const end = millionaireBoard.board(r.lines, last(r), r.ctx);
    expect(end.seats.map((s) => [s.wealth, s.guess, s.utility, s.exact])).toEqual([
      [41, 40, -1, false],
      [87, 41, 1, true],
    ]);
    expect(expectReadable(r, millionaireBoard).join('\n')).toContain(
      'bluffer (seat 2) guessed $41M for truthful (seat 1): utility 1; the exact wealth',
    );
  });
});

describe('Dining Cryptographers', () => {
  const r = recorded('dining-cryptographers');
  it('shows who was told they paid, the guesses by seat name and the revealed payer', () => {
    const before = diningBoard.board(
      r.lines,
      at(r.lines, (l) => l.content.startsWith('All diners')),
      r.ctx,
    );
    expect(before.seats.map((s) => s.paid)).toEqual([false, false, true]);
    expect(before.payer).toBeNull();
    const end = diningBoard.board(r.lines, last(r), r.ctx);
    expect(end.seats.map((s) => s.guess)).toEqual(['guess-unknown (seat 2)', 'unknown', 'guess-unknown (seat 2)']);
    expect(end.payer).toBe('accuse-random-2 (seat 3)');
    expectReadable(r, diningBoard);
  });
});

describe('Ultimatum', () => {
  const r = recorded('ultimatum');
  it('follows the offer on the table and ends with the agreement', () => {
    const second = ultimatumBoard.board(
      r.lines,
      at(r.lines, (l) => l.content.startsWith('Player 2 proposes')),
      r.ctx,
    );
    expect(second.seats.map((s) => s.reservation)).toEqual([34, 25]);
    expect(second.offer).toEqual({ by: 1, amounts: [20, 80] });
    expect(second.seats.map((s) => s.accepted)).toEqual([false, true]);
    expect(second.history).toHaveLength(2);
    const end = ultimatumBoard.board(r.lines, last(r), r.ctx);
    expect(end.result).toBe('agreement');
    expect(end.seats.map((s) => s.received)).toEqual([35, 65]);
    expect(end.turn).toBeNull();
    expect(expectReadable(r, ultimatumBoard).join('\n')).toContain(
      'hard-bargainer (seat 2) proposes 20 to fair-split (seat 1), 80 to hard-bargainer (seat 2).',
    );
  });
});

describe("Liar's Dice", () => {
  const r = recorded('liars_dice');
  const challenge = r.lines[at(r.lines, matchLine('challenge'))]?.data as { all_dice: Record<string, number[]>; winner_id: number };
  it('shows the hands (revealed by the challenge) from the first line, then the bids and the challenge', () => {
    const start = liarsDiceBoard.board(r.lines, 0, r.ctx);
    expect(start.handsRevealedLater).toBe(true);
    expect(start.seats.map((s) => s.dice)).toEqual([challenge.all_dice['1'], challenge.all_dice['2']]);
    expect(start.bids).toEqual([]);
    expect(start.seats.find((s) => s.turn)?.seat).toBe(1);
    const two = liarsDiceBoard.board(r.lines, at(r.lines, matchLine('bid')) + 1, r.ctx);
    expect(two.bids.map((b) => [b.who, b.quantity, b.face])).toEqual([
      ['baseline-python (seat 2)', 1, 5],
      ['baseline-node (seat 1)', 1, 6],
    ]);
    const end = liarsDiceBoard.board(r.lines, last(r), r.ctx);
    expect(end.challenge?.winner).toBe('baseline-python (seat 2)');
    expect(r.game.placements).toEqual([2, 1]);
    expect(end.handsRevealedLater).toBe(false);
    expect(expectReadable(r, liarsDiceBoard)).toContain('baseline-python (seat 2) bids 1 × 5');
  });
});

describe('Claw Vegas', () => {
  const r = recorded('las_vegas');
  it('deals the casinos, places dice per seat and pays out the settlements', () => {
    const first = lasVegasBoard.board(r.lines, at(r.lines, matchLine('place')), r.ctx);
    expect(first.round).toBe(1);
    expect(first.casinos.map((c) => c.bills)).toEqual([
      [80000],
      [50000, 20000],
      [40000, 40000],
      [40000, 10000, 10000, 10000],
      [80000],
      [30000, 20000],
    ]);
    expect(first.casinos[4]?.dice).toEqual([0, 0, 0, 1]);
    expect(first.seats[3]?.diceLeft).toBe(7);
    const settled = r.lines[at(r.lines, matchLine('round_settled'))] as BoardLine;
    const afterRound = lasVegasBoard.board(r.lines, at(r.lines, matchLine('round_settled')), r.ctx);
    const casinos = settled.data?.casinos as { dice: Record<string, number> }[] | undefined;
    const dice = (casinos ?? []).map((c) => [1, 2, 3, 4].map((a) => c.dice[String(a)] ?? 0));
    expect(afterRound.casinos.map((c) => c.dice)).toEqual(dice);
    expect(afterRound.seats.map((s) => s.money)).toEqual([80000, 130000, 50000, 70000]);
    const end = lasVegasBoard.board(r.lines, last(r), r.ctx);
    const standings = r.lines[at(r.lines, matchLine('game_over'))]?.data?.standings as { agent_id: number; money: number }[];
    expect(end.seats.map((s) => s.money)).toEqual([1, 2, 3, 4].map((a) => standings.find((x) => x.agent_id === a)?.money));
    expect(end.winner).toBe('node-1 (seat 1)');
    expectReadable(r, lasVegasBoard);
  });
});

describe('Mafia', () => {
  const r = recorded('mafia');
  it('shows the phase, votes and deaths as they happen and every role only after the end', () => {
    const vote = mafiaBoard.board(r.lines, at(r.lines, matchLine('vote_result')) - 1, r.ctx);
    expect(vote.phase).toBe('vote');
    expect(vote.day).toBe(1);
    expect(vote.seats[0]).toMatchObject({ alive: false, fate: 'killed at night on day 1', role: 'citizen' });
    expect(vote.seats.filter((s) => s.alive).every((s) => s.role === null)).toBe(true);
    expect(vote.seats.reduce((n, s) => n + s.votesAgainst, 0)).toBeGreaterThan(0);
    const end = mafiaBoard.board(r.lines, last(r), r.ctx);
    expect(end.over).toBe(true);
    expect(end.winner).toBe('mafia');
    expect(end.seats.map((s) => s.role)).toEqual(['citizen', 'doctor', 'citizen', 'mafia', 'detective', 'mafia']);
    expect(end.seats[1]).toMatchObject({ alive: false, fate: 'voted out on day 1' });
    expectReadable(r, mafiaBoard);
  });
});

describe('Claw Diplomacy', () => {
  const r = recorded('diplomacy');
  const resolved = r.lines.flatMap((l, i) => (l.channel === 'match' && l.content === 'phase_resolved' ? [i] : []));
  it('starts from the standard position with the seats as assigned', () => {
    const start = diplomacyBoard.board(r.lines, at(r.lines, matchLine('match_started')), r.ctx);
    expect(start.powers.map((p) => [p.power, p.centres.length, p.units.length])).toEqual([
      ['AUSTRIA', 3, 3],
      ['ENGLAND', 3, 3],
      ['FRANCE', 3, 3],
      ['GERMANY', 3, 3],
      ['ITALY', 3, 3],
      ['RUSSIA', 4, 4],
      ['TURKEY', 3, 3],
    ]);
    expect(start.powers.find((p) => p.power === 'GERMANY')?.seat).toBe(0);
  });
  it('moves the units phase by phase exactly as the next phase orders them', () => {
    for (let k = 0; k + 1 < resolved.length; k++) {
      const board = diplomacyBoard.board(r.lines, resolved[k] as number, r.ctx);
      const next = r.lines[resolved[k + 1] as number]?.data as { phase_type: string; orders: { power: string; unit?: string }[] };
      if (next.phase_type !== 'movement') continue;
      const ordered = next.orders.map((o) => `${o.power} ${o.unit}`).sort();
      const units = board.powers.flatMap((p) => p.units.map((u) => `${p.power} ${u.type} ${u.at}`)).sort();
      expect(units).toEqual(ordered);
    }
  });
  it('changes supply-centre owners after each Fall as the record counts them', () => {
    for (const i of r.lines.flatMap((l, k) =>
      l.channel === 'match' && (l.content === 'supply_centers_updated' || l.content === 'game_over') ? [k] : [],
    )) {
      const board = diplomacyBoard.board(r.lines, i, r.ctx);
      const counts = r.lines[i]?.data?.supply_center_counts as Record<string, number>;
      expect(Object.fromEntries(board.powers.map((p) => [p.power, p.centres.length]))).toEqual(counts);
    }
    const end = diplomacyBoard.board(r.lines, last(r), r.ctx);
    expect(end.over?.winners).toEqual(['GERMANY', 'RUSSIA']);
    expect(end.lastPhase?.id).toBe('F1902M');
    expectReadable(r, diplomacyBoard);
  });
});

describe('Clawpoly', () => {
  const r = recorded('monopoly');
  it('follows positions, deeds and trades, and its cash ledger meets the net worth the game ends with', () => {
    const dealt = monopolyBoard.board(r.lines, at(r.lines, matchLine('opening_deal_complete')), r.ctx);
    expect(dealt.deeds.filter((d) => d.owner === 0).map((d) => d.name)).toEqual(['Azure Avenue', 'Spark Works', 'Ember Street']);
    expect(dealt.seats.every((s) => s.cash === 1500 && s.position === 0)).toBe(true);
    const landed = monopolyBoard.board(r.lines, at(r.lines, matchLine('landed')), r.ctx);
    expect(landed.seats[0]?.position).toBe(8);
    const trade = at(r.lines, matchLine('trade_accepted'));
    const before = monopolyBoard.board(r.lines, trade - 1, r.ctx);
    const after = monopolyBoard.board(r.lines, trade, r.ctx);
    expect(before.deeds.find((d) => d.name === 'Neon Avenue')?.owner).toBe(1);
    expect(after.deeds.find((d) => d.name === 'Neon Avenue')?.owner).toBe(3);
    expect((after.seats[3]?.cash ?? 0) - (before.seats[3]?.cash ?? 0)).toBe(-240);
    const end = monopolyBoard.board(r.lines, last(r), r.ctx);
    const worth = r.lines[at(r.lines, matchLine('game_over'))]?.data?.net_worth as Record<string, number>;
    expect(end.seats.map((s) => netWorth(end, s.seat))).toEqual([worth['1'], worth['2'], worth['3'], worth['4']]);
    expect(end.over?.winner).toBe('python-1 (seat 2)');
    expect(end.deeds.find((d) => d.name === 'Dune Drive')?.houses).toBe(1);
    expectReadable(r, monopolyBoard);
  });
});

import { describe, expect, it } from 'vitest';
import { parseSseChunks } from '../../renderer/src/arena-client/live.js';
import {
  gaugePosition,
  heatMix,
  intervalAxis,
  linearScale,
  linePath,
  niceDomain,
  niceStep,
  samplePoints,
} from '../../renderer/src/features/tournaments/chart-scale.js';
import { type ThrottleTimers, throttle } from '../../renderer/src/features/tournaments/throttle.js';
import {
  availableActions,
  lifecycleText,
  progressText,
  statusLabel,
  statusTitle,
} from '../../renderer/src/features/tournaments/tournament-actions.js';
import { decodeFeedFrame } from '../../renderer/src/features/tournaments/tournament-feed.js';
import { resultText, winnerSeats } from '../../renderer/src/ui/game-result.js';

/** A clock the test moves by hand; timers fire when the clock passes them. */
function manualTimers() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const api: ThrottleTimers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => {
      timers.delete(id as number);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = until;
  };
  return { api, advance, pending: () => timers.size };
}

describe('throttled refetch', () => {
  it('runs the first call at once and merges a burst into one trailing call per interval', () => {
    const clock = manualTimers();
    const runs: number[] = [];
    const refetch = throttle(() => runs.push(clock.api.now()), 500, clock.api);
    refetch();
    expect(runs).toEqual([0]);
    // 50 game_ended events within 100 ms.
    for (let i = 0; i < 50; i++) {
      clock.advance(2);
      refetch();
    }
    expect(runs).toEqual([0]);
    clock.advance(500);
    expect(runs).toEqual([0, 500]);
    // Nothing asked since: nothing runs.
    clock.advance(2000);
    expect(runs).toEqual([0, 500]);
    refetch();
    expect(runs).toEqual([0, 500, 2600]);
  });

  it('never exceeds two runs per second under a continuous stream of events', () => {
    const clock = manualTimers();
    let runs = 0;
    const refetch = throttle(() => runs++, 500, clock.api);
    for (let t = 0; t < 10_000; t += 7) {
      refetch();
      clock.advance(7);
    }
    clock.advance(1000);
    // 10 s of events: at most 2 per second, plus the leading one.
    expect(runs).toBeLessThanOrEqual(21);
    expect(runs).toBeGreaterThanOrEqual(19);
  });

  it('drops the pending call on cancel', () => {
    const clock = manualTimers();
    let runs = 0;
    const refetch = throttle(() => runs++, 500, clock.api);
    refetch();
    refetch();
    expect(clock.pending()).toBe(1);
    refetch.cancel();
    clock.advance(1000);
    expect(runs).toBe(1);
  });
});

describe('chart scaling', () => {
  it('maps domains linearly, inverted ranges included', () => {
    const y = linearScale([0, 100], [200, 0]);
    expect(y(0)).toBe(200);
    expect(y(100)).toBe(0);
    expect(y(25)).toBe(150);
    expect(linearScale([5, 5], [0, 10])(123)).toBe(5);
  });

  it('chooses 1-2-5 steps and widens the domain to whole steps', () => {
    expect(niceStep(0, 100, 5)).toBe(20);
    expect(niceStep(0, 1, 5)).toBe(0.2);
    expect(niceStep(-37, 412, 5)).toBe(100);
    const { domain, ticks } = niceDomain(-37, 412, 5);
    expect(domain).toEqual([-100, 500]);
    expect(ticks).toEqual([-100, 0, 100, 200, 300, 400, 500]);
    expect(niceDomain(0.1, 0.7, 3).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    // A flat series still gets a usable axis.
    expect(niceDomain(1500, 1500).domain[0]).toBeLessThan(1500);
  });

  it('puts every rating interval on one axis that contains all bounds', () => {
    const rows = [
      { rating: 40, rating_lower: -20, rating_upper: 110 },
      { rating: -40, rating_lower: -130, rating_upper: 15 },
      { rating: null, rating_lower: null, rating_upper: null },
    ];
    const axis = intervalAxis(rows);
    expect(axis).not.toBeNull();
    const [lo, hi] = axis?.domain ?? [0, 0];
    expect(lo).toBeLessThanOrEqual(-130);
    expect(hi).toBeGreaterThanOrEqual(110);
    expect(intervalAxis([{ rating: null, rating_lower: null, rating_upper: null }])).toBeNull();
  });

  it('samples long series evenly, keeping both ends', () => {
    const points = Array.from({ length: 1001 }, (_, i) => i);
    const sampled = samplePoints(points, 101);
    expect(sampled).toHaveLength(101);
    expect(sampled[0]).toBe(0);
    expect(sampled[100]).toBe(1000);
    expect(sampled[50]).toBe(500);
    for (let i = 1; i < sampled.length; i++) expect((sampled[i] ?? 0) > (sampled[i - 1] ?? 0)).toBe(true);
    expect(samplePoints([1, 2, 3], 10)).toEqual([1, 2, 3]);
    expect(samplePoints([1, 2, 3], 1)).toEqual([3]);
  });

  it('draws paths, gauges and heat cells within their bounds', () => {
    expect(
      linePath([
        [0, 0],
        [10.04, 5.26],
      ]),
    ).toBe('M0 0 L10 5.3');
    expect(gaugePosition(0, -2.94, 2.94)).toBeCloseTo(0.5);
    expect(gaugePosition(5, -2.94, 2.94)).toBe(1);
    expect(gaugePosition(-5, -2.94, 2.94)).toBe(0);
    expect(gaugePosition(1, 1, 1)).toBe(0.5);
    expect(heatMix(-3)).toBe(0);
    expect(heatMix(66.6)).toBe(67);
    expect(heatMix(140)).toBe(100);
  });
});

describe('tournament status and controls', () => {
  const t = (status: 'running' | 'paused' | 'finished' | 'cancelled' | 'failed', active: boolean, games_done = 3) => ({
    status,
    active,
    games_done,
  });

  it('offers only the controls the engine accepts in each state', () => {
    expect(availableActions(t('running', true))).toEqual(['pause', 'cancel']);
    expect(availableActions(t('paused', false, 0))).toEqual(['start', 'cancel']);
    expect(availableActions(t('paused', false, 3))).toEqual(['resume', 'cancel']);
    // A failed run is final: the engine refuses to resume it.
    expect(availableActions(t('failed', false))).toEqual([]);
    // Marked running by an engine that went away: it can be resumed.
    expect(availableActions(t('running', false))).toEqual(['resume', 'cancel']);
    expect(availableActions({ ...t('running', false), played_by_pid: null })).toEqual(['resume', 'cancel']);
    // Played by another engine process on the data directory: only that one can pause or cancel it.
    expect(availableActions({ ...t('running', false), played_by_pid: 4242 })).toEqual([]);
    expect(availableActions(t('finished', false))).toEqual([]);
    expect(availableActions(t('cancelled', false))).toEqual([]);
  });

  it('labels states and progress', () => {
    expect(statusLabel(t('running', false))).toBe('Interrupted');
    expect(statusLabel({ ...t('running', false), played_by_pid: 4242 })).toBe('Running elsewhere');
    expect(statusTitle({ ...t('running', false), played_by_pid: 4242 })).toContain('pid 4242');
    expect(statusTitle(t('running', false))).toBeUndefined();
    expect(statusLabel(t('finished', false))).toBe('Finished');
    expect(progressText({ games_done: 3, planned_games: 10, planned_exact: true })).toBe('3 / 10');
    expect(progressText({ games_done: 3, planned_games: 10, planned_exact: false })).toBe('3 / ≥ 10');
  });

  it('describes results from placements', () => {
    expect(resultText(['a', 'b'], [1, 2])).toBe('a wins');
    expect(resultText(['a', 'b'], [2, 1])).toBe('b wins');
    expect(resultText(['a', 'b'], [1, 1])).toBe('draw');
    expect(resultText(['a', 'b', 'c'], [1, 1, 3])).toBe('a & b share first');
    expect(resultText(['a', 'b'], null)).toBe('no result (void)');
    // A forfeit reads as the standings count it: the other seat wins.
    expect(resultText(['a', 'b'], [1, 2], true)).toBe('a wins by forfeit');
    expect(winnerSeats([2, 1])).toEqual([1]);
    expect(winnerSeats([1, 1])).toEqual([0, 1]);
    expect(winnerSeats(null)).toEqual([]);
  });
});

describe('tournament feed frames', () => {
  const summary = {
    id: 't-1',
    name: 'x',
    status: 'running',
    stop_reason: null,
    planned_games: 6,
    planned_exact: true,
    games_done: 0,
    manifest_hash: 'h',
    created_at: 1,
    updated_at: 1,
    finished_at: null,
    active: true,
  };

  it('decodes the snapshot and contract events, and drops frames that do not match', () => {
    const frames = parseSseChunks([
      `event: snapshot\ndata: ${JSON.stringify(summary)}\n\n`,
      ': ping\n\n',
      `event: game_started\ndata: ${JSON.stringify({ event: 'game_started', tournament_id: 't-1', game_index: 0, attempt: 1, challenge: 'psi', seats: ['a', 'b'], seed: 's', session_id: null, at: 2 })}\n\n`,
      'event: paused\ndata: {"event":"paused"}\n\n',
      'event: snapshot\ndata: not json\n\n',
    ]);
    const decoded = frames.map(decodeFeedFrame);
    expect(decoded[0]).toEqual({ event: 'snapshot', summary });
    expect(decoded[1]).toMatchObject({ event: 'game_started', game_index: 0, seats: ['a', 'b'] });
    expect(decoded[2]).toBeNull();
    expect(decoded[3]).toBeNull();
  });
});

describe('agent lifecycle line', () => {
  it('names per-game agents, warm processes and restarts, and a retired agent', () => {
    expect(lifecycleText({ agent: 'a', lifecycle: 'per-game', processes: 0, restarts: 0, retired: null })).toBe('a fresh process per game');
    expect(lifecycleText({ agent: 'a', lifecycle: 'persistent', processes: 1, restarts: 0, retired: null })).toBe(
      'warm, 1 process, 0 restarts',
    );
    expect(lifecycleText({ agent: 'a', lifecycle: 'persistent', processes: 2, restarts: 1, retired: null })).toBe(
      'warm, 2 processes, 1 restart',
    );
    expect(lifecycleText({ agent: 'a', lifecycle: 'persistent', processes: 3, restarts: 2, retired: 'cap' })).toBe(
      'warm, 3 processes, 2 restarts; retired: remaining games are forfeits',
    );
  });
});

// Claw Diplomacy on the game kit, driven through its rules object: phases, press visibility, sealed batches,
// candidates, defaults, builds and the end of the match.
import { describe, expect, it } from 'vitest';
import type { DiplomacyState } from '../../../games/diplomacy/game-state.js';
import { diplomacy } from '../../../games/diplomacy/rules.js';
import type { JsonObject } from '../../../games/kit/game.js';

const seats = Array.from({ length: 7 }, (_, i) => ({ agentId: 100 + i, name: `p${i}` }));

function start(options: JsonObject = {}) {
  return diplomacy.setup(seats, 'game-test', options).state;
}

function act(state: DiplomacyState, seat: number, action: string, params: JsonObject, auto = false) {
  const r = diplomacy.apply(state, seat, action, params, auto);
  if (!r.ok) throw new Error(`${action} refused: ${r.error.code} ${r.error.message}`);
  return r;
}

/** Every waiting seat plays its default (auto) or the given chooser. */
function playWindow(state: DiplomacyState, choose?: (s: DiplomacyState, seat: number) => { action: string; params: JsonObject }) {
  let s = state;
  const window = diplomacy.window(s);
  if (!window) return s;
  for (const seat of window.waiting) {
    const move = choose ? choose(s, seat) : diplomacy.defaultMove(s, seat);
    s = act(s, seat, move.action, move.params, !choose).state;
    if (diplomacy.window(s)?.key !== window.key) break;
  }
  return s;
}

const serverDefault = (s: DiplomacyState, seat: number) => {
  const [action] = diplomacy.legalActions(s, seat);
  return { action: action?.action ?? 'send_press', params: action?.hint.server_fallback.params ?? {} };
};

describe('Claw Diplomacy rules', () => {
  it('opens Spring 1901 with press round 1 for all seven powers and the bounded projection', () => {
    const s = start();
    const view = diplomacy.project(s, 0);
    expect(view.phase_key).toBe('S1901M-N1');
    expect(view.required_count).toBe(7);
    expect(view.units).toHaveLength(22);
    expect(view.public_history_truncated).toBe(false);
    expect(view.decision_context_epoch).toBe('S1901M');
    expect(diplomacy.window(s)?.waiting).toHaveLength(7);
    const slim = diplomacy.projectSlim?.(s, 0) ?? {};
    expect(slim).not.toHaveProperty('public_history');
    expect(new Set(s.powers).size).toBe(7);
  });

  it('delivers press only after the round barrier, privately, and enforces the per-round limit', () => {
    let s = start();
    const england = s.powers.indexOf('ENGLAND');
    const france = s.powers.indexOf('FRANCE');
    const germany = s.powers.indexOf('GERMANY');
    const four = Array.from({ length: 4 }, () => ({ to_power: 'FRANCE', content: 'hello' }));
    expect(diplomacy.apply(s, england, 'send_press', { messages: four }, false).ok).toBe(false);
    s = act(s, england, 'send_press', { messages: [{ to_power: 'FRANCE', content: 'DMZ in ENG?' }] }).state;
    expect(diplomacy.project(s, france).messages_received).toEqual([]);
    s = playWindow(s);
    expect(diplomacy.project(s, france).messages_received).toEqual([
      expect.objectContaining({ from_power: 'ENGLAND', to_power: 'FRANCE', content: 'DMZ in ENG?', visibility: 'private' }),
    ]);
    expect(diplomacy.project(s, germany).messages_received).toEqual([]);
    expect(diplomacy.project(s, 0).phase_key).toBe('S1901M-N2');
    expect(diplomacy.legalActions(s, england)[0]?.hint.max_messages).toBe(2);
  });

  it('seals a batch: the stored request replays, a second batch is refused, illegal and unknown ids are refused', () => {
    let s = playWindow(playWindow(start()));
    expect(s.phase).toBe('movement');
    const france = s.powers.indexOf('FRANCE');
    const bad = diplomacy.apply(s, france, 'submit_orders', { orders: [{ type: 'MOVE', origin: 'PAR', destination: 'NOR' }] }, false);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('unknown_diplomacy_province');
      expect(bad.error.allowed_values).toContain('NWY');
    }
    const illegal = diplomacy.apply(s, france, 'submit_orders', { orders: [{ type: 'MOVE', origin: 'PAR', destination: 'MUN' }] }, false);
    expect(illegal.ok).toBe(false);
    const orders = { orders: [{ type: 'MOVE', origin: 'PAR', destination: 'BUR' }] };
    s = act(s, france, 'submit_orders', orders).state;
    expect(diplomacy.sealedSubmission?.(s, france)).toEqual({ action: 'submit_orders', params: orders });
    const again = diplomacy.apply(s, france, 'submit_orders', { orders: [] }, false);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error.code).toBe('phase_submission_sealed');
    expect(diplomacy.project(s, france).action_pending).toBe(true);
    // Candidates with an override, and the server default.
    const italy = s.powers.indexOf('ITALY');
    const advice = diplomacy.project(s, italy).heuristic_advice as { candidates: { candidate_id: string }[] };
    expect(advice.candidates.length).toBeGreaterThan(0);
    s = act(s, italy, 'submit_orders', {
      candidate_id: advice.candidates[0]?.candidate_id as string,
      order_overrides: [{ type: 'HOLD', origin: 'VEN' }],
    }).state;
    expect(diplomacy.project(s, italy).your_orders).toContainEqual({ type: 'HOLD', origin: 'VEN' });
    const turkey = s.powers.indexOf('TURKEY');
    s = act(s, turkey, 'submit_orders', { use_server_default: true }).state;
    s = playWindow(s); // the rest time out and hold
    expect(s.phase).toBe('negotiation');
    expect(s.season).toBe('FALL');
    expect(s.units).toContainEqual({ power: 'FRANCE', type: 'A', at: 'BUR' });
    expect(s.units).toContainEqual({ power: 'ITALY', type: 'A', at: 'VEN' });
    expect(diplomacy.project(s, 0).public_orders).toContainEqual(expect.objectContaining({ power: 'FRANCE', result: 'moved' }));
  });

  it('ends with no_gameplay_submissions when nobody ever seals an order batch', () => {
    let s = start();
    for (let i = 0; i < 3; i++) s = playWindow(s);
    expect(s.phase).toBe('finished');
    expect(diplomacy.outcome(s)).toEqual({ placements: [1, 1, 1, 1, 1, 1, 1], winners: [], reason: 'no_gameplay_submissions' });
  });

  it('plays to the final year with server defaults: centres change hands in Fall, Winter builds, a ranked result', () => {
    let s = start({ max_year: 1903 });
    let guard = 0;
    let sawAdjustment = false;
    while (s.phase !== 'finished' && guard++ < 200) {
      if (s.phase === 'adjustment') sawAdjustment = true;
      s = playWindow(s, serverDefault);
    }
    expect(s.phase).toBe('finished');
    expect(s.year).toBe(1903);
    expect(sawAdjustment).toBe(true);
    const outcome = diplomacy.outcome(s);
    expect(outcome?.reason).toBe('max_year');
    expect(outcome?.winners.length).toBeGreaterThanOrEqual(1);
    const counts = Object.values(diplomacy.summary(s).supply_center_counts as Record<string, number>);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(22);
    expect(new Set(s.units.map((u) => u.at.slice(0, 3))).size).toBe(s.units.length);
  });
});

// Claw Diplomacy on the game kit, driven through its rules object: phases, press visibility, sealed batches,
// candidates, defaults, builds and the end of the match.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiplomacyStateSchema } from '../../../engine/contract/clawarena.js';
import type { DiplomacyState } from '../../../games/diplomacy/game-state.js';
import { diplomacy } from '../../../games/diplomacy/rules.js';
import type { JsonObject } from '../../../games/kit/game.js';
import { CONFORMANCE_ROOT } from '../../support/conformance.js';

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
    // Two alternatives at once are refused; null / false stand for "not chosen".
    expect(diplomacy.apply(s, turkey, 'submit_orders', { use_server_default: true, orders: [] }, false).ok).toBe(false);
    expect(diplomacy.apply(s, turkey, 'submit_orders', { orders: [], candidate_id: null, use_server_default: false }, false).ok).toBe(true);
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

/** A position of our own in the given phase of 1901 (advice and options are not needed for explicit orders). */
function position(
  season: 'SPRING' | 'FALL' | 'WINTER',
  phase: DiplomacyState['phase'],
  units: DiplomacyState['units'],
  owners: Record<string, DiplomacyState['owners'][string]>,
): DiplomacyState {
  const s = start();
  s.season = season;
  s.phase = phase;
  s.round = null;
  s.units = units;
  for (const id of Object.keys(s.owners)) s.owners[id] = owners[id] ?? null;
  s.submissions = s.seats.map(() => null);
  s.advice = {};
  s.options = {};
  s.gameplaySealed = true;
  return s;
}

describe('Claw Diplomacy turn structure', () => {
  it('defaults to a final year of 1910', () => {
    expect(diplomacy.project(start(), 0).max_year).toBe(1910);
  });

  it('a power reaching 18 centres at the end of a Fall wins alone', () => {
    const centres = ['PAR', 'MAR', 'BRE', 'SPA', 'POR', 'LON', 'LVP', 'EDI', 'HOL', 'DEN', 'KIE', 'BER', 'MUN', 'NWY', 'SWE', 'TUN', 'ROM'];
    const owners = Object.fromEntries(centres.map((c) => [c, 'FRANCE' as const]));
    let s = position(
      'FALL',
      'movement',
      [
        { power: 'FRANCE', type: 'A', at: 'PIC' },
        { power: 'GERMANY', type: 'A', at: 'RUH' },
      ],
      { ...owners, VIE: 'GERMANY' },
    );
    const france = s.powers.indexOf('FRANCE');
    const germany = s.powers.indexOf('GERMANY');
    s = act(s, germany, 'submit_orders', { orders: [] }).state;
    s = act(s, france, 'submit_orders', { orders: [{ type: 'MOVE', origin: 'PIC', destination: 'BEL' }] }).state;
    expect(s.phase).toBe('finished');
    expect(diplomacy.outcome(s)).toEqual(expect.objectContaining({ reason: 'solo_victory', winners: [france] }));
    expect(diplomacy.outcome(s)?.placements[france]).toBe(1);
    expect(diplomacy.outcome(s)?.placements[germany]).toBe(2);
  });

  it('a Spring without 18 centres goes on, and a dislodged unit gets a retreat phase with its options', () => {
    let s = position(
      'SPRING',
      'movement',
      [
        { power: 'FRANCE', type: 'A', at: 'BUR' },
        { power: 'GERMANY', type: 'A', at: 'MUN' },
        { power: 'GERMANY', type: 'A', at: 'RUH' },
      ],
      { PAR: 'FRANCE', MUN: 'GERMANY' },
    );
    const france = s.powers.indexOf('FRANCE');
    const germany = s.powers.indexOf('GERMANY');
    s = act(s, france, 'submit_orders', { orders: [{ type: 'HOLD', origin: 'BUR' }] }).state;
    s = act(s, germany, 'submit_orders', {
      orders: [
        { type: 'MOVE', origin: 'MUN', destination: 'BUR' },
        { type: 'SUPPORT', origin: 'RUH', target: 'MUN', destination: 'BUR' },
      ],
    }).state;
    expect(s.phase).toBe('retreat');
    const view = diplomacy.project(s, france);
    expect(view.retreat_options).toEqual({ BUR: ['BEL', 'GAS', 'MAR', 'PAR', 'PIC'] });
    expect(diplomacy.window(s)?.actors).toEqual([france]);
    const [action] = diplomacy.legalActions(s, france);
    expect(action?.action).toBe('submit_retreats');
    expect(action?.hint.legal_orders).toEqual([
      expect.objectContaining({ origin: 'BUR', retreat_destinations: ['BEL', 'GAS', 'MAR', 'PAR', 'PIC'] }),
    ]);
    expect(
      diplomacy.apply(s, france, 'submit_retreats', { orders: [{ type: 'RETREAT', origin: 'BUR', destination: 'MUN' }] }, false).ok,
    ).toBe(false);
    s = act(s, france, 'submit_retreats', { orders: [{ type: 'RETREAT', origin: 'BUR', destination: 'PAR' }] }).state;
    expect(s.units).toContainEqual({ power: 'FRANCE', type: 'A', at: 'PAR' });
    expect(s.season).toBe('FALL');
    expect(s.phase).toBe('negotiation');
  });

  it('on the deadline, missing removals follow the civil-disorder rule and missing builds are waived', () => {
    let s = position(
      'WINTER',
      'adjustment',
      [
        { power: 'FRANCE', type: 'A', at: 'PAR' },
        { power: 'FRANCE', type: 'A', at: 'PIC' },
        { power: 'FRANCE', type: 'F', at: 'NAO' },
        { power: 'ITALY', type: 'A', at: 'ROM' },
      ],
      { PAR: 'FRANCE', ROM: 'ITALY', NAP: 'ITALY', VEN: 'ITALY' },
    );
    const view = diplomacy.project(s, s.powers.indexOf('FRANCE'));
    expect(view.adjustment_requirements).toEqual(expect.objectContaining({ FRANCE: -2, ITALY: 2 }));
    s = playWindow(s);
    expect(s.units.filter((u) => u.power === 'FRANCE')).toEqual([{ power: 'FRANCE', type: 'A', at: 'PAR' }]);
    expect(s.units.filter((u) => u.power === 'ITALY')).toHaveLength(1);
    expect(s.year).toBe(1902);
    expect(s.season).toBe('SPRING');
  });

  it('bounds the full state and marks what it left out; the slim state keeps fewer messages and no history', () => {
    const s = start();
    for (let i = 0; i < 40; i++) {
      s.messages.push({
        phase_key: 'S1901M-N1',
        round: 1,
        from_power: 'FRANCE',
        to_power: 'global',
        content: `m${i}`,
        visibility: 'global',
      });
    }
    for (let i = 0; i < 15; i++) s.history.push({ phase_id: `S19${i}M`, phase_type: 'movement', orders: [], dislodged: [], changes: {} });
    const full = diplomacy.project(s, 0);
    expect(full.messages_received).toHaveLength(30);
    expect(full.messages_received_truncated).toBe(true);
    expect(full.messages_received_omitted).toBe(10);
    expect((full.messages_received as { content: string }[])[29]?.content).toBe('m39');
    expect(full.public_history).toHaveLength(12);
    expect(full.public_history_omitted).toBe(3);
    const slim = diplomacy.projectSlim?.(s, 0) ?? {};
    expect(slim.messages_received).toHaveLength(14);
    expect(slim.messages_received_omitted).toBe(26);
    expect(slim).not.toHaveProperty('public_history');
  });
});

describe('Claw Diplomacy wire shape', () => {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const fixture = (phase: string) =>
    JSON.parse(readFileSync(path.join(CONFORMANCE_ROOT, 'clawarena', 'fixtures', `diplomacy_${phase}.json`), 'utf8')) as {
      state: Record<string, unknown>;
      legal_actions: { action: string; params: Record<string, unknown>; hint: Record<string, unknown> }[];
    };
  function problems(ours: Record<string, unknown>, theirs: Record<string, unknown>, where: string): string[] {
    return Object.entries(theirs).flatMap(([k, v]) =>
      !(k in ours)
        ? [`${where}.${k} missing`]
        : v !== null && ours[k] !== null && kind(v) !== kind(ours[k])
          ? [`${where}.${k}: ${kind(ours[k])} vs ${kind(v)}`]
          : [],
    );
  }

  it('every phase carries the state keys and hint keys of the published fixture, with the same JSON types', () => {
    const phases: [string, DiplomacyState, number][] = [];
    const s0 = start();
    phases.push(['negotiation', s0, 0]);
    const moving = playWindow(playWindow(start()));
    phases.push(['movement', moving, 0]);
    const retreat = position(
      'SPRING',
      'movement',
      [
        { power: 'FRANCE', type: 'A', at: 'BUR' },
        { power: 'GERMANY', type: 'A', at: 'MUN' },
        { power: 'GERMANY', type: 'A', at: 'RUH' },
      ],
      {},
    );
    let r = act(retreat, retreat.powers.indexOf('FRANCE'), 'submit_orders', { orders: [] }).state;
    r = act(r, r.powers.indexOf('GERMANY'), 'submit_orders', {
      orders: [
        { type: 'MOVE', origin: 'MUN', destination: 'BUR' },
        { type: 'SUPPORT', origin: 'RUH', target: 'MUN', destination: 'BUR' },
      ],
    }).state;
    phases.push(['retreat', r, r.powers.indexOf('FRANCE')]);
    const winter = position('FALL', 'movement', [{ power: 'ENGLAND', type: 'F', at: 'NTH' }], {
      LON: 'ENGLAND',
      EDI: 'ENGLAND',
      LVP: 'ENGLAND',
    });
    const w = act(winter, winter.powers.indexOf('ENGLAND'), 'submit_orders', { orders: [] }).state;
    phases.push(['adjustment', w, w.powers.indexOf('ENGLAND')]);
    for (const [phase, state, seat] of phases) {
      expect(state.phase, phase).toBe(phase);
      const ref = fixture(phase);
      const [ours] = diplomacy.legalActions(state, seat);
      const theirs = ref.legal_actions[0];
      expect(ours?.action).toBe(theirs?.action);
      const found = [
        // is_your_turn and turn_deadline are added to the state by the runtime's envelope.
        ...problems({ ...diplomacy.project(state, seat), is_your_turn: true, turn_deadline: '' }, ref.state, `${phase}.state`),
        ...problems(ours?.params ?? {}, theirs?.params ?? {}, `${phase}.params`),
        ...problems((ours?.hint ?? {}) as Record<string, unknown>, theirs?.hint ?? {}, `${phase}.hint`),
      ];
      expect(found).toEqual([]);
      const read = DiplomacyStateSchema.safeParse(diplomacy.project(state, seat));
      expect(read.success, read.error?.message).toBe(true);
    }
  });
});

describe('Claw Diplomacy retreats without options', () => {
  it('disbands a dislodged unit that has nowhere to go without opening a retreat window', () => {
    // DATC 6.H.15's position: the fleet in Portugal is dislodged and has no retreat.
    let s = position(
      'SPRING',
      'movement',
      [
        { power: 'ENGLAND', type: 'F', at: 'POR' },
        { power: 'FRANCE', type: 'F', at: 'SPA/SC' },
        { power: 'FRANCE', type: 'F', at: 'MAO' },
      ],
      {},
    );
    s = act(s, s.powers.indexOf('ENGLAND'), 'submit_orders', { orders: [{ type: 'HOLD', origin: 'POR' }] }).state;
    s = act(s, s.powers.indexOf('FRANCE'), 'submit_orders', {
      orders: [
        { type: 'MOVE', origin: 'SPA', destination: 'POR' },
        { type: 'SUPPORT', origin: 'MAO', target: 'SPA', destination: 'POR' },
      ],
    }).state;
    expect(s.phase).toBe('negotiation');
    expect(s.season).toBe('FALL');
    expect(s.units.some((u) => u.power === 'ENGLAND')).toBe(false);
    expect(s.history.at(-1)?.phase_type).toBe('retreat');
  });
});

describe('Claw Diplomacy proposals and strategy intent', () => {
  it('numbers a proposal, offers it to its recipient as a reply target, and checks replies and intents', () => {
    let s = start();
    const austria = s.powers.indexOf('AUSTRIA');
    const italy = s.powers.indexOf('ITALY');
    s = act(s, austria, 'send_press', {
      messages: [
        {
          to_power: 'ITALY',
          content: 'Keep Tyrolia empty and I will too.',
          proposal: { kind: 'dmz', provinces: ['TYR'], offers: [{ type: 'HOLD', origin: 'VIE' }] },
        },
      ],
      strategy_intent: { risk_posture: 'conservative', trusted_powers: ['ITALY'], dmz_provinces: ['TYR'] },
    }).state;
    expect(diplomacy.project(s, austria).strategy_intent).toEqual({
      risk_posture: 'conservative',
      trusted_powers: ['ITALY'],
      dmz_provinces: ['TYR'],
    });
    expect(diplomacy.project(s, italy).strategy_intent).toEqual({});
    s = playWindow(s);
    const [press] = diplomacy.legalActions(s, italy);
    expect(press?.hint.valid_proposal_ids).toEqual(['P1']);
    expect(diplomacy.legalActions(s, s.powers.indexOf('FRANCE'))[0]?.hint.valid_proposal_ids).toEqual([]);
    const badReply = diplomacy.apply(
      s,
      italy,
      'send_press',
      { messages: [{ to_power: 'AUSTRIA', content: 'Agreed.', proposal: { kind: 'dmz', status: 'accept', reply_to: 'P9' } }] },
      false,
    );
    expect(badReply.ok).toBe(false);
    const badIntent = diplomacy.apply(s, italy, 'send_press', { messages: [], strategy_intent: { trusted_powers: ['ITALY'] } }, false);
    expect(badIntent.ok).toBe(false);
    s = act(s, italy, 'send_press', {
      messages: [{ to_power: 'AUSTRIA', content: 'Agreed.', proposal: { kind: 'dmz', status: 'accept', reply_to: 'P1' } }],
      strategy_intent: { accepted_proposal_ids: ['P1'] },
    }).state;
    s = playWindow(s);
    const received = diplomacy.project(s, austria).messages_received as {
      from_power: string;
      proposal?: { reply_to?: string; proposal_id?: string };
    }[];
    expect(received.find((m) => m.from_power === 'ITALY')?.proposal).toEqual(
      expect.objectContaining({ reply_to: 'P1', proposal_id: 'P2' }),
    );
  });
});

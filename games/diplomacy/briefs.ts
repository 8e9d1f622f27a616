// Match briefs for Claw Diplomacy, written for this implementation.
import type { Briefs } from '../kit/game.js';

export function diplomacyRules(maxYear: number): Briefs['rules'] {
  return {
    title: 'Claw Diplomacy rules for this match',
    rules: [
      'Seven powers (AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY) on the standard map with 34 supply centres. Province ids are upper-case three-letter codes (Norway is NWY, never NOR); split coasts are written STP/NC, STP/SC, SPA/NC, SPA/SC, BUL/EC, BUL/SC.',
      'Spring and Fall each run two negotiation rounds (send_press: at most 3 messages in round 1 and 2 in round 2; hint.max_messages is authoritative), then one sealed submit_orders batch per power, then retreats if a unit was dislodged. Winter adjustments follow a Fall when someone must build or remove.',
      'Press is non-binding. It is delivered only when the round closes: private messages to the named power, global ones to everyone.',
      'Every phase is a simultaneous barrier: it resolves when every power that must act has sealed, or at the shared deadline. A sealed batch is final: an exact replay is accepted again, a different batch is refused with phase_submission_sealed.',
      'submit_orders / submit_retreats / submit_adjustments take exactly one of: orders (a partial batch is fine), candidate_id from state.heuristic_advice with at most two order_overrides, or use_server_default: true.',
      'Orders are HOLD, MOVE (via_convoy to take a convoy to an adjacent province), SUPPORT (target and, for a supported move, destination) and CONVOY. Use the options in legal_actions[].hint.legal_orders; an order outside them is rejected with the reason.',
      'Adjudication follows the DATC (2023 rules): a support is cut by any attack not coming from where the support is directed; a unit never dislodges its own side; convoy paradoxes follow the Szykman rule; an army that could walk takes the convoy only with via_convoy or when its own fleet convoys it.',
      'On a deadline: no press is sent, unordered units hold, unordered dislodged units disband, missing builds are waived and missing removals are chosen by the civil-disorder rule (farthest from your centres first, fleets before armies).',
      'At the end of each Fall a supply centre belongs to whoever occupies it. Builds go in free, owned home centres.',
      `A power with 18 or more centres after a Fall wins alone. Otherwise the match ends after Fall ${maxYear}: the most centres wins, ties share the win. If nobody ever sealed an order batch by the first movement, the match ends with no winner (no_gameplay_submissions).`,
    ],
  };
}

export const DIPLOMACY_STRATEGY: NonNullable<Briefs['strategy']> = {
  objective: 'Hold the most supply centres at the end (18 wins outright) through expansion your neighbours tolerate.',
  priorities: [
    'Take neutral centres early; in the first years every unit should be heading for one.',
    'Ask for concrete support or a demilitarised zone in press instead of vague friendship.',
    'Compare the heuristic candidates with what you were promised, then seal a complete batch.',
  ],
  cautions: [
    'Deals are not binding: keep a unit where a broken promise would cost you a home centre.',
    'A batch that names an order outside legal_orders is refused whole; use the listed ids.',
  ],
};

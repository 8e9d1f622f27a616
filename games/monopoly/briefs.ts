// Match briefs for Clawpoly, written for this implementation.
import type { Briefs } from '../kit/game.js';
import { MAX_BATCH_OPS } from './actions.js';
import { JAIL_BAIL, PASS_GO_CASH, START_CASH } from './board.js';

export function monopolyRules(maxTurns: number): Briefs['rules'] {
  return {
    title: 'Canonical Clawpoly rules for this match',
    rules: [
      `Four players start with $${START_CASH} and three dealt deeds each; passing Launch pays $${PASS_GO_CASH}.`,
      "Unified turn phase: 'turn' covers both the pre-roll window (roll, pay_bail, use_jail_card) and the post-roll window (end_turn). Check has_rolled_this_turn. build_house / sell_house / mortgage / unmortgage / manage_batch / propose_trade are legal any time during your own turn.",
      'Doubles let you roll again (has_rolled_this_turn resets). Three doubles in one turn send you to lockup.',
      `Lockup: before rolling you may pay_bail ($${JAIL_BAIL}), use_jail_card, or roll for doubles. After the third failed roll you pay the bail and move.`,
      'Property decisions are binary: buy_property at face value or decline_property. Declining does not start an auction.',
      'A full color set with no mortgage doubles base rent and allows building. Build and sell evenly across the set; a hotel is the fifth improvement. Buildings sell back at half their cost.',
      'Mortgage a deed with no buildings in its set for half its price; lifting the mortgage costs that principal plus 10%. Mortgaged deeds collect no rent.',
      `manage_batch runs 1-${MAX_BATCH_OPS} build_house / sell_house / mortgage / unmortgage operations atomically in order (all or nothing), optionally ending with end_turn when end_turn is legal.`,
      'Trades move cash, deeds and Get-out-of-Lockup cards; a deed whose color set carries buildings cannot be traded. The recipient answers accept_trade, reject_trade, reject_trade_for_turn (no more offers from that proposer this turn) or counter_trade (once; the proposer then accepts or rejects). At most 3 proposals per turn.',
      'When you owe more cash than you hold you enter the debt phase: sell buildings or mortgage until the debt is paid (it is paid automatically), or declare_bankruptcy. A bankrupt player owing another player hands over cash, deeds (mortgages stay) and lockup cards; owing the bank, the deeds return to the bank unmortgaged.',
      `The last solvent player wins. After ${maxTurns} completed player turns the match ends and players rank by net worth (cash + price of unmortgaged deeds + mortgage value of mortgaged deeds + half the house cost per improvement), then cash, then seat.`,
      'chat is legal whenever another action is and does not advance the turn (at most 3 per decision).',
      'Deadlines follow state.heuristic_advice.confidence.tier: routine about 1 second, tactical 45 seconds, strategic 60 seconds. A silent player gets heuristic_advice.recommended_action.',
    ],
  };
}

export const MONOPOLY_STRATEGY: NonNullable<Briefs['strategy']> = {
  objective:
    'Bankrupt opponents by assembling full color sets, developing them into high rent, and keeping enough cash to survive counterplay.',
  priorities: [
    'Full color sets unlock building and large rents; trades are usually needed to complete them.',
    'Build evenly on full sets when your cash buffer is healthy; three houses per deed is the usual sweet spot.',
    'Use manage_batch for several management moves in one action.',
  ],
  cautions: [
    'Do not spend down to zero just to stay active.',
    'Do not mortgage proactively against uncertain rolls; raise cash for a concrete bill.',
    'Do not cheaply help an opponent complete a color set.',
  ],
};

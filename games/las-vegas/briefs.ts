// Match briefs for Claw Vegas, written for this implementation.

export const VEGAS_TABLE_TALK_HINT = 'Optional, at most 140 characters, read by every player.';

export const VEGAS_TIE_RULE =
  'Players with equal dice counts at a casino cancel out and win nothing there; the rest take bills from the largest down, most dice first. Unclaimed bills are discarded.';

export function vegasRules(players: number, rounds: number): { title: string; rules: string[] } {
  return {
    title: 'Claw Vegas rules for this match',
    rules: [
      `${players} players, ${rounds} rounds. Everything is public: rolls, placements and every casino's bills.`,
      'At the start of each round casinos 1 to 6 are dealt bills from a freshly shuffled 54-bill deck until each holds at least $50,000, and every player gets 8 dice.',
      'On your turn the server has already rolled all your remaining dice (`your_roll`). Send one `place` with a face from that roll: every die showing it goes to the casino with the same number.',
      'There is no passing, splitting or re-rolling. Turns rotate until every player has placed all dice; players without dice are skipped.',
      `Payout per casino: ${VEGAS_TIE_RULE}`,
      'Money carries over between rounds; dice and bills reset. The start player moves one seat on each round.',
      'After the last round the most money wins; ties go to more bills won, then to the lower seat slot.',
      'A turn lasts 90 seconds. A silent player is placed automatically on the face rolled most often (ties: the higher face).',
      'The legal_actions list, state and this brief describe this engine exactly; prefer them to other rule variants.',
    ],
  };
}

export const VEGAS_STRATEGY = {
  objective: 'Finish the last round with the most money by winning rich casinos outright and spoiling rivals with ties.',
  priorities: [
    'Prefer casinos whose top bill is large and where your final count can stand alone.',
    'Count the dice each rival still holds before committing: late placements can tie you out.',
    'Matching a leader’s count at a rich casino cancels both payouts there, which can be worth more than a small win elsewhere.',
  ],
  cautions: [
    'Placing many dice on a cheap casino leaves you few dice for later contests.',
    'Second place at a single-bill casino pays nothing.',
  ],
};

// Match briefs for Liar's Dice, written for this implementation (they state the rules the engine enforces).

export const TABLE_TALK_HINT = 'Optional, at most 140 characters, shown to your opponent. Bluff, bait or stay quiet.';

export const LIARS_DICE_RULES = {
  title: "Liar's Dice rules for this match",
  rules: [
    'Two players, one hand. Each player rolls five dice once and sees only their own dice (`your_dice`). The first challenge ends the match.',
    'Bids claim how many dice on the whole table show a face. Face order for bidding is 2 < 3 < 4 < 5 < 6 < 1.',
    'Ones are wild for bids on faces 2 to 6. A bid on face 1 counts real ones only. There is no separate no-wild mode.',
    'Each bid must beat the standing one: a larger quantity, or the same quantity on a higher face. Quantity runs from 1 to the total number of dice.',
    'Instead of bidding you may challenge the standing bid. If the table holds at least the bid quantity, the bidder wins; otherwise the challenger wins.',
    'The player who opens is chosen at random. An opening bid may be anything from 1 x 2 upwards.',
    'A turn lasts 60 seconds. A silent player is moved for automatically: a challenge when a bid stands, otherwise the opening bid 1 x 2.',
    'An optional `message` of up to 140 characters is table talk the opponent reads.',
    'The legal_actions list, state and this brief describe this engine exactly; prefer them to other rule variants.',
  ],
};

export const LIARS_DICE_STRATEGY = {
  objective: 'Win the single hand: make claims your opponent cannot safely doubt, and doubt the claim that overreaches.',
  priorities: [
    'Estimate the table: your own matching dice plus about one third of the unseen dice (ones count as wild for faces 2-6).',
    'Raise modestly when your hand supports the face; a jump in quantity gives your opponent an easy challenge.',
    'Challenge when the standing quantity clearly exceeds what your dice and the expected unseen dice can cover.',
  ],
  cautions: ['Never state your exact dice in table talk.', 'A bid on face 1 cannot count wild ones, so it needs real ones.'],
};

// Wild Card (chance) and Supply Cache (community chest) decks, 16 cards each, shuffled from the match seed.

export type Card =
  | { kind: 'move_to'; to: number }
  | { kind: 'nearest'; target: 'railroad' | 'utility' }
  | { kind: 'back'; steps: number }
  | { kind: 'jail' }
  | { kind: 'cash'; amount: number }
  | { kind: 'each_player'; amount: number }
  | { kind: 'repairs'; house: number; hotel: number }
  | { kind: 'jail_card' };

export interface CardDef {
  text: string;
  card: Card;
}

export type DeckName = 'chance' | 'community_chest';

export const DECKS: Record<DeckName, readonly CardDef[]> = {
  chance: [
    { text: 'Advance to Launch and collect $200.', card: { kind: 'move_to', to: 0 } },
    { text: 'Advance to Alloy Avenue.', card: { kind: 'move_to', to: 24 } },
    { text: 'Advance to Prism Plaza.', card: { kind: 'move_to', to: 11 } },
    { text: 'Advance to Apex Walk.', card: { kind: 'move_to', to: 39 } },
    { text: 'Take a ride on Signal Rail.', card: { kind: 'move_to', to: 5 } },
    { text: 'Advance to the nearest utility; if owned, pay 10× the dice.', card: { kind: 'nearest', target: 'utility' } },
    { text: 'Advance to the nearest rail; if owned, pay double rent.', card: { kind: 'nearest', target: 'railroad' } },
    { text: 'Advance to the nearest rail; if owned, pay double rent.', card: { kind: 'nearest', target: 'railroad' } },
    { text: 'The bank pays you a $50 dividend.', card: { kind: 'cash', amount: 50 } },
    { text: 'Get out of Lockup free. Keep this card until used or traded.', card: { kind: 'jail_card' } },
    { text: 'Go back three spaces.', card: { kind: 'back', steps: 3 } },
    { text: 'Go directly to lockup.', card: { kind: 'jail' } },
    { text: 'General repairs: $25 per house, $100 per hotel.', card: { kind: 'repairs', house: 25, hotel: 100 } },
    { text: 'Speeding fine: pay $15.', card: { kind: 'cash', amount: -15 } },
    { text: 'You chair the board: pay each player $50.', card: { kind: 'each_player', amount: -50 } },
    { text: 'Your building loan matures: collect $150.', card: { kind: 'cash', amount: 150 } },
  ],
  community_chest: [
    { text: 'Advance to Launch and collect $200.', card: { kind: 'move_to', to: 0 } },
    { text: 'Bank error in your favour: collect $200.', card: { kind: 'cash', amount: 200 } },
    { text: "Doctor's fee: pay $50.", card: { kind: 'cash', amount: -50 } },
    { text: 'From sale of stock you get $50.', card: { kind: 'cash', amount: 50 } },
    { text: 'Get out of Lockup free. Keep this card until used or traded.', card: { kind: 'jail_card' } },
    { text: 'Go directly to lockup.', card: { kind: 'jail' } },
    { text: 'Holiday fund matures: collect $100.', card: { kind: 'cash', amount: 100 } },
    { text: 'Tax refund: collect $20.', card: { kind: 'cash', amount: 20 } },
    { text: 'It is your birthday: collect $10 from each player.', card: { kind: 'each_player', amount: 10 } },
    { text: 'Life insurance matures: collect $100.', card: { kind: 'cash', amount: 100 } },
    { text: 'Hospital fees: pay $100.', card: { kind: 'cash', amount: -100 } },
    { text: 'School fees: pay $50.', card: { kind: 'cash', amount: -50 } },
    { text: 'Consultancy fee: collect $25.', card: { kind: 'cash', amount: 25 } },
    { text: 'Street repairs: $40 per house, $115 per hotel.', card: { kind: 'repairs', house: 40, hotel: 115 } },
    { text: 'Second prize in a beauty contest: collect $10.', card: { kind: 'cash', amount: 10 } },
    { text: 'You inherit $100.', card: { kind: 'cash', amount: 100 } },
  ],
};

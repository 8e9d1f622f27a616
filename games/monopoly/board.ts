// The Clawpoly board as data: 40 spaces with renamed titles (spec §11.4), standard prices and rent tables.

export type SpaceType =
  | 'go'
  | 'property'
  | 'railroad'
  | 'utility'
  | 'tax'
  | 'chance'
  | 'community_chest'
  | 'jail'
  | 'free_parking'
  | 'go_to_jail';

export type ColorGroup = 'brown' | 'light_blue' | 'pink' | 'orange' | 'red' | 'yellow' | 'green' | 'dark_blue';

export interface Space {
  index: number;
  name: string;
  type: SpaceType;
  group: ColorGroup | null;
  price: number | null;
  /** Property rent with 0–4 houses and a hotel; railroads and utilities compute theirs. */
  rents: number[] | null;
  houseCost: number | null;
  tax: number | null;
}

export const BOARD_SIZE = 40;
export const START_CASH = 1500;
export const PASS_GO_CASH = 200;
export const JAIL_BAIL = 50;
export const JAIL_INDEX = 10;
export const GO_TO_JAIL_INDEX = 30;
export const HOTEL = 5;
export const MAX_JAIL_ROLLS = 3;

function lot(index: number, name: string, group: ColorGroup, price: number, houseCost: number, rents: number[]): Space {
  return { index, name, type: 'property', group, price, rents, houseCost, tax: null };
}
function other(index: number, name: string, type: SpaceType, extra: Partial<Space> = {}): Space {
  return { index, name, type, group: null, price: null, rents: null, houseCost: null, tax: null, ...extra };
}
const rail = (index: number, name: string) => other(index, name, 'railroad', { price: 200 });
const utility = (index: number, name: string) => other(index, name, 'utility', { price: 150 });

export const SPACES: readonly Space[] = [
  other(0, 'Launch', 'go'),
  lot(1, 'Tin Lane', 'brown', 60, 50, [2, 10, 30, 90, 160, 250]),
  other(2, 'Supply Cache', 'community_chest'),
  lot(3, 'Copper Row', 'brown', 60, 50, [4, 20, 60, 180, 320, 450]),
  other(4, 'Treasury Tax', 'tax', { tax: 200 }),
  rail(5, 'Signal Rail'),
  lot(6, 'Azure Avenue', 'light_blue', 100, 50, [6, 30, 90, 270, 400, 550]),
  other(7, 'Wild Card', 'chance'),
  lot(8, 'Skyline Avenue', 'light_blue', 100, 50, [6, 30, 90, 270, 400, 550]),
  lot(9, 'Harbor Avenue', 'light_blue', 120, 50, [8, 40, 100, 300, 450, 600]),
  other(10, 'Lockup / Visiting', 'jail'),
  lot(11, 'Prism Plaza', 'pink', 140, 100, [10, 50, 150, 450, 625, 750]),
  utility(12, 'Spark Works'),
  lot(13, 'Quartz Court', 'pink', 140, 100, [10, 50, 150, 450, 625, 750]),
  lot(14, 'Orchid Avenue', 'pink', 160, 100, [12, 60, 180, 500, 700, 900]),
  rail(15, 'Central Rail'),
  lot(16, 'Forge Street', 'orange', 180, 100, [14, 70, 200, 550, 750, 950]),
  other(17, 'Supply Cache', 'community_chest'),
  lot(18, 'Anvil Way', 'orange', 180, 100, [14, 70, 200, 550, 750, 950]),
  lot(19, 'Neon Avenue', 'orange', 200, 100, [16, 80, 220, 600, 800, 1000]),
  other(20, 'Free Dock', 'free_parking'),
  lot(21, 'Crimson Avenue', 'red', 220, 150, [18, 90, 250, 700, 875, 1050]),
  other(22, 'Wild Card', 'chance'),
  lot(23, 'Ember Street', 'red', 220, 150, [18, 90, 250, 700, 875, 1050]),
  lot(24, 'Alloy Avenue', 'red', 240, 150, [20, 100, 300, 750, 925, 1100]),
  rail(25, 'Relay Rail'),
  lot(26, 'Tide Avenue', 'yellow', 260, 150, [22, 110, 330, 800, 975, 1150]),
  lot(27, 'Vista Avenue', 'yellow', 260, 150, [22, 110, 330, 800, 975, 1150]),
  utility(28, 'Hydro Works'),
  lot(29, 'Dune Drive', 'yellow', 280, 150, [24, 120, 360, 850, 1025, 1200]),
  other(30, 'Go to Lockup', 'go_to_jail'),
  lot(31, 'Circuit Row', 'green', 300, 200, [26, 130, 390, 900, 1100, 1275]),
  lot(32, 'Canopy Lane', 'green', 300, 200, [26, 130, 390, 900, 1100, 1275]),
  other(33, 'Supply Cache', 'community_chest'),
  lot(34, 'Verdant Square', 'green', 320, 200, [28, 150, 450, 1000, 1200, 1400]),
  rail(35, 'Terminal Rail'),
  other(36, 'Wild Card', 'chance'),
  lot(37, 'Summit Drive', 'dark_blue', 350, 200, [35, 175, 500, 1100, 1300, 1500]),
  other(38, 'Luxury Levy', 'tax', { tax: 100 }),
  lot(39, 'Apex Walk', 'dark_blue', 400, 200, [50, 200, 600, 1400, 1700, 2000]),
];

export const DESCRIPTIONS: Record<SpaceType, string> = {
  go: `Collect $${PASS_GO_CASH} salary when passing.`,
  property: 'A deed in a color set; a full unmortgaged set doubles base rent and allows building.',
  railroad: 'Rent 25 / 50 / 100 / 200 for 1–4 rails owned.',
  utility: 'Rent 4× the dice with one utility owned, 10× with both.',
  tax: 'Pay the listed tax to the bank.',
  chance: 'Draw a Wild Card.',
  community_chest: 'Draw a Supply Cache card.',
  jail: 'Just visiting, unless you are detained in lockup.',
  free_parking: 'Nothing happens.',
  go_to_jail: 'Go directly to lockup without passing Launch.',
};

export const RAIL_RENT = [0, 25, 50, 100, 200];

export function space(index: number): Space {
  const s = SPACES[index];
  if (!s) throw new RangeError(`no board space ${index}`);
  return s;
}

export function isDeed(index: number): boolean {
  const t = SPACES[index]?.type;
  return t === 'property' || t === 'railroad' || t === 'utility';
}

export const DEED_INDEXES: readonly number[] = SPACES.filter((s) => isDeed(s.index)).map((s) => s.index);

export function groupMembers(group: ColorGroup): number[] {
  return SPACES.filter((s) => s.group === group).map((s) => s.index);
}

export function mortgageValue(index: number): number {
  return Math.floor((space(index).price ?? 0) / 2);
}

/** Unmortgaging costs principal plus 10% (rounded up). */
export function unmortgageCost(index: number): number {
  return Math.ceil((mortgageValue(index) * 11) / 10);
}

/** The group key used in trade summaries: the color, or `railroad` / `utility`. */
export function groupKey(index: number): string {
  const s = space(index);
  return s.group ?? s.type;
}

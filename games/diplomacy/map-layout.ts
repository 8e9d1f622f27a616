// Where each province sits on the match viewer's map: a hand-placed schematic of the standard board, roughly
// geographic (north up), in the units of the map's viewBox. A province's point is where its unit stands, its name is
// drawn just above and its supply centre just below; its region is the part of the map nearer to it than to any other
// point (within `reach`). Fleets in the three split-coast provinces stand on their coast's own point. The points were
// nudged so that regions seldom seem to touch where the game has no border (test/boards/diplomacy-map.test.ts names
// the few that still do); the map's "Show the borders" draws the real ones.

export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 780;
/** How far a province's region reaches from its point unless its row says otherwise. */
export const DEFAULT_REACH = 62;

/** id → [x, y] or [x, y, reach] (the open seas reach further). One row per province. */
export const PROVINCE_PLACES: Readonly<Record<string, readonly [number, number, number?]>> = {
  ADR: [493, 560, 40],
  AEG: [634, 674],
  ALB: [542, 593],
  ANK: [784, 578],
  APU: [512, 607],
  ARM: [868, 560, 80],
  BAL: [478, 292, 50],
  BAR: [640, 40, 110],
  BEL: [328, 370, 50],
  BER: [465, 338],
  BLA: [762, 508, 80],
  BOH: [474, 424],
  BOT: [545, 218, 74],
  BRE: [232, 420],
  BUD: [554, 480],
  BUL: [646, 555],
  BUR: [330, 440],
  CLY: [210, 222],
  CON: [705, 598],
  DEN: [414, 290],
  EAS: [735, 725, 90],
  EDI: [252, 238],
  ENG: [215, 380],
  FIN: [578, 140, 75],
  GAL: [562, 425],
  GAS: [245, 490],
  GRE: [590, 640],
  HEL: [366, 310],
  HOL: [365, 345],
  ION: [525, 720, 95],
  IRI: [135, 325],
  KIE: [412, 340],
  LON: [258, 340],
  LVN: [600, 278],
  LVP: [214, 282],
  LYO: [330, 585],
  MAO: [80, 455, 130],
  MAR: [318, 506],
  MOS: [722, 300, 95],
  MUN: [420, 420],
  NAF: [190, 730, 95],
  NAO: [95, 185, 130],
  NAP: [515, 652, 50],
  NTH: [318, 262],
  NWG: [360, 95, 110],
  NWY: [430, 170, 63],
  PAR: [280, 442],
  PIC: [288, 394],
  PIE: [380, 500],
  POR: [105, 560, 74],
  PRU: [525, 322, 50],
  ROM: [455, 590],
  RUH: [380, 390],
  RUM: [655, 495],
  SER: [570, 545],
  SEV: [742, 440, 85],
  SIL: [492, 372],
  SKA: [431, 245],
  SMY: [752, 652],
  SPA: [190, 560, 75],
  STP: [675, 175, 85],
  SWE: [487, 205],
  SYR: [870, 662, 80],
  TRI: [497, 515],
  TUN: [372, 722, 80],
  TUS: [414, 555],
  TYR: [432, 466],
  TYS: [430, 648],
  UKR: [642, 408],
  VEN: [437, 517],
  VIE: [502, 455],
  WAL: [205, 334],
  WAR: [566, 366],
  WES: [258, 652, 75],
  YOR: [252, 296],
};

/** Where a fleet on a named coast stands (inside its province's region, on that side). */
export const COAST_PLACES: Readonly<Record<string, readonly [number, number]>> = {
  'BUL/EC': [676, 540],
  'BUL/SC': [630, 590],
  'SPA/NC': [185, 515],
  'SPA/SC': [212, 602],
  'STP/NC': [690, 113],
  'STP/SC': [630, 206],
};

/** Land that is on the board but no province (impassable): it only keeps its neighbours' regions in shape. */
export const IMPASSABLE_PLACES: readonly { name: string; at: readonly [number, number]; reach: number }[] = [
  { name: 'Switzerland', at: [378, 458], reach: 26 },
  { name: 'Ireland', at: [150, 256], reach: 40 },
];

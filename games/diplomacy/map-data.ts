// The standard Diplomacy map as data: 75 provinces, 34 supply centres, army and fleet adjacency (fleets by coast).
// Province ids are the usual three-letter codes in upper case; a coast is written `STP/NC`.

export const POWERS = ['AUSTRIA', 'ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'RUSSIA', 'TURKEY'] as const;
export type Power = (typeof POWERS)[number];

export type ProvinceKind = 'land' | 'coast' | 'sea';

/** id, English name (civil-disorder ties are broken alphabetically by it), kind, home power if a home centre. */
const PROVINCE_ROWS: readonly [string, string, ProvinceKind, (Power | '')?][] = [
  ['ADR', 'Adriatic Sea', 'sea'],
  ['AEG', 'Aegean Sea', 'sea'],
  ['ALB', 'Albania', 'coast'],
  ['ANK', 'Ankara', 'coast', 'TURKEY'],
  ['APU', 'Apulia', 'coast'],
  ['ARM', 'Armenia', 'coast'],
  ['BAL', 'Baltic Sea', 'sea'],
  ['BAR', 'Barents Sea', 'sea'],
  ['BEL', 'Belgium', 'coast', ''],
  ['BER', 'Berlin', 'coast', 'GERMANY'],
  ['BLA', 'Black Sea', 'sea'],
  ['BOH', 'Bohemia', 'land'],
  ['BOT', 'Gulf of Bothnia', 'sea'],
  ['BRE', 'Brest', 'coast', 'FRANCE'],
  ['BUD', 'Budapest', 'land', 'AUSTRIA'],
  ['BUL', 'Bulgaria', 'coast', ''],
  ['BUR', 'Burgundy', 'land'],
  ['CLY', 'Clyde', 'coast'],
  ['CON', 'Constantinople', 'coast', 'TURKEY'],
  ['DEN', 'Denmark', 'coast', ''],
  ['EAS', 'Eastern Mediterranean', 'sea'],
  ['EDI', 'Edinburgh', 'coast', 'ENGLAND'],
  ['ENG', 'English Channel', 'sea'],
  ['FIN', 'Finland', 'coast'],
  ['GAL', 'Galicia', 'land'],
  ['GAS', 'Gascony', 'coast'],
  ['GRE', 'Greece', 'coast', ''],
  ['HEL', 'Helgoland Bight', 'sea'],
  ['HOL', 'Holland', 'coast', ''],
  ['ION', 'Ionian Sea', 'sea'],
  ['IRI', 'Irish Sea', 'sea'],
  ['KIE', 'Kiel', 'coast', 'GERMANY'],
  ['LON', 'London', 'coast', 'ENGLAND'],
  ['LVN', 'Livonia', 'coast'],
  ['LVP', 'Liverpool', 'coast', 'ENGLAND'],
  ['LYO', 'Gulf of Lyon', 'sea'],
  ['MAO', 'Mid-Atlantic Ocean', 'sea'],
  ['MAR', 'Marseilles', 'coast', 'FRANCE'],
  ['MOS', 'Moscow', 'land', 'RUSSIA'],
  ['MUN', 'Munich', 'land', 'GERMANY'],
  ['NAF', 'North Africa', 'coast'],
  ['NAO', 'North Atlantic Ocean', 'sea'],
  ['NAP', 'Naples', 'coast', 'ITALY'],
  ['NTH', 'North Sea', 'sea'],
  ['NWG', 'Norwegian Sea', 'sea'],
  ['NWY', 'Norway', 'coast', ''],
  ['PAR', 'Paris', 'land', 'FRANCE'],
  ['PIC', 'Picardy', 'coast'],
  ['PIE', 'Piedmont', 'coast'],
  ['POR', 'Portugal', 'coast', ''],
  ['PRU', 'Prussia', 'coast'],
  ['ROM', 'Rome', 'coast', 'ITALY'],
  ['RUH', 'Ruhr', 'land'],
  ['RUM', 'Rumania', 'coast', ''],
  ['SER', 'Serbia', 'land', ''],
  ['SEV', 'Sevastopol', 'coast', 'RUSSIA'],
  ['SIL', 'Silesia', 'land'],
  ['SKA', 'Skagerrak', 'sea'],
  ['SMY', 'Smyrna', 'coast', 'TURKEY'],
  ['SPA', 'Spain', 'coast', ''],
  ['STP', 'St Petersburg', 'coast', 'RUSSIA'],
  ['SWE', 'Sweden', 'coast', ''],
  ['SYR', 'Syria', 'coast'],
  ['TRI', 'Trieste', 'coast', 'AUSTRIA'],
  ['TUN', 'Tunis', 'coast', ''],
  ['TUS', 'Tuscany', 'coast'],
  ['TYR', 'Tyrolia', 'land'],
  ['TYS', 'Tyrrhenian Sea', 'sea'],
  ['UKR', 'Ukraine', 'land'],
  ['VEN', 'Venice', 'coast', 'ITALY'],
  ['VIE', 'Vienna', 'land', 'AUSTRIA'],
  ['WAL', 'Wales', 'coast'],
  ['WAR', 'Warsaw', 'land', 'RUSSIA'],
  ['WES', 'Western Mediterranean', 'sea'],
  ['YOR', 'Yorkshire', 'coast'],
];

export interface ProvinceInfo {
  id: string;
  name: string;
  kind: ProvinceKind;
  supplyCentre: boolean;
  /** The power this is a home centre of, or null. */
  home: Power | null;
  /** Named coasts (`STP/NC`, `STP/SC`) for the three split-coast provinces, else empty. */
  coasts: string[];
}

const SPLIT_COASTS: Record<string, string[]> = {
  BUL: ['BUL/EC', 'BUL/SC'],
  SPA: ['SPA/NC', 'SPA/SC'],
  STP: ['STP/NC', 'STP/SC'],
};

export const PROVINCES: ReadonlyMap<string, ProvinceInfo> = new Map(
  PROVINCE_ROWS.map(([id, name, kind, home]) => [
    id,
    {
      id,
      name,
      kind,
      supplyCentre: home !== undefined,
      home: home ? home : null,
      coasts: SPLIT_COASTS[id] ?? [],
    },
  ]),
);

/** Land borders (armies). Each pair once. */
const ARMY_EDGES = `
ALB-TRI ALB-SER ALB-GRE ANK-CON ANK-SMY ANK-ARM APU-VEN APU-ROM APU-NAP ARM-SMY ARM-SYR ARM-SEV
BEL-PIC BEL-BUR BEL-RUH BEL-HOL BER-KIE BER-MUN BER-SIL BER-PRU BOH-MUN BOH-SIL BOH-GAL BOH-VIE BOH-TYR
BRE-PIC BRE-PAR BRE-GAS BUD-VIE BUD-GAL BUD-RUM BUD-SER BUD-TRI BUL-RUM BUL-SER BUL-GRE BUL-CON
BUR-PAR BUR-PIC BUR-RUH BUR-MUN BUR-MAR BUR-GAS CLY-EDI CLY-LVP CON-SMY DEN-KIE DEN-SWE EDI-LVP EDI-YOR
FIN-SWE FIN-NWY FIN-STP GAL-SIL GAL-WAR GAL-UKR GAL-RUM GAL-VIE GAS-PAR GAS-MAR GAS-SPA GRE-SER HOL-RUH HOL-KIE
KIE-RUH KIE-MUN LON-WAL LON-YOR LVN-PRU LVN-WAR LVN-MOS LVN-STP LVP-YOR LVP-WAL MAR-SPA MAR-PIE
MOS-STP MOS-WAR MOS-UKR MOS-SEV MUN-RUH MUN-SIL MUN-TYR NAF-TUN NAP-ROM NWY-SWE NWY-STP PAR-PIC
PIE-TUS PIE-VEN PIE-TYR POR-SPA PRU-SIL PRU-WAR ROM-TUS ROM-VEN RUM-UKR RUM-SEV RUM-SER SER-TRI
SEV-UKR SIL-WAR SMY-SYR TRI-VEN TRI-TYR TRI-VIE TUS-VEN TYR-VEN TYR-VIE UKR-WAR WAL-YOR
`;

/** Fleet borders, by coast where a province has two. Each pair once. */
const FLEET_EDGES = `
ADR-VEN ADR-TRI ADR-ALB ADR-APU ADR-ION AEG-GRE AEG-BUL/SC AEG-CON AEG-SMY AEG-EAS AEG-ION
ALB-ION ALB-GRE ALB-TRI ANK-BLA ANK-CON ANK-ARM APU-ION APU-NAP APU-VEN ARM-BLA ARM-SEV
BAL-SWE BAL-DEN BAL-KIE BAL-BER BAL-PRU BAL-LVN BAL-BOT BAR-NWG BAR-NWY BAR-STP/NC
BEL-ENG BEL-NTH BEL-HOL BEL-PIC BER-KIE BER-PRU BLA-RUM BLA-SEV BLA-CON BLA-BUL/EC
BOT-SWE BOT-FIN BOT-STP/SC BOT-LVN BRE-ENG BRE-MAO BRE-GAS BRE-PIC BUL/EC-CON BUL/EC-RUM BUL/SC-GRE BUL/SC-CON
CLY-NAO CLY-NWG CLY-EDI CLY-LVP CON-SMY DEN-NTH DEN-SKA DEN-KIE DEN-HEL DEN-SWE EAS-SMY EAS-SYR EAS-ION
EDI-NWG EDI-NTH EDI-YOR ENG-IRI ENG-MAO ENG-PIC ENG-NTH ENG-LON ENG-WAL FIN-SWE FIN-STP/SC GAS-MAO GAS-SPA/NC
GRE-ION HEL-NTH HEL-KIE HEL-HOL HOL-NTH HOL-KIE ION-TUN ION-TYS ION-NAP IRI-NAO IRI-LVP IRI-WAL IRI-MAO
LON-NTH LON-WAL LON-YOR LVN-STP/SC LVN-PRU LVP-NAO LVP-WAL LYO-MAR LYO-SPA/SC LYO-WES LYO-TYS LYO-TUS LYO-PIE
MAO-NAO MAO-SPA/NC MAO-POR MAO-SPA/SC MAO-WES MAO-NAF MAR-SPA/SC MAR-PIE NAF-WES NAF-TUN NAO-NWG NAP-TYS NAP-ROM
NTH-NWG NTH-NWY NTH-SKA NTH-YOR NWG-NWY NWY-STP/NC NWY-SWE NWY-SKA PIE-TUS POR-SPA/NC POR-SPA/SC ROM-TYS ROM-TUS
RUM-SEV SKA-SWE SMY-SYR SPA/SC-WES TRI-VEN TUN-WES TUN-TYS TUS-TYS TYS-WES
`;

function pairs(text: string): [string, string][] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((edge) => {
      const [a, b] = edge.split('-');
      if (!a || !b) throw new Error(`bad edge ${edge}`);
      return [a, b];
    });
}

export const ARMY_EDGE_LIST: readonly [string, string][] = pairs(ARMY_EDGES);
export const FLEET_EDGE_LIST: readonly [string, string][] = pairs(FLEET_EDGES);

/** Where each power starts in Spring 1901. */
export const STARTING_UNITS: readonly { power: Power; type: 'A' | 'F'; at: string }[] = [
  { power: 'AUSTRIA', type: 'A', at: 'VIE' },
  { power: 'AUSTRIA', type: 'A', at: 'BUD' },
  { power: 'AUSTRIA', type: 'F', at: 'TRI' },
  { power: 'ENGLAND', type: 'F', at: 'LON' },
  { power: 'ENGLAND', type: 'F', at: 'EDI' },
  { power: 'ENGLAND', type: 'A', at: 'LVP' },
  { power: 'FRANCE', type: 'A', at: 'PAR' },
  { power: 'FRANCE', type: 'A', at: 'MAR' },
  { power: 'FRANCE', type: 'F', at: 'BRE' },
  { power: 'GERMANY', type: 'A', at: 'BER' },
  { power: 'GERMANY', type: 'A', at: 'MUN' },
  { power: 'GERMANY', type: 'F', at: 'KIE' },
  { power: 'ITALY', type: 'A', at: 'ROM' },
  { power: 'ITALY', type: 'A', at: 'VEN' },
  { power: 'ITALY', type: 'F', at: 'NAP' },
  { power: 'RUSSIA', type: 'A', at: 'MOS' },
  { power: 'RUSSIA', type: 'A', at: 'WAR' },
  { power: 'RUSSIA', type: 'F', at: 'SEV' },
  { power: 'RUSSIA', type: 'F', at: 'STP/SC' },
  { power: 'TURKEY', type: 'A', at: 'CON' },
  { power: 'TURKEY', type: 'A', at: 'SMY' },
  { power: 'TURKEY', type: 'F', at: 'ANK' },
];

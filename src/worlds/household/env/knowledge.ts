// What the household knows about each type of thing, in one table: ALFWorld's object and receptacle types
// with the properties ALFRED gives them. The rules, the generator, the scene loader and the vocabulary all
// read these tables, so a type added here is playable, loadable and speakable everywhere at once.

export interface ObjectKind {
  pickupable: boolean;
  /** Heated by `heat X with microwave N` (ALFRED's pick_heat objects). */
  heatable: boolean;
  /** Cooled by `cool X with fridge N` (ALFRED's pick_cool objects). */
  coolable: boolean;
  /** Cleaned by `clean X with sinkbasin N` (ALFRED's pick_clean objects). */
  cleanable: boolean;
  /** Lamps: `use X` turns them on and off. */
  toggleable: boolean;
  /** Recorded for completeness; no command slices (ALFWorld's six task types never need it). */
  sliceable: boolean;
}

interface ReceptacleKind {
  /** The type's default; a scene may mark single cabinets or drawers as not openable, as ALFWorld does. */
  openable: boolean;
}

type Flag = 'pick' | 'heat' | 'cool' | 'clean' | 'toggle' | 'slice';

function kind(...flags: Flag[]): ObjectKind {
  return {
    pickupable: flags.includes('pick'),
    heatable: flags.includes('heat'),
    coolable: flags.includes('cool'),
    cleanable: flags.includes('clean'),
    toggleable: flags.includes('toggle'),
    sliceable: flags.includes('slice'),
  };
}

export const OBJECT_KINDS: Readonly<Record<string, ObjectKind>> = {
  alarmclock: kind('pick'),
  apple: kind('pick', 'heat', 'cool', 'clean', 'slice'),
  baseballbat: kind('pick'),
  basketball: kind('pick'),
  book: kind('pick'),
  bowl: kind('pick', 'cool', 'clean'),
  box: kind('pick'),
  bread: kind('pick', 'heat', 'cool', 'slice'),
  butterknife: kind('pick', 'clean'),
  candle: kind('pick'),
  cd: kind('pick'),
  cellphone: kind('pick'),
  cloth: kind('pick', 'clean'),
  creditcard: kind('pick'),
  cup: kind('pick', 'heat', 'cool', 'clean'),
  desklamp: kind('toggle'),
  dishsponge: kind('pick', 'clean'),
  egg: kind('pick', 'heat', 'cool', 'clean'),
  floorlamp: kind('toggle'),
  fork: kind('pick', 'clean'),
  glassbottle: kind('pick'),
  handtowel: kind('pick'),
  houseplant: kind(),
  kettle: kind('pick', 'clean'),
  keychain: kind('pick'),
  knife: kind('pick', 'clean'),
  ladle: kind('pick', 'clean'),
  laptop: kind('pick'),
  lettuce: kind('pick', 'cool', 'clean', 'slice'),
  mirror: kind(),
  mug: kind('pick', 'heat', 'cool', 'clean'),
  newspaper: kind('pick'),
  pan: kind('pick', 'cool', 'clean'),
  papertowelroll: kind('pick'),
  pen: kind('pick'),
  pencil: kind('pick'),
  peppershaker: kind('pick'),
  pillow: kind('pick'),
  pineapple: kind('pick'),
  plate: kind('pick', 'heat', 'cool', 'clean'),
  pot: kind('pick', 'cool', 'clean'),
  potato: kind('pick', 'heat', 'cool', 'clean', 'slice'),
  remotecontrol: kind('pick'),
  saltshaker: kind('pick'),
  sink: kind(),
  soapbar: kind('pick', 'clean'),
  soapbottle: kind('pick'),
  spatula: kind('pick', 'clean'),
  spoon: kind('pick', 'clean'),
  spraybottle: kind('pick'),
  statue: kind('pick'),
  teddybear: kind('pick'),
  television: kind(),
  tennisracket: kind('pick'),
  tissuebox: kind('pick'),
  toiletpaper: kind('pick'),
  tomato: kind('pick', 'heat', 'cool', 'clean', 'slice'),
  towel: kind('pick'),
  vase: kind('pick'),
  watch: kind('pick'),
  wateringcan: kind('pick'),
  winebottle: kind('pick', 'cool'),
};

const openable: ReceptacleKind = { openable: true };
const surface: ReceptacleKind = { openable: false };

export const RECEPTACLE_KINDS: Readonly<Record<string, ReceptacleKind>> = {
  armchair: surface,
  bathtubbasin: surface,
  bed: surface,
  cabinet: openable,
  cart: surface,
  coffeemachine: surface,
  coffeetable: surface,
  countertop: surface,
  desk: surface,
  diningtable: surface,
  drawer: openable,
  dresser: surface,
  fridge: openable,
  garbagecan: surface,
  handtowelholder: surface,
  laundryhamper: surface,
  microwave: openable,
  ottoman: surface,
  safe: openable,
  shelf: surface,
  sidetable: surface,
  sinkbasin: surface,
  sofa: surface,
  stoveburner: surface,
  toaster: surface,
  toilet: surface,
  toiletpaperhanger: surface,
  towelholder: surface,
  tvstand: surface,
};

/**
 * The preposition a skill puts before a receptacle of this type ("a mug was in a cabinet", "on a countertop"):
 * "in" an openable receptacle, a basin or the garbage can, "on" every other surface.
 */
export function receptaclePrep(type: string): 'in' | 'on' {
  return RECEPTACLE_KINDS[type]?.openable || type.endsWith('basin') || type === 'garbagecan' ? 'in' : 'on';
}

/** The receptacle type that performs each state change. */
export const APPLIANCE = { heat: 'microwave', cool: 'fridge', clean: 'sinkbasin' } as const;

export const LAMP_TYPES = ['desklamp', 'floorlamp'] as const;
export type LampType = (typeof LAMP_TYPES)[number];

/** Instance numbers run from 1 to this (the vocabulary holds each number as a word). */
export const MAX_INSTANCE_NUMBER = 30;

export function isObjectType(type: string): boolean {
  return Object.hasOwn(OBJECT_KINDS, type);
}

export function isReceptacleType(type: string): boolean {
  return Object.hasOwn(RECEPTACLE_KINDS, type);
}

/** "cabinet 12" -> { type: "cabinet", number: 12 }; null when the name is not "<letters> <number>". */
export function parseName(name: string): { type: string; number: number } | null {
  const m = /^([a-z]+) ([1-9][0-9]*)$/.exec(name);
  return m ? { type: m[1], number: Number(m[2]) } : null;
}

export function typeOf(name: string): string {
  return name.slice(0, name.lastIndexOf(' '));
}

export function numberOf(name: string): number {
  return Number(name.slice(name.lastIndexOf(' ') + 1));
}

/**
 * ALFWorld's listing order: alphabetical by type, and within a type by number, highest first
 * ("a cabinet 10, a cabinet 9, ..., a cabinet 1"). A type that is a prefix of another comes first.
 */
export function compareListing(a: string, b: string): number {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return numberOf(b) - numberOf(a);
}

// What each of ALFWorld's four room kinds holds: its receptacle types (always there, the numbered storage
// type whose count tells training rooms from unseen rooms, and optional ones), the object types that appear
// in it with where each is found, and the task types the room supports (heating and cooling need a kitchen,
// cleaning a sinkbasin, looking under a lamp a bedroom or living room, as in ALFWorld).
//
// Where an object is found follows a prior per object type, as in ALFRED's scenes, whose placements are far
// from uniform (apples in the fridge or on the counter, mugs in cabinets or the coffee machine, pillows on
// the bed): each receptacle type it can be in has a weight, one or two types carry most of it, and every
// other type of its list keeps weight 1. A game draws the receptacle type by weight among those present in
// its room (a missing type's share goes to the others), then the instance uniformly. Placements stay random
// per game and hidden until observed, but a fact learnt in one game ("the mug was in a cabinet") is likely
// to hold in the next. docs/environment.md, "Where objects are", explains the choice.
import type { LampType } from './knowledge.ts';
import type { RoomKind } from './scene.ts';
import type { TaskType } from './text.ts';

/** Receptacle type -> weight of finding an object type there (positive; absent types cannot hold it). */
export type Placement = Readonly<Record<string, number>>;

interface RoomSpec {
  /** Types every room of this kind has (one instance each, more for `multi` types at larger scales). */
  required: string[];
  /** The numbered storage type (cabinet, drawer, shelf); its count separates train and unseen layouts. */
  storage: string;
  /** Types a room of this kind may have. */
  optional: string[];
  /** Types that may have several instances (countertop 1..3, stoveburner 1..4). */
  multi: string[];
  /** Object type -> where it is found (also the places a task may ask it to be put), with the prior's weights. */
  objects: Record<string, Placement>;
  /** Where lamps stand, and which lamp types occur. */
  lampHolders: string[];
  lamps: LampType[];
  tasks: TaskType[];
}

/** Weight 1 for every type of `where`, the favoured types' weights as given (each must be one of `where`). */
function prior(where: readonly string[], favoured: Readonly<Record<string, number>> = {}): Placement {
  for (const type of Object.keys(favoured)) {
    if (!where.includes(type)) throw new Error(`room table: favoured type ${type} is not in [${where.join(', ')}]`);
  }
  return Object.fromEntries(where.map((type) => [type, favoured[type] ?? 1]));
}

/** The receptacle types an object type can be in. */
export function placesOf(placement: Placement): string[] {
  return Object.keys(placement);
}

const FOOD = ['countertop', 'diningtable', 'fridge', 'microwave', 'garbagecan', 'sinkbasin'];
const DISH = ['countertop', 'diningtable', 'cabinet', 'shelf', 'fridge', 'microwave', 'sinkbasin'];
const COOKWARE = ['stoveburner', 'countertop', 'diningtable', 'cabinet', 'sinkbasin', 'fridge'];
const UTENSIL = ['countertop', 'diningtable', 'drawer', 'sinkbasin'];
const KITCHEN_MISC = ['countertop', 'diningtable', 'cabinet', 'shelf', 'drawer'];

const BEDROOM_SMALL = ['desk', 'sidetable', 'dresser', 'drawer', 'shelf', 'bed', 'safe'];
const BEDROOM_LARGE = ['desk', 'sidetable', 'dresser', 'bed', 'shelf', 'armchair'];
const LIVING_SMALL = [
  'coffeetable',
  'sidetable',
  'shelf',
  'drawer',
  'dresser',
  'tvstand',
  'sofa',
  'armchair',
  'cabinet',
];
const LIVING_LARGE = ['sofa', 'armchair', 'coffeetable', 'sidetable', 'diningtable', 'tvstand', 'shelf'];

export const ROOMS: Readonly<Record<RoomKind, RoomSpec>> = {
  kitchen: {
    required: ['fridge', 'microwave', 'sinkbasin', 'countertop'],
    storage: 'cabinet',
    optional: ['diningtable', 'drawer', 'stoveburner', 'garbagecan', 'shelf', 'coffeemachine', 'toaster'],
    multi: ['countertop', 'drawer', 'stoveburner', 'shelf'],
    objects: {
      apple: prior(FOOD, { fridge: 6, countertop: 2, diningtable: 2 }),
      bread: prior(['countertop', 'diningtable', 'fridge', 'microwave', 'garbagecan'], {
        countertop: 6,
        diningtable: 3,
      }),
      egg: prior(FOOD, { fridge: 7, countertop: 2 }),
      potato: prior(FOOD, { countertop: 5, fridge: 3, diningtable: 2 }),
      tomato: prior(FOOD, { diningtable: 5, countertop: 3, fridge: 2 }),
      lettuce: prior(['countertop', 'diningtable', 'fridge', 'garbagecan', 'sinkbasin'], { fridge: 6, countertop: 2 }),
      mug: prior([...DISH, 'coffeemachine'], { cabinet: 5, coffeemachine: 4, countertop: 2 }),
      cup: prior([...DISH, 'coffeemachine'], { cabinet: 5, countertop: 3, diningtable: 2 }),
      plate: prior(DISH, { cabinet: 6, diningtable: 2, countertop: 2 }),
      bowl: prior(DISH, { cabinet: 5, shelf: 3, countertop: 2 }),
      pan: prior(COOKWARE, { stoveburner: 6, cabinet: 3, countertop: 2 }),
      pot: prior(COOKWARE, { stoveburner: 5, cabinet: 4, countertop: 2 }),
      kettle: prior(['stoveburner', 'countertop', 'diningtable', 'cabinet', 'sinkbasin'], {
        stoveburner: 6,
        countertop: 2,
        cabinet: 2,
      }),
      knife: prior(UTENSIL, { countertop: 5, diningtable: 2, drawer: 2 }),
      butterknife: prior(UTENSIL, { drawer: 5, countertop: 2, diningtable: 2 }),
      fork: prior(UTENSIL, { drawer: 6, diningtable: 2 }),
      spoon: prior(UTENSIL, { drawer: 5, sinkbasin: 2, countertop: 2 }),
      spatula: prior(UTENSIL, { countertop: 4, drawer: 4 }),
      ladle: prior(UTENSIL, { drawer: 4, countertop: 3, diningtable: 2 }),
      dishsponge: prior([...KITCHEN_MISC, 'sinkbasin'], { sinkbasin: 6, countertop: 2 }),
      saltshaker: prior(KITCHEN_MISC, { shelf: 4, countertop: 3, cabinet: 2 }),
      peppershaker: prior(KITCHEN_MISC, { countertop: 4, cabinet: 3, shelf: 2 }),
      soapbottle: prior([...KITCHEN_MISC, 'garbagecan'], { countertop: 4, cabinet: 3 }),
      winebottle: prior(['countertop', 'diningtable', 'cabinet', 'fridge', 'shelf', 'garbagecan'], {
        cabinet: 4,
        fridge: 3,
        countertop: 2,
      }),
      glassbottle: prior(['countertop', 'diningtable', 'cabinet', 'fridge', 'garbagecan'], {
        fridge: 4,
        countertop: 3,
        cabinet: 2,
      }),
      papertowelroll: prior(['countertop', 'diningtable', 'cabinet', 'garbagecan'], {
        countertop: 5,
        diningtable: 2,
        cabinet: 2,
      }),
    },
    lampHolders: [],
    lamps: [],
    tasks: [
      'pick_and_place_simple',
      'pick_clean_then_place_in_recep',
      'pick_heat_then_place_in_recep',
      'pick_cool_then_place_in_recep',
      'pick_two_obj_and_place',
    ],
  },
  bathroom: {
    required: ['sinkbasin', 'toilet', 'countertop'],
    storage: 'cabinet',
    optional: ['drawer', 'garbagecan', 'towelholder', 'handtowelholder', 'toiletpaperhanger', 'bathtubbasin', 'shelf'],
    multi: ['sinkbasin', 'drawer', 'shelf', 'handtowelholder'],
    objects: {
      soapbar: prior(['countertop', 'sinkbasin', 'bathtubbasin', 'toilet', 'cabinet', 'shelf'], {
        sinkbasin: 4,
        bathtubbasin: 4,
        countertop: 2,
      }),
      soapbottle: prior(['countertop', 'toilet', 'cabinet', 'shelf', 'garbagecan', 'bathtubbasin'], {
        countertop: 5,
        toilet: 3,
        cabinet: 2,
      }),
      spraybottle: prior(['countertop', 'toilet', 'cabinet', 'shelf', 'garbagecan'], {
        toilet: 5,
        cabinet: 3,
        countertop: 2,
      }),
      candle: prior(['countertop', 'toilet', 'cabinet', 'shelf', 'drawer'], { toilet: 4, countertop: 3, cabinet: 2 }),
      cloth: prior(['countertop', 'cabinet', 'bathtubbasin', 'sinkbasin', 'drawer', 'toilet'], {
        cabinet: 5,
        countertop: 2,
        bathtubbasin: 2,
      }),
      toiletpaper: prior(['toilet', 'toiletpaperhanger', 'countertop', 'cabinet', 'garbagecan', 'shelf'], {
        toiletpaperhanger: 6,
        toilet: 3,
        cabinet: 2,
      }),
      towel: prior(['towelholder', 'countertop', 'cabinet'], { towelholder: 7, cabinet: 2 }),
      handtowel: prior(['handtowelholder', 'countertop', 'cabinet'], { handtowelholder: 7, cabinet: 2 }),
      dishsponge: prior(['countertop', 'cabinet', 'sinkbasin', 'toilet', 'drawer'], {
        cabinet: 4,
        sinkbasin: 3,
        countertop: 2,
      }),
      tissuebox: prior(['countertop', 'toilet', 'shelf', 'cabinet'], { toilet: 4, countertop: 3, shelf: 2 }),
    },
    lampHolders: [],
    lamps: [],
    tasks: ['pick_and_place_simple', 'pick_clean_then_place_in_recep', 'pick_two_obj_and_place'],
  },
  bedroom: {
    required: ['bed', 'sidetable'],
    storage: 'drawer',
    optional: ['desk', 'dresser', 'shelf', 'garbagecan', 'safe', 'laundryhamper', 'armchair'],
    multi: ['sidetable', 'shelf', 'desk'],
    objects: {
      alarmclock: prior(BEDROOM_SMALL, { desk: 5, sidetable: 3, dresser: 2 }),
      book: prior(BEDROOM_SMALL, { bed: 4, desk: 3, shelf: 2 }),
      cd: prior([...BEDROOM_SMALL, 'garbagecan'], { drawer: 4, desk: 3 }),
      cellphone: prior(BEDROOM_SMALL, { bed: 4, sidetable: 3, desk: 2 }),
      creditcard: prior(BEDROOM_SMALL, { drawer: 4, desk: 2, sidetable: 2, safe: 2 }),
      keychain: prior(BEDROOM_SMALL, { sidetable: 4, dresser: 2, drawer: 2, safe: 2 }),
      laptop: prior(BEDROOM_LARGE, { bed: 5, desk: 4 }),
      pen: prior([...BEDROOM_SMALL, 'garbagecan'], { desk: 5, drawer: 2 }),
      pencil: prior([...BEDROOM_SMALL, 'garbagecan'], { desk: 4, drawer: 3 }),
      pillow: prior(['bed', 'armchair'], { bed: 6, armchair: 2 }),
      mug: prior(['desk', 'sidetable', 'dresser', 'shelf'], { desk: 5, sidetable: 2 }),
      bowl: prior(['desk', 'sidetable', 'dresser', 'shelf'], { desk: 3, shelf: 3 }),
      baseballbat: prior(['bed', 'desk', 'armchair'], { bed: 4, armchair: 2 }),
      basketball: prior(['bed', 'armchair', 'desk'], { bed: 4, armchair: 2 }),
      teddybear: prior(['bed', 'dresser', 'armchair', 'shelf'], { bed: 5, armchair: 2 }),
      tennisracket: prior(['bed', 'desk', 'armchair'], { bed: 3, desk: 2, armchair: 2 }),
      cloth: prior(['laundryhamper', 'bed', 'dresser', 'drawer'], { laundryhamper: 5, bed: 2, dresser: 2, drawer: 2 }),
      statue: prior(['desk', 'sidetable', 'dresser', 'shelf'], { shelf: 4, dresser: 3, desk: 2 }),
      vase: prior(['desk', 'sidetable', 'dresser', 'shelf'], { shelf: 4, desk: 2, dresser: 2, sidetable: 2 }),
      watch: prior(BEDROOM_SMALL, { dresser: 4, sidetable: 3, desk: 2, drawer: 2 }),
    },
    lampHolders: ['sidetable', 'desk', 'dresser'],
    lamps: ['desklamp', 'floorlamp'],
    tasks: ['pick_and_place_simple', 'look_at_obj_in_light', 'pick_two_obj_and_place'],
  },
  livingroom: {
    required: ['sofa', 'sidetable'],
    storage: 'shelf',
    optional: [
      'armchair',
      'coffeetable',
      'diningtable',
      'drawer',
      'dresser',
      'garbagecan',
      'ottoman',
      'tvstand',
      'cabinet',
    ],
    multi: ['sidetable', 'drawer', 'armchair', 'cabinet'],
    objects: {
      remotecontrol: prior([...LIVING_SMALL, 'ottoman'], {
        coffeetable: 5,
        sofa: 3,
        armchair: 2,
        sidetable: 2,
        tvstand: 2,
      }),
      newspaper: prior(['coffeetable', 'sofa', 'armchair', 'sidetable', 'diningtable', 'ottoman', 'garbagecan'], {
        coffeetable: 4,
        sofa: 3,
        armchair: 2,
      }),
      box: prior(LIVING_LARGE, { coffeetable: 3, diningtable: 2, sofa: 2, shelf: 2 }),
      keychain: prior(LIVING_SMALL, { coffeetable: 3, sidetable: 3, drawer: 3 }),
      creditcard: prior(LIVING_SMALL, { coffeetable: 3, sofa: 2, sidetable: 2, armchair: 2, drawer: 2 }),
      laptop: prior(LIVING_LARGE, { sofa: 4, coffeetable: 3, diningtable: 2 }),
      pillow: prior(['sofa', 'armchair', 'ottoman'], { sofa: 6, armchair: 3 }),
      statue: prior(LIVING_SMALL, { shelf: 4, coffeetable: 2, sidetable: 2, tvstand: 2 }),
      vase: prior(LIVING_SMALL, { shelf: 4, sidetable: 2, coffeetable: 2 }),
      watch: prior(LIVING_SMALL, { sidetable: 3, coffeetable: 3, drawer: 2 }),
      tissuebox: prior(LIVING_SMALL, { coffeetable: 3, sidetable: 3, shelf: 2 }),
      plate: prior(['coffeetable', 'diningtable', 'sidetable', 'shelf', 'cabinet'], { diningtable: 5, coffeetable: 2 }),
      wateringcan: prior(['shelf', 'sidetable', 'diningtable', 'tvstand'], { shelf: 3, sidetable: 2 }),
      book: prior(LIVING_SMALL, { shelf: 5, coffeetable: 2, sidetable: 2 }),
      cellphone: prior(LIVING_SMALL, { sofa: 4, coffeetable: 3, sidetable: 2, armchair: 2 }),
    },
    lampHolders: ['sidetable', 'coffeetable', 'dresser'],
    lamps: ['desklamp', 'floorlamp'],
    tasks: ['pick_and_place_simple', 'look_at_obj_in_light', 'pick_two_obj_and_place'],
  },
};

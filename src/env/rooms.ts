// What each of ALFWorld's four room kinds holds: its receptacle types (always there, the numbered storage
// type whose count tells training rooms from unseen rooms, and optional ones), the object types that appear
// in it with the receptacle types each may be found in (also the places a task may ask it to be put), and
// the task types the room supports (heating and cooling need a kitchen, cleaning a sinkbasin, looking under
// a lamp a bedroom or living room, as in ALFWorld).
import type { LampType } from './knowledge.ts';
import type { RoomKind } from './scene.ts';
import type { TaskType } from './text.ts';

export interface RoomSpec {
  /** Types every room of this kind has (one instance each, more for `multi` types at larger scales). */
  required: string[];
  /** The numbered storage type (cabinet, drawer, shelf); its count separates train and unseen layouts. */
  storage: string;
  /** Types a room of this kind may have. */
  optional: string[];
  /** Types that may have several instances (countertop 1..3, stoveburner 1..4). */
  multi: string[];
  /** Object type -> receptacle types it can be found in, and put in. */
  objects: Record<string, string[]>;
  /** Where lamps stand, and which lamp types occur. */
  lampHolders: string[];
  lamps: LampType[];
  tasks: TaskType[];
}

const FOOD = ['countertop', 'diningtable', 'fridge', 'microwave', 'garbagecan', 'sinkbasin'];
const DISH = ['countertop', 'diningtable', 'cabinet', 'shelf', 'fridge', 'microwave', 'sinkbasin'];
const COOKWARE = ['stoveburner', 'countertop', 'diningtable', 'cabinet', 'sinkbasin', 'fridge'];
const UTENSIL = ['countertop', 'diningtable', 'drawer', 'sinkbasin'];
const KITCHEN_MISC = ['countertop', 'diningtable', 'cabinet', 'shelf', 'drawer'];

const BEDROOM_SMALL = ['desk', 'sidetable', 'dresser', 'drawer', 'shelf', 'bed', 'safe'];
const BEDROOM_LARGE = ['desk', 'sidetable', 'dresser', 'bed', 'shelf', 'armchair'];
const LIVING_SMALL = ['coffeetable', 'sidetable', 'shelf', 'drawer', 'dresser', 'tvstand', 'sofa', 'armchair', 'cabinet'];
const LIVING_LARGE = ['sofa', 'armchair', 'coffeetable', 'sidetable', 'diningtable', 'tvstand', 'shelf'];

export const ROOMS: Readonly<Record<RoomKind, RoomSpec>> = {
  kitchen: {
    required: ['fridge', 'microwave', 'sinkbasin', 'countertop'],
    storage: 'cabinet',
    optional: ['diningtable', 'drawer', 'stoveburner', 'garbagecan', 'shelf', 'coffeemachine', 'toaster'],
    multi: ['countertop', 'drawer', 'stoveburner', 'shelf'],
    objects: {
      apple: FOOD,
      bread: ['countertop', 'diningtable', 'fridge', 'microwave', 'garbagecan'],
      egg: FOOD,
      potato: FOOD,
      tomato: FOOD,
      lettuce: ['countertop', 'diningtable', 'fridge', 'garbagecan', 'sinkbasin'],
      mug: [...DISH, 'coffeemachine'],
      cup: [...DISH, 'coffeemachine'],
      plate: DISH,
      bowl: DISH,
      pan: COOKWARE,
      pot: COOKWARE,
      kettle: ['stoveburner', 'countertop', 'diningtable', 'cabinet', 'sinkbasin'],
      knife: UTENSIL,
      butterknife: UTENSIL,
      fork: UTENSIL,
      spoon: UTENSIL,
      spatula: UTENSIL,
      ladle: UTENSIL,
      dishsponge: [...KITCHEN_MISC, 'sinkbasin'],
      saltshaker: KITCHEN_MISC,
      peppershaker: KITCHEN_MISC,
      soapbottle: [...KITCHEN_MISC, 'garbagecan'],
      winebottle: ['countertop', 'diningtable', 'cabinet', 'fridge', 'shelf', 'garbagecan'],
      glassbottle: ['countertop', 'diningtable', 'cabinet', 'fridge', 'garbagecan'],
      papertowelroll: ['countertop', 'diningtable', 'cabinet', 'garbagecan'],
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
      soapbar: ['countertop', 'sinkbasin', 'bathtubbasin', 'toilet', 'cabinet', 'shelf'],
      soapbottle: ['countertop', 'toilet', 'cabinet', 'shelf', 'garbagecan', 'bathtubbasin'],
      spraybottle: ['countertop', 'toilet', 'cabinet', 'shelf', 'garbagecan'],
      candle: ['countertop', 'toilet', 'cabinet', 'shelf', 'drawer'],
      cloth: ['countertop', 'cabinet', 'bathtubbasin', 'sinkbasin', 'drawer', 'toilet'],
      toiletpaper: ['toilet', 'toiletpaperhanger', 'countertop', 'cabinet', 'garbagecan', 'shelf'],
      towel: ['towelholder', 'countertop', 'cabinet'],
      handtowel: ['handtowelholder', 'countertop', 'cabinet'],
      dishsponge: ['countertop', 'cabinet', 'sinkbasin', 'toilet', 'drawer'],
      tissuebox: ['countertop', 'toilet', 'shelf', 'cabinet'],
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
      alarmclock: BEDROOM_SMALL,
      book: BEDROOM_SMALL,
      cd: [...BEDROOM_SMALL, 'garbagecan'],
      cellphone: BEDROOM_SMALL,
      creditcard: BEDROOM_SMALL,
      keychain: BEDROOM_SMALL,
      laptop: BEDROOM_LARGE,
      pen: [...BEDROOM_SMALL, 'garbagecan'],
      pencil: [...BEDROOM_SMALL, 'garbagecan'],
      pillow: ['bed', 'armchair'],
      mug: ['desk', 'sidetable', 'dresser', 'shelf'],
      bowl: ['desk', 'sidetable', 'dresser', 'shelf'],
      baseballbat: ['bed', 'desk', 'armchair'],
      basketball: ['bed', 'armchair', 'desk'],
      teddybear: ['bed', 'dresser', 'armchair', 'shelf'],
      tennisracket: ['bed', 'desk', 'armchair'],
      cloth: ['laundryhamper', 'bed', 'dresser', 'drawer'],
      statue: ['desk', 'sidetable', 'dresser', 'shelf'],
      vase: ['desk', 'sidetable', 'dresser', 'shelf'],
      watch: BEDROOM_SMALL,
    },
    lampHolders: ['sidetable', 'desk', 'dresser'],
    lamps: ['desklamp', 'floorlamp'],
    tasks: ['pick_and_place_simple', 'look_at_obj_in_light', 'pick_two_obj_and_place'],
  },
  livingroom: {
    required: ['sofa', 'sidetable'],
    storage: 'shelf',
    optional: ['armchair', 'coffeetable', 'diningtable', 'drawer', 'dresser', 'garbagecan', 'ottoman', 'tvstand', 'cabinet'],
    multi: ['sidetable', 'drawer', 'armchair', 'cabinet'],
    objects: {
      remotecontrol: [...LIVING_SMALL, 'ottoman'],
      newspaper: ['coffeetable', 'sofa', 'armchair', 'sidetable', 'diningtable', 'ottoman', 'garbagecan'],
      box: LIVING_LARGE,
      keychain: LIVING_SMALL,
      creditcard: LIVING_SMALL,
      laptop: LIVING_LARGE,
      pillow: ['sofa', 'armchair', 'ottoman'],
      statue: LIVING_SMALL,
      vase: LIVING_SMALL,
      watch: LIVING_SMALL,
      tissuebox: LIVING_SMALL,
      plate: ['coffeetable', 'diningtable', 'sidetable', 'shelf', 'cabinet'],
      wateringcan: ['shelf', 'sidetable', 'diningtable', 'tvstand'],
      book: LIVING_SMALL,
      cellphone: LIVING_SMALL,
    },
    lampHolders: ['sidetable', 'coffeetable', 'dresser'],
    lamps: ['desklamp', 'floorlamp'],
    tasks: ['pick_and_place_simple', 'look_at_obj_in_light', 'pick_two_obj_and_place'],
  },
};

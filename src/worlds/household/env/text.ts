// Every sentence the household prints, in ALFWorld's words (alfred.twl2 grammar, ReAct-era engine), and the
// goal sentences of the six task types. The vocabulary is derived from the templates in this file.

export const TASK_TYPES = [
  'pick_and_place_simple',
  'look_at_obj_in_light',
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_two_obj_and_place',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** ALFWorld's goal sentences; {obj} is an object type, {recep} a receptacle type, {lamp} a lamp type. */
export const GOAL_TEMPLATES: Readonly<Record<TaskType, readonly string[]>> = {
  pick_and_place_simple: [
    'put a {obj} in {recep}',
    'put some {obj} on {recep}',
    'find some {obj} and put it in {recep}',
  ],
  look_at_obj_in_light: ['look at {obj} under the {lamp}', 'examine the {obj} with the {lamp}'],
  pick_clean_then_place_in_recep: ['put a clean {obj} in {recep}', 'clean some {obj} and put it in {recep}'],
  pick_heat_then_place_in_recep: ['put a hot {obj} in {recep}', 'heat some {obj} and put it in {recep}'],
  pick_cool_then_place_in_recep: ['put a cool {obj} in {recep}', 'cool some {obj} and put it in {recep}'],
  pick_two_obj_and_place: ['put two {obj} in {recep}', 'find two {obj} and put them in {recep}'],
};

export function fillGoal(template: string, obj: string, place: string): string {
  return template.replace('{obj}', obj).replace('{recep}', place).replace('{lamp}', place);
}

export const NOTHING_HAPPENS = 'Nothing happens.';
export const BANNER = '-= Welcome to TextWorld, ALFRED! =-';
/** What the opening's last line starts with, before the goal. */
export const TASK_LINE = 'Your task is to:';

/** "a X", "a X, and a Y", "a X, a Y, and a Z"; "nothing" for none (ALFWorld's article is always "a"). */
function listItems(names: readonly string[]): string {
  if (names.length === 0) return 'nothing';
  if (names.length === 1) return `a ${names[0]}`;
  let out = '';
  for (let i = 0; i < names.length - 1; i++) out += `a ${names[i]}, `;
  return `${out}and a ${names[names.length - 1]}`;
}

function roomLine(receptacles: readonly string[]): string {
  return `You are in the middle of a room. Looking quickly around you, you see ${listItems(receptacles)}.`;
}

export function introText(receptacles: readonly string[], goal: string): string {
  return `${BANNER}\n\n${roomLine(receptacles)}\n\n${TASK_LINE} ${goal}.`;
}

export const say = {
  arrive: (r: string) => `You arrive at ${r}.`,
  onTop: (r: string, items: readonly string[]) => `On the ${r}, you see ${listItems(items)}.`,
  closed: (r: string) => `The ${r} is closed.`,
  openView: (r: string, items: readonly string[]) => `The ${r} is open. In it, you see ${listItems(items)}.`,
  open: (r: string) => `You open the ${r}.`,
  close: (r: string) => `You close the ${r}.`,
  take: (o: string, r: string) => `You pick up the ${o} from the ${r}.`,
  put: (o: string, r: string) => `You put the ${o} in/on the ${r}.`,
  heat: (o: string, r: string) => `You heat the ${o} using the ${r}.`,
  cool: (o: string, r: string) => `You cool the ${o} using the ${r}.`,
  clean: (o: string, r: string) => `You clean the ${o} using the ${r}.`,
  turnOn: (o: string) => `You turn on the ${o}.`,
  turnOff: (o: string) => `You turn off the ${o}.`,
  hotThing: (o: string) => `This is a hot ${o}.`,
  coldThing: (o: string) => `This is a cold ${o}.`,
  cleanThing: (o: string) => `This is a clean ${o}.`,
  plainThing: (o: string) => `There's nothing special about ${o}.`,
  carrying: (o: string) => `You are carrying: a ${o}.`,
  carryingNothing: () => 'You are not carrying anything.',
  facing: (r: string) => `You are facing the ${r}. Next to it, you see nothing.`,
  // ALFWorld's `look` in the middle of the room does not repeat the receptacle list of the opening.
  middle: () => 'You are in the middle of a room. Looking quickly around you, you see nothing.',
};

/** The command templates; {o} an object, {r} a receptacle. */
const COMMAND_TEMPLATES = [
  'go to {r}',
  'open {r}',
  'close {r}',
  'take {o} from {r}',
  'put {o} in/on {r}',
  'heat {o} with {r}',
  'cool {o} with {r}',
  'clean {o} with {r}',
  'use {o}',
  'examine {o}',
  'examine {r}',
  'inventory',
  'look',
] as const;

/** Every fixed sentence and template above with its name slots filled by "x 1", for the vocabulary. */
export function allTemplateTexts(): string[] {
  const n = 'x 1';
  const texts = [
    NOTHING_HAPPENS,
    introText([n, n], 'x'),
    ...[say.arrive, say.closed, say.open, say.close, say.turnOn, say.turnOff].map((f) => f(n)),
    ...[say.hotThing, say.coldThing, say.cleanThing, say.plainThing, say.carrying, say.facing].map((f) => f(n)),
    ...[say.take, say.put, say.heat, say.cool, say.clean].map((f) => f(n, n)),
    say.onTop(n, [n, n]),
    say.openView(n, [n, n]),
    say.onTop(n, []),
    say.carryingNothing(),
    say.middle(),
  ];
  for (const templates of Object.values(GOAL_TEMPLATES)) for (const t of templates) texts.push(fillGoal(t, 'x', 'x'));
  for (const t of COMMAND_TEMPLATES) texts.push(t.replaceAll('{o}', n).replaceAll('{r}', n));
  return texts;
}

// Replaying real ALFWorld episodes (testdata/alfworld-transcripts, see its README): a scene is rebuilt from
// what each transcript reveals, its commands are played, and every observation is compared with the
// engine's text, up to the arrival prefix ("You arrive at loc N. " was stripped by ReAct and Reflexion, and
// ALFWorld 0.3 named a location number where this environment names the receptacle).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Game } from './game.ts';
import { LAMP_TYPES, isReceptacleType, typeOf } from './knowledge.ts';
import { goalsFor, sceneFromJson, type Scene } from './scene.ts';
import { TASK_TYPES, type TaskType } from './text.ts';

interface TranscriptStep {
  action: string;
  observation: string;
  arrive_prefix_stripped?: boolean;
  engine_consistent?: boolean;
  engine_text?: boolean;
  note?: string;
}

export interface Transcript {
  file: string;
  task_type: TaskType;
  goal: string;
  intro: string;
  intro_engine_form?: string;
  receptacles: string[];
  known_contents: Record<string, string[]>;
  closed_at_start: string[];
  steps: TranscriptStep[];
  success: boolean;
  observation_form: 'react_processed' | 'raw_engine';
}

export interface Comparison {
  file: string;
  /** 0 is the opening observation; i >= 1 is steps[i - 1]. */
  step: number;
  action: string;
  expected: string;
  actual: string;
  match: boolean;
  /** The transcript marks this step as hand-edited or not engine text. */
  flagged: boolean;
  /** The action was among the admissible commands of the state it was played in (false for step 0). */
  admissible: boolean;
}

/** The transcripts kept in the repository, with their sources and licence (README.md there). */
const TRANSCRIPT_DIR = fileURLToPath(new URL('./testdata/alfworld-transcripts/', import.meta.url));

export function loadTranscripts(): Transcript[] {
  const files = readdirSync(TRANSCRIPT_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files.map((file) => ({
    ...(JSON.parse(readFileSync(join(TRANSCRIPT_DIR, file), 'utf8')) as Omit<Transcript, 'file'>),
    file,
  }));
}

/** The task's object and target (or lamp), read back from the goal sentence with the type's templates. */
function taskFromGoal(type: TaskType, goal: string): { object: string; place: string } {
  const words = goal.split(' ');
  for (const object of new Set(words)) {
    for (const place of new Set(words)) {
      const isPlace =
        type === 'look_at_obj_in_light' ? (LAMP_TYPES as readonly string[]).includes(place) : isReceptacleType(place);
      if (isPlace && goalsFor(type, object, place).includes(goal)) return { object, place };
    }
  }
  throw new Error(`goal "${goal}" does not fit ${type}`);
}

function roomOf(receptacles: string[]): string {
  const types = new Set(receptacles.map(typeOf));
  if (types.has('fridge') || types.has('microwave')) return 'kitchen';
  if (types.has('toilet')) return 'bathroom';
  if (types.has('bed')) return 'bedroom';
  return 'livingroom';
}

/**
 * The scene a transcript reveals: its receptacles; the receptacles it saw closed are openable and closed,
 * the others not openable (each was either shown like a table or never visited); the objects it saw.
 */
function sceneFromTranscript(t: Transcript): Scene {
  if (!(TASK_TYPES as readonly string[]).includes(t.task_type))
    throw new Error(`${t.file}: unknown task type ${t.task_type}`);
  const { object, place } = taskFromGoal(t.task_type, t.goal);
  const placeKey = t.task_type === 'look_at_obj_in_light' ? 'lamp' : 'target';
  return sceneFromJson({
    version: 1,
    room: roomOf(t.receptacles),
    receptacles: t.receptacles.map((name) => ({ name, openable: t.closed_at_start.includes(name) })),
    objects: Object.entries(t.known_contents).flatMap(([rec, items]) => items.map((name) => ({ name, in: rec }))),
    task: { type: t.task_type, goal: t.goal, object, [placeKey]: place },
  });
}

/** "You arrive at loc 15. On the ..." and "You arrive at countertop 1. On the ..." -> "On the ...". */
function withoutArrival(text: string): string {
  return text.startsWith('You arrive at ') ? text.slice(text.indexOf('. ') + 2) : text;
}

/** Plays a transcript and compares every observation; the last result tells whether the game was won. */
export function replayTranscript(t: Transcript): { comparisons: Comparison[]; won: boolean } {
  const game = new Game(sceneFromTranscript(t), { maxSteps: t.steps.length + 1 });
  const expectedIntro = t.intro_engine_form ?? t.intro;
  const comparisons: Comparison[] = [
    {
      file: t.file,
      step: 0,
      action: '',
      expected: expectedIntro,
      actual: game.observation,
      match: expectedIntro === game.observation,
      flagged: false,
      admissible: false,
    },
  ];
  t.steps.forEach((s, i) => {
    if (game.done) throw new Error(`${t.file}: the game ended before step ${i + 1}`);
    const admissible = game.admissibleCommands().includes(s.action);
    const raw = game.step(s.action).observation;
    const arrival = s.action.startsWith('go to ');
    const actual = arrival ? withoutArrival(raw) : raw;
    const expected = arrival ? withoutArrival(s.observation) : s.observation;
    const flagged = s.engine_consistent === false || s.engine_text === false;
    comparisons.push({
      file: t.file,
      step: i + 1,
      action: s.action,
      expected,
      actual,
      match: expected === actual,
      flagged,
      admissible,
    });
  });
  return { comparisons, won: game.won };
}

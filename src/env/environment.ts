// One interface for every world the agent can play: what the rollout, the evaluator, the trainer and the command
// line need of a world, so that they never name one. A world's own parts (its rules, scenes, skill grammar and
// annotator) stay in its folder, src/worlds/<world>/; the registry of the worlds' environments is
// src/worlds/environments.ts, their names src/worlds/names.ts.
//
// Scenes are the world's own type (S): a game is a scene played from its opening observation. Splits follow the
// benchmarks' (ALFWorld's, WebShop's, HotpotQA's): train (any index, per run seed), the fixed eval-seen and
// eval-unseen sets, and validation games of each kind: validation (the seen split under its own seed: the teacher
// check's games) and validation-unseen (what training holds out, in clusters that no eval set holds: the games
// settings are chosen on, so that a choice is made for the kind of games the headline reports).
import type { EnvironmentName } from '../worlds/names.ts';
import type { WorldFacts } from './world_facts.ts';

/** The seed every world draws its fixed eval sets with (their first games are the same in every run). */
export const EVAL_SEED = 2026;

/** The splits a world draws its games from: training, and the fixed eval sets' eval-seen and eval-unseen. */
export const SPLITS = ['train', 'seen', 'unseen'] as const;

type EvalSplitName = 'seen' | 'unseen';

/** The fixed sets of games a world plays whole (`eval --split`): the eval sets and the validation games of each kind. */
export const GAME_SETS = ['seen', 'unseen', 'validation', 'validation-unseen'] as const;
export type GameSet = (typeof GAME_SETS)[number];

/** What a step did, as the world reports it. */
export interface StepOutcome {
  observation: string;
  /** The world's reward for the step, as the world pays it (a win's reward, or a graded score at the end). */
  reward: number;
  done: boolean;
  won: boolean;
  /** False when the command was not possible ("Nothing happens."): the state did not change. */
  valid: boolean;
}

/** A step of an episode's record; step 0 is the opening observation (no action). Worlds add their own fields. */
export interface EpisodeStep extends StepOutcome {
  step: number;
  action: string;
}

/** Free text a state also accepts, besides the listed commands: the shop's search bar, "search[" words "]". */
export interface FreeTextCommand {
  /** What the command starts with ("search[") and ends with ("]"). */
  open: string;
  close: string;
  /** Texts whose pieces the free part may use (every piece of them, any order). */
  words: readonly string[];
  /** Word pieces the free part holds at most. */
  maxPieces: number;
}

export interface Episode<R extends EpisodeStep = EpisodeStep> {
  readonly observation: string;
  readonly records: readonly R[];
  readonly done: boolean;
  readonly won: boolean;
  readonly steps: number;
  /** The commands the state lists (ALFWorld's admissible commands, WebShop's clickables). */
  admissibleCommands(): string[];
  /** The free-text command the state takes, or null. */
  freeText(): FreeTextCommand | null;
  step(command: string): StepOutcome;
  /** The expert's command list from the current state to the goal. */
  expertPlan(): string[];
}

export interface Environment<S = unknown, R extends EpisodeStep = EpisodeStep> {
  readonly name: EnvironmentName;
  /** Which form of the world a run plays, as its checkpoint records it: the household's room scale, the shop's catalogue. */
  readonly variant: string;
  /** Commands an episode takes before it is cut, unless a run sets another budget. */
  readonly defaultMaxSteps: number;
  /** The task types success is reported by (the household's six, the shop's categories). */
  readonly taskTypes: readonly string[];
  /**
   * An episode's score in [0, 1] from its records, for a world that grades a result beyond success (the shop:
   * WebShop's reward of the purchase, 0 without one; success is a score of 1); null for a world whose only
   * result is success (the household). Evaluations, curves and reports give a score only where this is set.
   */
  readonly score: ((records: readonly EpisodeStep[]) => number) | null;
  readonly evalCounts: Readonly<Record<EvalSplitName, number>>;
  /** Train game `index` of a run seed: the same index and seed give the same game. */
  trainScene(index: number, seed: number): S;
  /** Game `index` of a split drawn with a seed (the scenes command's view of the generator). */
  sceneOf(split: 'train' | EvalSplitName, index: number, seed: number): S;
  evalScenes(split: EvalSplitName, count?: number): S[];
  /** Validation games of the seen kind (the seen split under a seed of their own), apart from every eval set. */
  validationScenes(count?: number): S[];
  /**
   * Validation games of the unseen kind: what training holds out, none of them in a cluster (clusterOf) of an eval
   * set, a training game or a validation game; null for a world whose held-out clusters are all in eval-unseen.
   */
  readonly validationUnseenScenes: ((count?: number) => S[]) | null;
  episode(scene: S, maxSteps?: number): Episode<R>;
  /** The task sentence the policy reads on its task line. */
  goal(scene: S): string;
  taskType(scene: S): string;
  /** Games that share this id share what the splits hold out (a room layout, a type and attribute combination). */
  clusterOf(scene: S): string;
  sceneToJson(scene: S): string;
  /** The scene a JSON text describes; throws an error naming the field at fault. */
  sceneFromJson(text: string): S;
  /** Every text the world can print or accept: the tokenizer's vocabulary comes from it. */
  texts(): string[];
  /**
   * Why a command typed by a person cannot be played (one line), or null: the shop's search longer than a policy
   * writes. Cheap on any text, so that a caller checks before the world parses it.
   */
  commandRefusal(command: string): string | null;
  /**
   * What a scene's games share and hold in memory while they play (the shop's catalogue and its search index),
   * as a key; absent for a world whose games share nothing large. An evaluation plays games of at most a few
   * such keys at once, so a list of scenes that each name their own large catalogue is never all held together.
   */
  sharedResource?(scene: S): string;
}

/**
 * The games of a fixed set, the first `count` of them (all without it); a set the world lacks is refused with
 * the sets it has.
 */
export function gameSetScenes<S>(env: Environment<S>, set: GameSet, count?: number): S[] {
  const refusal = gameSetRefusal(env, set);
  if (refusal !== null) throw new RangeError(refusal);
  switch (set) {
    case 'seen':
    case 'unseen':
      return env.evalScenes(set, count);
    case 'validation':
      return env.validationScenes(count);
    case 'validation-unseen':
      return env.validationUnseenScenes!(count);
  }
}

/** Why a world cannot play a set of games (one line), or null where it can. */
export function gameSetRefusal(env: Environment<unknown>, set: GameSet): string | null {
  const sets = gameSetsOf(env);
  return sets.includes(set) ? null : `the ${env.name} world has no ${set} games (its game sets: ${sets.join(', ')})`;
}

/** The fixed sets of games a world has. */
export function gameSetsOf(env: Environment<unknown>): GameSet[] {
  return GAME_SETS.filter((set) => set !== 'validation-unseen' || env.validationUnseenScenes !== null);
}

/** What an environment states as its world's facts say it (WorldFacts): its step budget, task types and eval sets. */
export function factsFields(facts: WorldFacts): Pick<Environment, 'defaultMaxSteps' | 'taskTypes' | 'evalCounts'> {
  return { defaultMaxSteps: facts.maxSteps, taskTypes: facts.taskTypes, evalCounts: facts.evalCounts };
}

/** A world's environment at each of its scales, built once per scale: the registries hand out the same one. */
export function onePerScale<K, E>(build: (scale: K) => E): (scale: K) => E {
  const built = new Map<K, E>();
  return (scale) => {
    let env = built.get(scale);
    if (env === undefined) {
      env = build(scale);
      built.set(scale, env);
    }
    return env;
  };
}

// How the arms of `bench learn` relate: which distil (and so have a lambda to choose), which arm each control
// or ablation is compared with and takes its settings from, and each distilling arm's cross-game control. A
// part control (`<arm>-<part>`, rl/config.ts) varies its arm.
import {
  armOf,
  distils,
  partControl,
  partControlTable,
  skillPartOf,
  SKILL_PART_NOTES,
  type Algo,
  type PartControl,
} from '../../../rl/config.ts';

export { distils };

/**
 * The control that gives a distilling arm another game's skill of the same task type (the right kind of
 * advice, the wrong facts): what the arm must beat for the facts of its own game to carry credit.
 */
export const CROSSGAME_CONTROL: Readonly<Partial<Record<Algo, Algo>>> = {
  seed: partControl('seed', 'crossgame'),
  'seed-exact': partControl('seed-exact', 'crossgame'),
};

/**
 * The arm a control or ablation varies: a part control its arm, the paper's seed the exact distillation,
 * every other variant of the paper's loss seed.
 */
export function controlledArm(arm: Algo): Algo {
  if (skillPartOf(arm)) return armOf(arm);
  return arm === 'seed' ? 'seed-exact' : 'seed';
}

/**
 * The main arm whose learning rate and lambda a control or ablation runs at: the arm it varies when that is a
 * main arm, else seed, else the first main arm that distils; null when no main arm distils.
 */
export function settingsSource(arm: Algo, mains: readonly Algo[]): Algo | null {
  const controlled = controlledArm(arm);
  if (mains.includes(controlled)) return controlled;
  if (mains.includes('seed')) return 'seed';
  return mains.find(distils) ?? null;
}

/** What each arm that is no part control is, in one line. */
const OWN_NOTES: Readonly<Record<Exclude<Algo, PartControl>, string>> = {
  grpo: 'GRPO alone: group-relative advantages, no hindsight.',
  seed: "the paper's SEED: GRPO plus the gated one-sample distillation term toward the policy given the trajectory's own hindsight skill.",
  'seed-exact':
    "exact hindsight distillation: at every decision position the student visited, the full-vocabulary divergence (reverse KL, or JSD with jsdAlpha) to the pre-update policy given the trajectory's own hindsight skill.",
  'seed-annotator': "seed distilling from the rule-based annotator's faithful skills.",
  'seed-sibling': "seed with a sibling's skill of the same game (the same facts, another trajectory).",
  'seed-static': 'seed with a library of skills written once by the warm start.',
  opid: 'OPID: the shift Delta added to the advantage, A + opidWeight * Delta, no distillation term.',
  'seed-nogate': 'seed without the gate (g = 1).',
};

/** What each arm is, in one line (the report lists the arms it ran); a part control's from its arm and part. */
export const ARM_NOTES: Readonly<Record<Algo, string>> = {
  ...OWN_NOTES,
  ...partControlTable((arm, part) => `${arm} distilling the teacher given ${SKILL_PART_NOTES[part]}.`),
};

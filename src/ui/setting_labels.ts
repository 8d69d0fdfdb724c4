// What the page calls each setting, algorithm and stage. A training setting's help text is its line in the
// trainer's table (rl/config.ts); the page writes help only for the settings of its own.
import { TRAIN_SETTINGS } from '../rl/config.ts';
import { partControlTable, type PartArm, type PartControl, type SkillPart } from '../rl/arms.ts';
import type { Stage } from '../rl/update_state.ts';
import { PAGE_TRAIN_KEYS, type Algorithm, type PageTrainKey, type Settings } from '../rl/page_settings.ts';
import { factsOf } from '../worlds/facts.ts';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';

const TRAIN_LABELS: Readonly<Record<PageTrainKey, string>> = {
  lambda: 'λ (OPD weight)',
  beta: 'β (gate sharpness)',
  groupSize: 'Group size G',
  tasksPerUpdate: 'Tasks per update',
  lr: 'Learning rate',
  clip: 'Clip ε',
  klCoef: 'KL coefficient',
  temperature: 'Rollout temperature',
  evalTemperature: 'Eval temperature',
  history: 'History length H',
  maxSteps: 'Max steps',
  jsdAlpha: 'JSD α (seed-exact: 0 = reverse KL)',
  advisorAlpha: 'ADVISOR α (seed-exact: 0 = off)',
  rewardDirected: 'Reward-directed (seed-exact: 1 = on)',
};

const PAGE_LABELS: Readonly<Record<Exclude<keyof Settings, PageTrainKey>, { label: string; help: string }>> = {
  env: {
    label: 'World',
    help: `what the agent plays: ${ENVIRONMENT_NAMES.map((name) => factsOf(name).words.plays).join(', or ')}; each world has its own vocabulary and its own defaults, so changing it starts a new run with them`,
  },
  preset: {
    label: 'Model preset',
    help: 'micro: seconds per update anywhere; tiny: the CPU preset; small: a real GPU, from random weights (no warm start ships)',
  },
  algo: { label: 'Algorithm', help: 'what the run trains with' },
  decoding: { label: 'Decoding', help: 'constrained: only admissible commands; free: the paper’s setting' },
  backend: { label: 'Backend', help: 'auto picks what is faster on this machine' },
  seed: { label: 'Seed', help: 'the one seed of the run (tasks, sampling)' },
  speed: { label: 'Speed (updates/s, 0 = max)', help: 'how fast Play runs; 0 runs updates back to back' },
  evalEvery: {
    label: 'Evaluate every N updates',
    help: 'success on eval-seen and eval-unseen at the warm start (update 0), after update 1 and every N updates',
  },
  evalEpisodes: { label: 'Eval games per split', help: 'games of each fixed eval set played per evaluation' },
  checkpointEvery: { label: 'Checkpoint every N updates', help: 'saves the run to this browser (IndexedDB)' },
};

export const SETTING_LABELS: Readonly<Record<keyof Settings, { label: string; help: string }>> = {
  ...(Object.fromEntries(
    PAGE_TRAIN_KEYS.map((k) => [k, { label: TRAIN_LABELS[k], help: TRAIN_SETTINGS[k].doc }]),
  ) as Record<PageTrainKey, { label: string; help: string }>),
  ...PAGE_LABELS,
};

/** How the World setting names each world (WorldFacts.words.label). */
export const WORLD_LABELS: Readonly<Record<Settings['env'], string>> = Object.fromEntries(
  ENVIRONMENT_NAMES.map((name) => [name, factsOf(name).words.label]),
) as Record<Settings['env'], string>;

/** What the teacher is given under each part control, in the algorithm setting's words. */
const PART_LABELS: Readonly<Record<SkillPart, string>> = {
  crossgame: "another game's skill of the same task type",
  procedure: "the skill's procedure, its facts replaced or removed",
  facts: "only the skill's facts",
  empty: 'an empty skill',
  shuffled: "the skill's words shuffled",
  frozen: "its own skill, the teacher's weights frozen at the start",
};

/** An arm with part controls, as its controls' labels name it. */
const PART_ARM_LABELS: Readonly<Record<PartArm, string>> = { seed: 'SEED', 'seed-exact': 'SEED exact' };

export const ALGORITHM_LABELS: Readonly<Record<Algorithm, string>> = {
  seed: 'SEED',
  grpo: 'GRPO',
  both: 'SEED and GRPO side by side',
  'seed-static': 'SEED, static skill library (ablation)',
  'seed-sibling': "SEED, a sibling's skill of the same game (control)",
  'seed-annotator': "SEED, the rule-based annotator's skills (control)",
  opid: 'OPID (Delta added to the advantage)',
  'seed-nogate': 'SEED without the gate (g = 1)',
  'seed-exact': 'SEED, exact distillation: the full-vocabulary KL to the own-skill teacher at every visited position',
  ...partControlTable((arm, part) => `${PART_ARM_LABELS[arm]}, the teacher given ${PART_LABELS[part]} (control)`),
} satisfies Record<Exclude<Algorithm, PartControl>, string>;

/**
 * An arm as the page's words name it: its method in capitals as the paper writes it (GRPO, SEED, OPID), its variant
 * as the command line spells it (SEED-exact-crossgame), so that every sentence writes an arm one way.
 */
export function armName(algo: string): string {
  return algo.replace(/^[a-z]+/, (method) => method.toUpperCase());
}

export const STAGE_TITLES: Readonly<Record<Stage, string>> = {
  rollout: '1 Rollout',
  rewards: '2 Rewards and group advantages',
  skills: '3 Hindsight skills',
  rescore: '4 Re-scoring',
  loss: '5 Delta, gate and coefficients',
  optimizer: '6 Gradient and optimizer step',
};

// The arms a run can train, one record each: who writes the trajectory's hindsight skill, which skill the teacher
// reads, whose weights the teacher has, how the skill's shift reaches the gradient (a sampled-token or exact
// distillation term, or the advantage) and whether the gate weighs it. The trainer, the loss, the hindsight stage,
// the SEED trainer's export, saved runs, the benchmark and the page ask this table; no layer branches on an
// algorithm's name. A new control is one line here (a part control: one part of SKILL_PARTS).

/** The algorithms that are not part controls, in the order the page and the command line list them. */
const BASE_ALGOS = [
  'grpo',
  'seed',
  'seed-static',
  'seed-sibling',
  'seed-annotator',
  'opid',
  'seed-nogate',
  'seed-exact',
] as const;
type BaseAlgo = (typeof BASE_ALGOS)[number];

/** The distilling arms that have part controls: the paper's seed and the exact distillation. */
const PART_ARMS = ['seed', 'seed-exact'] as const;
export type PartArm = (typeof PART_ARMS)[number];

/**
 * The one part of what the teacher reads that a part control changes: the skill, as another game's skill
 * (crossgame) or a transform of its own (the world's skillPart, rl_world.ts), or the teacher's weights
 * (frozen: the weights the run started from, never refreshed, with the trajectory's own skill). `<arm>-<part>` is
 * the control, run at the arm's settings; from the same seed its rollouts, rewards and advantages are the arm's.
 */
const SKILL_PARTS = ['crossgame', 'procedure', 'facts', 'empty', 'shuffled', 'frozen'] as const;
export type SkillPart = (typeof SKILL_PARTS)[number];
/** The parts that transform the trajectory's own skill. */
export type SkillTransform = Exclude<SkillPart, 'crossgame' | 'frozen'>;

/** What the teacher re-scores with under each part, in place of the trajectory's own skill (docs/seed-loss.md). */
const SKILL_PART_NOTES: Readonly<Record<SkillPart, string>> = {
  crossgame: "another game's skill of the same task type (the right kind of advice, the wrong facts)",
  procedure: 'its own skill with every instance fact removed or replaced by a placeholder (the procedure alone)',
  facts: 'only the instance facts its own skill states, as sentences (the facts alone)',
  empty: 'an empty skill block: the block as with a skill, no skill words in it',
  shuffled: "its own skill's words in a random order (the words without their order)",
  frozen: 'its own skill, the teacher keeping the weights the run started from (teacherRefresh 0 whatever the setting)',
};

/** The part controls' names: `<arm>-<part>`. */
export type PartControl = `${PartArm}-${SkillPart}`;
export type Algo = BaseAlgo | PartControl;

/** Who writes each trajectory's hindsight skill: nobody, the policy itself (the analyzer) or the rule-based annotator. */
type SkillWriter = 'none' | 'policy' | 'annotator';

/**
 * The skill the teacher reads for a trajectory: none; the one the trajectory wrote; one drawn from a library the
 * warm-start policy wrote once; a sibling's of the same group; another game's of the same task type; a
 * transform of its own.
 */
type TeacherSkill = 'none' | 'own' | 'library' | 'sibling' | 'crossgame' | SkillTransform;

/**
 * How the skill's shift Delta reaches the gradient: not at all; the gated one-sample distillation term (the
 * paper's); the full-vocabulary divergence at every visited position (exact); added to the advantage (OPID).
 */
type ShiftSignal = 'none' | 'sampled' | 'exact' | 'advantage';

export interface ArmRecord {
  readonly algo: Algo;
  /** The arm whose loss and settings it runs with: a part control's arm, every other algorithm itself. */
  readonly arm: BaseAlgo;
  /** The part a part control gives the teacher; null for every other algorithm. */
  readonly part: SkillPart | null;
  readonly writer: SkillWriter;
  readonly teacherSkill: TeacherSkill;
  /** The teacher's weights: those of the update (refreshed as teacherRefresh says), or those the run started from. */
  readonly teacherWeights: 'refreshed' | 'frozen';
  readonly signal: ShiftSignal;
  /**
   * Whether the loss's gate g = sigmoid(beta Delta) is on (false: g = 1); it weighs only a distillation term, and
   * the loss's diagnostics report it whatever the signal.
   */
  readonly gate: boolean;
  /** Whether a second teacher with another game's skill may join at advisorAlpha (exact distillation only). */
  readonly advisor: boolean;
  /**
   * The arm it is compared with as a control or ablation: a part control its arm, the paper's seed the exact
   * distillation, every other variant of the paper's loss seed; null for the baseline.
   */
  readonly varies: Algo | null;
  /** What it is, in one line (reports list the arms they ran). */
  readonly note: string;
}

type OwnRecord = Omit<ArmRecord, 'algo' | 'arm' | 'part'>;

const SEED: OwnRecord = {
  writer: 'policy',
  teacherSkill: 'own',
  teacherWeights: 'refreshed',
  signal: 'sampled',
  gate: true,
  advisor: false,
  varies: 'seed-exact',
  note: "the paper's SEED: GRPO plus the gated one-sample distillation term toward the policy given the trajectory's own hindsight skill.",
};

/** The arms that are no part controls. */
const OWN_RECORDS: Readonly<Record<BaseAlgo, OwnRecord>> = {
  grpo: {
    writer: 'none',
    teacherSkill: 'none',
    teacherWeights: 'refreshed',
    signal: 'none',
    gate: true,
    advisor: false,
    varies: null,
    note: 'GRPO alone: group-relative advantages, no hindsight.',
  },
  seed: SEED,
  'seed-static': {
    ...SEED,
    writer: 'none',
    teacherSkill: 'library',
    varies: 'seed',
    note: 'seed with a library of skills written once by the warm start.',
  },
  'seed-sibling': {
    ...SEED,
    teacherSkill: 'sibling',
    varies: 'seed',
    note: "seed with a sibling's skill of the same game (the same facts, another trajectory).",
  },
  'seed-annotator': {
    ...SEED,
    writer: 'annotator',
    varies: 'seed',
    note: "seed distilling from the rule-based annotator's faithful skills.",
  },
  opid: {
    ...SEED,
    signal: 'advantage',
    varies: 'seed',
    note: 'OPID: the shift Delta added to the advantage, A + opidWeight * Delta, no distillation term.',
  },
  'seed-nogate': { ...SEED, gate: false, varies: 'seed', note: 'seed without the gate (g = 1).' },
  'seed-exact': {
    ...SEED,
    signal: 'exact',
    advisor: true,
    varies: 'seed',
    note: "exact hindsight distillation: at every decision position the student visited, the full-vocabulary divergence (reverse KL, or JSD with jsdAlpha) to the pre-update policy given the trajectory's own hindsight skill.",
  },
};

/** A part control: its arm's record with the teacher's skill or weights changed, and no second teacher. */
function partRecord(arm: PartArm, part: SkillPart): ArmRecord {
  const own = OWN_RECORDS[arm];
  return {
    ...own,
    algo: partControl(arm, part),
    arm,
    part,
    teacherSkill: part === 'frozen' ? own.teacherSkill : part,
    teacherWeights: part === 'frozen' ? 'frozen' : own.teacherWeights,
    advisor: false,
    varies: arm,
    note: `${arm} distilling the teacher given ${SKILL_PART_NOTES[part]}.`,
  };
}

export function isPartArm(algo: Algo): algo is PartArm {
  return (PART_ARMS as readonly string[]).includes(algo);
}

/** The part control of an arm. */
export function partControl(arm: PartArm, part: SkillPart): PartControl {
  return `${arm}-${part}`;
}

/** The entries of a table keyed by algorithm for the part controls, from their arm and part (a colour, a label). */
export function partControlTable<T>(entry: (arm: PartArm, part: SkillPart) => T): Record<PartControl, T> {
  return Object.fromEntries(
    PART_ARMS.flatMap((arm) => SKILL_PARTS.map((part) => [partControl(arm, part), entry(arm, part)])),
  ) as Record<PartControl, T>;
}

/** Every algorithm: each arm with part controls followed by its controls, in the order of SKILL_PARTS. */
export const ALGOS: readonly Algo[] = BASE_ALGOS.flatMap((algo): Algo[] =>
  isPartArm(algo) ? [algo, ...SKILL_PARTS.map((part) => partControl(algo, part))] : [algo],
);

/** The record of every algorithm. */
export const ARMS: Readonly<Record<Algo, ArmRecord>> = {
  ...(Object.fromEntries(
    BASE_ALGOS.map((algo) => [algo, { ...OWN_RECORDS[algo], algo, arm: algo, part: null }]),
  ) as Record<BaseAlgo, ArmRecord>),
  ...partControlTable(partRecord),
};

/** The arm every other is measured against: it reads no skill and distils nothing. */
export const BASELINE: Algo = 'grpo';

/** Whether an algorithm is the baseline. */
export const isBaseline = (algo: string): boolean => algo === BASELINE;

/** The arm an algorithm runs as (its loss, its settings): a part control's arm, any other algorithm itself. */
export function armOf(algo: Algo): BaseAlgo {
  return ARMS[algo].arm;
}

/** The part a part control gives the teacher; null for every other algorithm. */
export function skillPartOf(algo: Algo): SkillPart | null {
  return ARMS[algo].part;
}

/** Whether an algorithm has a distillation term weighted by lambda. */
export function distils(algo: Algo): boolean {
  const { signal } = ARMS[algo];
  return signal === 'sampled' || signal === 'exact';
}

/** Whether the skill's shift enters the advantage, weighed by the opidWeight setting (OPID). */
export function usesOpidWeight(algo: Algo): boolean {
  return ARMS[algo].signal === 'advantage';
}

/** The algorithms that distil the skill-conditioned teacher exactly, over the whole vocabulary (docs/seed-loss.md). */
export function isExactAlgo(algo: Algo): boolean {
  return ARMS[algo].signal === 'exact';
}

/** Whether a trajectory's teacher reads a skill at all (every algorithm but the baseline). */
export function readsSkills(algo: Algo): boolean {
  return ARMS[algo].teacherSkill !== 'none';
}

/** K of the teacher refreshed every K updates (teacher_weights.ts): the setting's, or 0 for a frozen teacher. */
export function teacherRefreshOf(algo: Algo, config: { readonly teacherRefresh: number }): number {
  return ARMS[algo].teacherWeights === 'frozen' ? 0 : config.teacherRefresh;
}

/**
 * Whether the rule-based annotator writes the skills of a run of `algo` (and those of its teacher check): its
 * arm says so, or annotatorSkills = 1 hands every skill to it.
 */
export function annotatorWrites(algo: Algo, config: { readonly annotatorSkills: number }): boolean {
  return ARMS[algo].writer === 'annotator' || config.annotatorSkills === 1;
}

/** A filter of records (runs, results, rows) by their algorithm. */
export const ofAlgo =
  (algo: string) =>
  (r: { readonly algo: string }): boolean =>
    r.algo === algo;

export function isAlgo(name: string): name is Algo {
  return (ALGOS as readonly string[]).includes(name);
}

/**
 * Former names of algorithms, which saved runs, links and scripts may still hold: each is read as its
 * algorithm of today, and whoever reads one says so (a notice on the page, a line on stderr). None is read
 * today: seed-sibling's former name, seed-shuffled, names seed's shuffled-words control now.
 */
const FORMER_ALGO_NAMES: Readonly<Record<string, Algo>> = {};

/** The algorithm's name of today for a former name; any other name unchanged. */
export function currentAlgoName(name: string): string {
  return Object.hasOwn(FORMER_ALGO_NAMES, name) ? FORMER_ALGO_NAMES[name] : name;
}

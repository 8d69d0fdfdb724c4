// The range of every number a CLI option takes, in one table: a value outside it is refused in one line
// naming the option, before anything is allocated or written. The maxima are far above anything a run of
// this project uses; they exist so that a mistyped count (1e12 scenes, games or steps) is refused at once
// instead of filling a disk or the memory. A command's declaration of its options (help.ts) names the range
// of each, and its usage line and --help show them.
// The training settings of `--set key=value` have their ranges in src/rl/config.ts.

export interface Limit {
  /** Counts take whole numbers only. */
  integer: boolean;
  min: number;
  max: number;
  /** The minimum itself is refused (a learning rate must be above 0). */
  aboveMin?: boolean;
  /** The maximum itself is refused. */
  belowMax?: boolean;
}

const count = (min: number, max: number): Limit => ({ integer: true, min, max });
const real = (min: number, max: number, open: { aboveMin?: boolean; belowMax?: boolean } = {}): Limit => ({
  integer: false,
  min,
  max,
  ...open,
});

/** Every seed is a 32-bit unsigned integer (common/rng.ts seeds xoshiro128** from one). */
export const SEED = count(0, 0xffffffff);
/** Sampling temperatures: the range of the evalTemperature setting (src/rl/config.ts). */
const TEMPERATURE = real(0, 5);
/** Evaluation episodes per split; 0 plays every game of the split (140 seen, 134 unseen). */
const EVAL_EPISODES = count(0, 1000);

export const LIMITS = {
  ckptInit: { seed: SEED },
  scenes: { count: count(1, 100_000), seed: SEED },
  play: { 'max-steps': count(1, 10_000) },
  warmstart: {
    seed: SEED,
    episodes: count(1, 100_000),
    steps: count(0, 1_000_000),
    'focus-steps': count(0, 1_000_000),
    'focus-share': real(0, 1),
    lr: real(0, 1, { aboveMin: true, belowMax: true }),
    'eval-episodes': EVAL_EPISODES,
    'teacher-games': count(0, 100_000),
  },
  train: {
    updates: count(0, 1_000_000),
    seed: SEED,
    'checkpoint-every': count(0, 1_000_000),
    'eval-every': count(0, 1_000_000),
    'eval-episodes': EVAL_EPISODES,
  },
  eval: { episodes: count(1, 100_000), temperature: TEMPERATURE },
  teacher: { games: count(2, 100_000), temperature: TEMPERATURE },
  exportOnnx: { seed: SEED, episodes: count(0, 100) },
  exportVerl: { games: count(1, 100_000) },
  probeOptionCopy: {
    steps: count(0, 1_000_000),
    'task-words': count(1, 1000),
    filler: count(0, 1000),
    'train-examples': count(1, 1_000_000),
    'train-games': count(1, 100_000),
    'held-out': count(1, 100_000),
  },
  probeReadingCeiling: { games: count(2, 100_000) },
  probeSkill: { games: count(1, 100_000) },
  benchEnv: { games: count(1, 100_000), steps: count(1000, 100_000_000) },
  benchCpu: {
    seqs: count(1, 256),
    streams: count(1, 1024),
    tasks: count(1, 256),
    group: count(1, 64),
    reps: count(1, 1000),
    updates: count(1, 1000),
    seed: SEED,
  },
  benchKernels: { seqs: count(1, 256), 'seq-len': count(4, 1024), reps: count(1, 1000), seed: SEED },
  benchLearn: {
    seeds: count(1, 100),
    'control-seeds': count(1, 100),
    updates: count(1, 100_000),
    'sweep-updates': count(1, 100_000),
    'eval-every': count(1, 100_000),
    'eval-episodes': EVAL_EPISODES,
    'eval-samples': count(1, 9),
    workers: count(1, 64),
    lrs: real(0, 1, { aboveMin: true, belowMax: true }),
    lambdas: real(0, 100),
    'opd-shares': real(0, 1, { aboveMin: true, belowMax: true }),
    'opid-weights': real(0, 10),
    rehearsals: real(0, 10),
    'sweep-seeds': count(1, 100),
    fractions: real(0, 1, { aboveMin: true }),
    // Seeds of the main runs stay below the sweep's (job.ts, SWEEP_SEED 1000) with the most seeds there are.
    'first-seed': count(1, 899),
    'extend-grid': count(0, 10),
    'teacher-at': count(0, 100_000),
    'teacher-games': count(2, 256),
  },
  benchOnnx: { batches: count(1, 64), seqs: count(1, 1024), reps: count(1, 1000), seed: SEED },
  benchPage: { minutes: real(0, 600, { aboveMin: true }), seeds: count(1, 20), 'first-seed': SEED },
  benchSoak: {
    updates: count(1, 1_000_000),
    streams: count(1, 256),
    prompt: count(1, 1024),
    decode: count(1, 1024),
    every: count(1, 1_000_000),
    seed: SEED,
  },
} as const satisfies Record<string, Record<string, Limit>>;

/**
 * The largest file each kind of input may be: a checkpoint of the small preset with its AdamW state is about
 * 12 MB, a scene file a few kB, a loss input about 150 bytes per token.
 */
export const MAX_INPUT_BYTES = {
  checkpoint: 1 << 30,
  scene: 1 << 20,
  loss: 64 << 20,
  actions: 16 << 20,
} as const;

/** Most .json files `eval --scenes DIR` reads. */
export const MAX_SCENE_FILES = 100_000;

/** The range as text: "1..100000", or "(0, 1)" for a real range with an excluded end. */
export function describeLimit(limit: Limit): string {
  if (limit.integer && !limit.aboveMin && !limit.belowMax) return `${limit.min}..${limit.max}`;
  return `${limit.aboveMin ? '(' : '['}${limit.min}, ${limit.max}${limit.belowMax ? ')' : ']'}`;
}

// Every hyper-parameter of a SEED run, with the paper's value (SEED.md) and the tiny preset's default where
// the two differ, and the one switch that selects the algorithm. `--set key=value` on the CLI and the page's
// settings write into the same object, and the trainer reads it at the start of every update, so a change
// takes effect at the next update.
import type { PresetName } from '../model/config.ts';

export const ALGOS = ['grpo', 'seed', 'seed-static', 'seed-shuffled', 'opid', 'seed-nogate'] as const;
export type Algo = (typeof ALGOS)[number];

export function isAlgo(name: string): name is Algo {
  return (ALGOS as readonly string[]).includes(name);
}

export interface TrainConfig {
  /** lambda_opd: weight of the gated distillation term (forced to 0 by grpo and opid). */
  lambda: number;
  /** beta: gate g = sigmoid(beta * Delta). */
  beta: number;
  clip: number;
  klCoef: number;
  /** G: episodes per task. */
  groupSize: number;
  /** B: tasks per update. */
  tasksPerUpdate: number;
  maxSteps: number;
  /** Past steps in the context; at maxSteps or more the whole episode is one sequence (the cheap layout). */
  history: number;
  temperature: number;
  evalTemperature: number;
  /** 1 = constrained decoding over the admissible commands, 0 = free decoding (the paper's setting). */
  constrained: number;
  /** Most tokens of one freely decoded command (end token excluded). */
  maxCommandTokens: number;
  /** Most tokens of one skill (end token excluded). */
  maxSkillTokens: number;
  /** Sampling temperature of the analyzer (0 = greedy). */
  analyzerTemperature: number;
  /** 1 = the analyzer decodes skills under the skill grammar's mask (text/skill_grammar.ts), 0 = freely (the paper). */
  skillGrammar: number;
  /**
   * 1 = the rule-based annotator of the warm start writes each trajectory's skill instead of the policy: a
   * control with faithful hindsight (skill fidelity 1), to ask what SEED gains when the skill is right.
   */
  annotatorSkills: number;
  winReward: number;
  invalidPenalty: number;
  /** 0: group statistics over trajectories (plain GRPO); 1: over all step samples of a group (verl-agent). */
  stepNormalised: number;
  /** OPID: w in A + w * Delta. */
  opidWeight: number;
  /** Optimizer steps per update on the same rollouts (PPO epochs); 1 keeps the update strictly on-policy. */
  epochs: number;
  /**
   * Rounds of fresh tasks drawn to replace groups whose episodes all got the same reward (zero advantage, no
   * GRPO gradient), as DAPO's dynamic sampling; 0 = plain GRPO. The replaced episodes still count as played.
   */
  resampleRounds: number;
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  gradClip: number;
  /** Tasks whose skills form the library of seed-static (written once by the warm-start policy). */
  staticTasks: number;
}

/** SEED.md's reference values (paper scale: 1.7B-7B models). */
export const PAPER_CONFIG: Readonly<TrainConfig> = {
  lambda: 0.01,
  beta: 5,
  clip: 0.2,
  klCoef: 0.01,
  groupSize: 8,
  tasksPerUpdate: 16,
  maxSteps: 30,
  history: 5,
  temperature: 1,
  evalTemperature: 0.4,
  constrained: 0,
  maxCommandTokens: 12,
  maxSkillTokens: 48,
  analyzerTemperature: 0,
  skillGrammar: 0,
  annotatorSkills: 0,
  winReward: 10,
  invalidPenalty: 0.1,
  stepNormalised: 0,
  opidWeight: 1e-3,
  epochs: 1,
  resampleRounds: 0,
  lr: 1e-6,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0.01,
  gradClip: 1,
  staticTasks: 16,
};

/**
 * Where the tiny presets differ from the paper, and why:
 * - lambda 0.1: at 0.01 the OPD term is ~1% of the GRPO term per token and does not show within ~100 updates
 *   of a tiny model (SEED.md asks for 0.1-1 here); at 0.3 and 1 the gated self-imitation of the policy's own,
 *   mostly failed samples collapses it (bench/TUNING.md, "A lambda sweep"), at 0.1 it did not;
 * - tasksPerUpdate 4, maxSteps 15: what a 2-core CPU affords per update; 15 steps of tiny rooms fit the
 *   512-token context as one sequence;
 * - history 15 (= maxSteps): the whole episode is one sequence, decoded with a KV cache and trained with one
 *   forward, ~5x cheaper than one windowed sequence per step;
 * - constrained decoding: a tiny model from a warm start writes too few admissible commands freely;
 * - skillGrammar 1: decoded freely, a tiny model's skills parse only 19-35% of the time, and an unusable skill
 *   gives its trajectory no OPD signal; under the grammar's mask every skill that ends in time is usable;
 * - lr 5e-4: a model of ~60k parameters trained in fp32 needs a much larger step than a 3B model; over 192
 *   updates of 4 x 8 episodes GRPO gained most at 5e-4 (3e-4 learns slower, 1e-3 wanders: bench/TUNING.md,
 *   "The learning rate decides GRPO's gain");
 * - weightDecay 0: the warm-start weights are the prior; decay would pull them toward zero.
 */
const TINY_OVERRIDES: Partial<TrainConfig> = {
  lambda: 0.1,
  tasksPerUpdate: 4,
  maxSteps: 15,
  history: 15,
  constrained: 1,
  skillGrammar: 1,
  lr: 5e-4,
  weightDecay: 0,
  staticTasks: 8,
};

export function defaultConfig(preset: PresetName): TrainConfig {
  return preset === 'small' ? { ...PAPER_CONFIG } : { ...PAPER_CONFIG, ...TINY_OVERRIDES };
}

const INTEGER_KEYS = new Set<keyof TrainConfig>([
  'groupSize', 'tasksPerUpdate', 'maxSteps', 'history', 'maxCommandTokens', 'maxSkillTokens', 'epochs', 'resampleRounds', 'staticTasks',
]);
const BOOLEAN_KEYS = new Set<keyof TrainConfig>(['constrained', 'skillGrammar', 'annotatorSkills', 'stepNormalised']);

export function isConfigKey(key: string): key is keyof TrainConfig {
  return Object.prototype.hasOwnProperty.call(PAPER_CONFIG, key);
}

/** Applies "key=value" settings; throws a RangeError naming the key for an unknown key or a bad value. */
export function applySettings(config: TrainConfig, settings: readonly string[]): TrainConfig {
  const out = { ...config };
  for (const setting of settings) {
    const eq = setting.indexOf('=');
    if (eq <= 0) throw new RangeError(`setting "${setting}" is not key=value`);
    const key = setting.slice(0, eq).trim();
    const text = setting.slice(eq + 1).trim();
    if (!isConfigKey(key)) throw new RangeError(`unknown setting "${key}" (known: ${Object.keys(PAPER_CONFIG).join(', ')})`);
    const value = text === 'true' ? 1 : text === 'false' ? 0 : Number(text);
    if (text === '' || !Number.isFinite(value)) throw new RangeError(`setting ${key} needs a finite number, got "${text}"`);
    out[key] = value;
  }
  return checkConfig(out);
}

/** Settings added after run checkpoints were first written, with the value the older runs ran with. */
const ADDED_SETTINGS: Partial<TrainConfig> = { resampleRounds: 0, skillGrammar: 0, annotatorSkills: 0 };

/**
 * Returns the config when every value is in range; throws a RangeError naming the first bad one. A setting of
 * ADDED_SETTINGS that the config lacks (a run checkpoint older than the setting) is filled in, in place.
 */
export function checkConfig(config: TrainConfig): TrainConfig {
  for (const [key, value] of Object.entries(ADDED_SETTINGS)) {
    if (!(key in config)) (config as unknown as Record<string, number>)[key] = value;
  }
  for (const key of Object.keys(PAPER_CONFIG) as (keyof TrainConfig)[]) {
    const v = config[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`setting ${key} must be a finite number, got ${v}`);
    if (v < 0) throw new RangeError(`setting ${key} must be >= 0, got ${v}`);
    if (INTEGER_KEYS.has(key) && !Number.isInteger(v)) throw new RangeError(`setting ${key} must be an integer, got ${v}`);
    if (BOOLEAN_KEYS.has(key) && v !== 0 && v !== 1) throw new RangeError(`setting ${key} must be 0 or 1, got ${v}`);
  }
  for (const key of ['groupSize', 'tasksPerUpdate', 'maxSteps', 'maxCommandTokens', 'maxSkillTokens', 'epochs'] as const) {
    if (config[key] < 1) throw new RangeError(`setting ${key} must be at least 1, got ${config[key]}`);
  }
  if (config.clip >= 1) throw new RangeError(`setting clip must be below 1, got ${config.clip}`);
  if (config.beta1 >= 1 || config.beta2 >= 1) throw new RangeError('settings beta1 and beta2 must be below 1');
  return config;
}

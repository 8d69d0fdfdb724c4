// Every hyper-parameter of a SEED run in one table: its range, whether it is a real number, a count or a
// switch, the paper's value, the presets' values where they differ from the paper's, and what it does. The
// trainer's config, `--set key=value` on the CLI, the page's settings and the check of a saved run all read
// this table. The trainer reads its config at the start of every update, so a change takes effect at the
// next update. The ranges of the loss's four settings live a layer down, where the backends check them
// (backend/loss_settings.ts).
import { LOSS_RANGES } from '../backend/loss_settings.ts';
import { ROUNDS_TO_ZERO, settingProblem, underflows, type SettingRange } from '../common/setting_range.ts';
import type { PresetName } from '../model/config.ts';

interface TrainSetting extends SettingRange {
  /** The paper's value (at the paper's scale: 1.7B-7B models). */
  paper: number;
  /** The value of a preset where it differs from the paper's; the small preset runs the paper's values. */
  presets?: Partial<Record<PresetName, number>>;
  /** The value that a run checkpoint written before the setting existed ran with. */
  before?: number;
  doc: string;
}

/** The micro and tiny presets share their training values (below: where they differ from the paper, and why). */
const tinyPresets = (value: number): Partial<Record<PresetName, number>> => ({ micro: value, tiny: value });
const real = (min: number, max: number) => ({ kind: 'real', min, max }) as const;
const count = (min: number, max: number) => ({ kind: 'integer', min, max }) as const;
const below = (min: number, max: number) => ({ kind: 'real', min, max, belowMax: true }) as const;
const SWITCH = { kind: 'boolean', min: 0, max: 1 } as const;

// Where the tiny presets differ from the paper, and why:
// - lambda 0.1: at 0.01 the OPD term is ~1% of the GRPO term per token and does not show within ~100 updates
//   of a tiny model; at 0.3 and 1 the gated self-imitation of the policy's
//   own, mostly failed samples collapses it (bench/notes/TUNING.md, "A lambda sweep"), at 0.1 it did not;
// - tasksPerUpdate 4: what a 2-core CPU affords per update;
// - maxSteps 10: a budget at which knowing where things are decides the game (in tiny rooms the noiseless
//   explorer that knows what the skill of its earlier episode states wins 93% of games within 10 steps, one
//   that searches blindly 64%; within 15 steps 99% and 97%), so that hindsight and learnt placement priors pay
//   (bench/notes/TUNING.md, "A new environment: placement priors and a step budget where hindsight decides");
//   10 steps of tiny rooms fit the 512-token context as one sequence;
// - history 10 (= maxSteps): the whole episode is one sequence, decoded with a KV cache and trained with one
//   forward, ~5x cheaper than one windowed sequence per step;
// - constrained decoding: a tiny model from a warm start writes too few admissible commands freely;
// - skillGrammar 1: decoded freely, a tiny model's skills parse only 19-35% of the time, and an unusable skill
//   gives its trajectory no OPD signal; under the grammar's mask every skill that ends in time is usable;
// - lr 5e-4: the tiny preset's 94k parameters (micro's 20k), trained in fp32, needs a much larger step than a 3B model; over 192
//   updates of 4 x 8 episodes GRPO gained most at 5e-4 (3e-4 learns slower, 1e-3 wanders: bench/notes/TUNING.md,
//   "The learning rate decides GRPO's gain");
// - weightDecay 0: the warm-start weights are the prior; decay would pull them toward zero.
// The maxima bound every count so that a mistyped value is refused with the key named, not discovered as an
// allocation of millions of episodes; they are far above anything a run in this project uses.
const TABLE = {
  lambda: {
    ...LOSS_RANGES.lambda,
    paper: 0.01,
    presets: tinyPresets(0.1),
    doc: 'lambda_opd: weight of the gated distillation term (0 under grpo and opid)',
  },
  beta: { ...LOSS_RANGES.beta, paper: 5, doc: 'beta: sharpness of the gate g = sigmoid(beta * Delta)' },
  clip: { ...LOSS_RANGES.clip, paper: 0.2, doc: 'eps_clip of the GRPO importance ratio' },
  klCoef: { ...LOSS_RANGES.klCoef, paper: 0.01, doc: 'weight of the k3 KL to the reference policy' },
  groupSize: { ...count(1, 64), paper: 8, doc: 'G: episodes per task (one GRPO group)' },
  tasksPerUpdate: { ...count(1, 64), paper: 16, presets: tinyPresets(4), doc: 'B: tasks (groups) per update' },
  maxSteps: { ...count(1, 100), paper: 30, presets: tinyPresets(10), doc: 'steps before an episode is cut' },
  history: {
    ...count(0, 100),
    paper: 5,
    presets: tinyPresets(10),
    doc: 'past steps in the context; at maxSteps or more the whole episode is one sequence (the cheap layout)',
  },
  skillAfterPage: {
    ...SWITCH,
    paper: 0,
    before: 0,
    doc: 'window layout (history < maxSteps): 1 = the skill block follows the current observation, right before the command; 0 = it follows the task line',
  },
  skillSlot: {
    ...SWITCH,
    paper: 0,
    before: 0,
    doc: "1 = every policy context holds a skill block of one fixed length (the frame and maxSkillTokens), empty (full stops) where the policy acts without a skill: a skill fills the slot and shifts no position, and training sees the block's presence too (the warm start must be built with warmstart --skill-slot); 0 = the block appears only where a skill is read (the paper's)",
  },
  temperature: { ...real(0, 5), paper: 1, doc: 'sampling temperature of training rollouts (0 = greedy)' },
  evalTemperature: { ...real(0, 5), paper: 0.4, doc: 'sampling temperature of evaluations (0 = greedy)' },
  constrained: {
    ...SWITCH,
    paper: 0,
    presets: tinyPresets(1),
    doc: '1 = constrained decoding over the admissible commands, 0 = free decoding (the paper)',
  },
  maxCommandTokens: {
    ...count(1, 32),
    paper: 12,
    doc: 'most tokens of one freely decoded command (end token excluded)',
  },
  maxSkillTokens: { ...count(1, 128), paper: 48, doc: 'most tokens of one skill (end token excluded)' },
  analyzerTemperature: {
    ...real(0, 5),
    paper: 0,
    doc: 'sampling temperature of the analyzer that writes the skills (0 = greedy)',
  },
  skillGrammar: {
    ...SWITCH,
    paper: 0,
    presets: tinyPresets(1),
    before: 0,
    doc: "1 = skills are decoded under the mask of the world's skill grammar, 0 = freely (the paper)",
  },
  annotatorSkills: {
    ...SWITCH,
    paper: 0,
    before: 0,
    doc: "1 = the rule-based annotator writes each trajectory's skill instead of the policy: faithful hindsight (what the seed-annotator algorithm does)",
  },
  winReward: { ...real(0, 1000), paper: 10, doc: 'reward of a won episode' },
  invalidPenalty: { ...real(0, 100), paper: 0.1, doc: 'reward subtracted per invalid command' },
  scoreReward: {
    ...SWITCH,
    paper: 0,
    before: 0,
    doc: "1 = an episode's reward is winReward times the world's score in [0, 1] (the shop's WebShop score, which credits a purchase that meets part of the goal), less the invalid penalty, as WebShop's papers train; 0 = winReward for success alone. Only a world with a score takes 1 (the household has none)",
  },
  stepNormalised: {
    ...SWITCH,
    paper: 0,
    doc: '0: group statistics over trajectories (plain GRPO); 1: over all step samples of a group (verl-agent)',
  },
  jsdAlpha: {
    ...below(0, 1),
    paper: 0,
    before: 0,
    doc: 'seed-exact*: the divergence distilled, 0 = reverse KL(student || teacher), alpha in (0, 1) = generalised JSD with mixture alpha p + (1 - alpha) q',
  },
  advisorAlpha: {
    ...real(0, 100),
    paper: 0,
    before: 0,
    doc: "seed-exact: weight each position by exp(-alpha KL(own-skill teacher || other-game-skill teacher)), so what only this game's facts explain counts less (0 = off)",
  },
  rewardDirected: {
    ...SWITCH,
    paper: 0,
    before: 0,
    doc: "seed-exact*: 1 = distil only the tokens where the skill moves the sampled token the way the reward does, sign(l_skill - l_old) = sign(A) (the paper's arms are left as the paper has them)",
  },
  opidWeight: { ...real(0, 10), paper: 1e-3, doc: 'OPID: w in A + w * Delta' },
  epochs: {
    ...count(1, 16),
    paper: 1,
    doc: 'optimizer steps per update on the same rollouts (PPO epochs); 1 keeps the update strictly on-policy',
  },
  resampleRounds: {
    ...count(0, 16),
    paper: 0,
    before: 0,
    doc: "rounds of fresh tasks replacing groups whose rewards are all equal (DAPO's dynamic sampling); 0 = plain GRPO",
  },
  lr: { ...real(0, 1), paper: 1e-6, presets: tinyPresets(5e-4), doc: 'AdamW step size' },
  beta1: { ...below(0, 1), paper: 0.9, doc: 'AdamW first-moment decay' },
  beta2: { ...below(0, 1), paper: 0.999, doc: 'AdamW second-moment decay' },
  eps: { ...real(1e-12, 1), paper: 1e-8, doc: 'AdamW denominator epsilon' },
  weightDecay: { ...real(0, 1), paper: 0.01, presets: tinyPresets(0), doc: 'AdamW decoupled weight decay' },
  gradClip: { ...real(0, 1000), paper: 1, doc: 'global gradient-norm clip (0 = off)' },
  trainGames: {
    ...count(0, 1_000_000),
    paper: 0,
    before: 0,
    doc: 'training games the run draws its tasks from, cycling (0 = a fresh game for every task): a run with less data',
  },
  staticTasks: {
    ...count(0, 256),
    paper: 16,
    presets: tinyPresets(8),
    doc: 'seed-static: tasks whose skills, written once by the warm-start policy, form the library',
  },
  teacherEvery: {
    ...count(0, 1_000_000),
    paper: 0,
    before: 0,
    doc: 'run the teacher check (does the skill still help the current policy?) on validation games after every N-th update; 0 = never',
  },
  gradShareEvery: {
    ...count(0, 1_000_000),
    paper: 0,
    presets: tinyPresets(4),
    before: 1,
    doc: "the gradient's OPD part is measured on its own (one more loss pass) at every N-th update of a distilling run, for the gradient-share metrics (0 = never, 1 = every update); training is the same bits at every value",
  },
  teacherGames: {
    ...count(2, 256),
    paper: 64,
    before: 64,
    doc: "validation games of each teacher check (each played four times: first, no skill, own skill, another game's skill)",
  },
  teacherRefresh: {
    ...count(0, 1_000_000),
    paper: 1,
    before: 1,
    doc: "K: the teacher that re-scores with the skill has the policy's weights of every K-th update (1 = the pre-update policy, the paper's; 0 = never refreshed: the weights the run started from)",
  },
  rehearsal: {
    ...real(0, 10),
    paper: 0,
    before: 0,
    doc: "weight of the rehearsal term: each optimizer step also takes the token-mean negative log-likelihood of rehearsalBatch skill-following and skill-writing examples of the warm start's kind, so that the skill context the teacher reads stays trained (0 = off, the paper's)",
  },
  rehearsalBatch: {
    ...count(1, 64),
    paper: 8,
    before: 8,
    doc: 'examples in each step of the rehearsal term (rehearsal > 0)',
  },
} satisfies Record<string, TrainSetting>;

export type TrainKey = keyof typeof TABLE;
export type TrainConfig = Record<TrainKey, number>;

export const TRAIN_SETTINGS: Readonly<Record<TrainKey, Readonly<TrainSetting>>> = TABLE;
/** The settings in table order (the order of a config's keys, and of its JSON in a run checkpoint). */
export const TRAIN_KEYS = Object.keys(TABLE) as TrainKey[];

function configOf(value: (setting: TrainSetting) => number): TrainConfig {
  return Object.fromEntries(TRAIN_KEYS.map((key) => [key, value(TRAIN_SETTINGS[key])])) as TrainConfig;
}

export const PAPER_CONFIG: Readonly<TrainConfig> = configOf((s) => s.paper);

export function defaultConfig(preset: PresetName): TrainConfig {
  return configOf((s) => s.presets?.[preset] ?? s.paper);
}

export function isConfigKey(key: string): key is TrainKey {
  return Object.hasOwn(TABLE, key);
}

/** Applies "key=value" settings; throws a RangeError naming the key for an unknown key or a bad value. */
export function applySettings(config: TrainConfig, settings: readonly string[]): TrainConfig {
  const out = { ...config };
  for (const setting of settings) {
    const eq = setting.indexOf('=');
    if (eq <= 0) throw new RangeError(`setting "${setting}" is not key=value`);
    const key = setting.slice(0, eq).trim();
    const text = setting.slice(eq + 1).trim();
    if (!isConfigKey(key)) throw new RangeError(`unknown setting "${key}" (known: ${TRAIN_KEYS.join(', ')})`);
    const value = text === 'true' ? 1 : text === 'false' ? 0 : Number(text);
    if (text === '' || !Number.isFinite(value))
      throw new RangeError(`setting ${key} needs a finite number, got "${text}"`);
    // The range is checkConfig's, below; a text that is not 0 but reads as 0 has only its text to show.
    if (underflows(text, value)) throw new RangeError(`setting ${key} is ${ROUNDS_TO_ZERO}, got ${text}`);
    out[key] = value;
  }
  return checkConfig(out);
}

/**
 * Returns the config when every value is in range; throws a RangeError naming the first bad one. A setting
 * that the config lacks and the table gives a `before` value (a run checkpoint older than the setting) is
 * filled in, in place.
 */
export function checkConfig(config: TrainConfig): TrainConfig {
  for (const key of TRAIN_KEYS) {
    const { before } = TRAIN_SETTINGS[key];
    if (before !== undefined && !(key in config)) config[key] = before;
  }
  for (const key of TRAIN_KEYS) {
    const problem = settingProblem(key, TRAIN_SETTINGS[key], config[key]);
    if (problem) throw new RangeError(problem);
  }
  return config;
}

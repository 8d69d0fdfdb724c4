// Each playground setting against the SEED repository's trainer (verl-agent based), in one table: the config keys
// a setting becomes and how, or why it has none. The launch script (launch_script.ts) is written from this table
// and docs/verl.md shows it (mapping_table.ts writes the table there; a test holds the two together). The record
// type makes every setting of rl/config.ts a row, so a new setting must say what it becomes before it compiles.
import { TRAIN_SETTINGS, type TrainConfig, type TrainKey } from '../config.ts';
import { annotatorWrites, ARMS, type Algo } from '../arms.ts';

/** A value as the script writes it: `float` values keep a decimal point, as Hydra's YAML reads them. */
export type EngineValue = string | number | boolean | { readonly float: number };

/** The algorithms the SEED trainer runs, as the export sets each up (a playground algorithm maps onto one). */
export type EngineAlgo = 'grpo' | 'seed' | 'seed-nogate' | 'opid';

export const float = (x: number): EngineValue => ({ float: x });

interface Carried {
  keys: readonly string[];
  /** What the value becomes, in words (the docs table). */
  how: string;
  /** The keys and values of a run (only keys of `keys`; none where the algorithm has no use for the setting). */
  values(c: TrainConfig, engine: EngineAlgo): Record<string, EngineValue>;
}

interface NoCounterpart {
  /** Why the setting has no key there, and what the trainer does instead. */
  none: string;
}

export type SettingRow = Carried | NoCounterpart;

export function isCarried(row: SettingRow): row is Carried {
  return 'keys' in row;
}

const A = 'actor_rollout_ref.actor';
const EXACT_ONLY = "seed-exact's setting: the playground's exact distillation, which the SEED trainer does not have";
const one = (key: string, how: string, value: (c: TrainConfig) => EngineValue): Carried => ({
  keys: [key],
  how,
  values: (c) => ({ [key]: value(c) }),
});

export const SETTING_ROWS: Readonly<Record<TrainKey, SettingRow>> = {
  lambda: {
    keys: [`${A}.opd_loss_coef`],
    how: 'lambda; 2 lambda under seed-nogate (its gate, at beta 0, is 1/2 on every token); 0 under grpo and opid',
    values: (c, engine) => ({
      [`${A}.opd_loss_coef`]: float(engine === 'seed' ? c.lambda : engine === 'seed-nogate' ? 2 * c.lambda : 0),
    }),
  },
  beta: {
    keys: [`${A}.opd_gate_beta`],
    how: 'beta (the gate sigmoid(beta Delta)); 0 under seed-nogate',
    values: (c, engine) => ({ [`${A}.opd_gate_beta`]: float(engine === 'seed-nogate' ? 0 : c.beta) }),
  },
  clip: {
    keys: [`${A}.clip_ratio`, `${A}.clip_ratio_low`, `${A}.clip_ratio_high`],
    how: 'clip, on both sides of the ratio',
    values: (c) => ({
      [`${A}.clip_ratio`]: float(c.clip),
      [`${A}.clip_ratio_low`]: float(c.clip),
      [`${A}.clip_ratio_high`]: float(c.clip),
    }),
  },
  klCoef: {
    keys: [`${A}.use_kl_loss`, `${A}.kl_loss_coef`, `${A}.kl_loss_type`],
    how: "use_kl_loss = klCoef > 0, kl_loss_coef = klCoef, kl_loss_type = low_var_kl (verl's k3 estimator, clamped to [-10, 10])",
    values: (c) => ({
      [`${A}.use_kl_loss`]: c.klCoef > 0,
      [`${A}.kl_loss_coef`]: float(c.klCoef),
      [`${A}.kl_loss_type`]: 'low_var_kl',
    }),
  },
  groupSize: one('env.rollout.n', 'G: verl-agent plays each task env.rollout.n times', (c) => c.groupSize),
  tasksPerUpdate: one(
    'data.train_batch_size',
    'B: tasks per update (the data preparation makes as many prompts)',
    (c) => c.tasksPerUpdate,
  ),
  maxSteps: one('env.max_steps', 'steps before an episode is cut', (c) => c.maxSteps),
  history: one('env.history_length', 'past steps in the prompt', (c) => c.history),
  skillAfterPage: {
    none: 'the SEED trainer puts the skill into the observation text in one place (seed/prompting.py); where the block goes is no key there',
  },
  skillSlot: {
    none: "the SEED trainer's prompts hold a skill only where one is injected (seed/prompting.py); its pretrained model reads a prompt at any length, and no key keeps an empty block in every prompt",
  },
  temperature: one('actor_rollout_ref.rollout.temperature', 'sampling temperature of the rollouts', (c) =>
    float(c.temperature),
  ),
  evalTemperature: {
    keys: ['actor_rollout_ref.rollout.val_kwargs.temperature', 'actor_rollout_ref.rollout.val_kwargs.do_sample'],
    how: 'the validation temperature; do_sample = evalTemperature > 0',
    values: (c) => ({
      'actor_rollout_ref.rollout.val_kwargs.temperature': float(c.evalTemperature),
      'actor_rollout_ref.rollout.val_kwargs.do_sample': c.evalTemperature > 0,
    }),
  },
  constrained: {
    none: "verl-agent decodes freely and projects the response onto an admissible action (env_package/<benchmark>/projection.py), an invalid one paying the invalid-action penalty: the paper's free decoding, constrained = 0",
  },
  maxCommandTokens: {
    none: "a response there is the LLM's whole answer, its reasoning and the action tag, in subword tokens (data.max_response_length, 512 in the SEED launchers)",
  },
  maxSkillTokens: {
    none: "the analyzer there answers in JSON, in subword tokens (algorithm.seed.analysis_max_completion_tokens, 4096 in the SEED launchers); a budget in the playground's words has no measure there",
  },
  analyzerTemperature: {
    none: "the policy's vLLM samples the analysis with the trainer's own sampling; the config has no key for the analyzer's temperature",
  },
  skillGrammar: {
    none: "the LLM writes its skill as free text in JSON; the skill grammar is the playground's, over its closed vocabulary (the paper decodes freely, skillGrammar = 0)",
  },
  annotatorSkills: {
    keys: ['algorithm.seed.analysis_backend'],
    how: "who writes the skills: 0 = policy_vllm (the policy itself, the paper's self-evolving analyzer); 1 = openai, an external model (OPENAI_BASE_URL and OPENAI_MODEL name it) in the place of the playground's rule-based annotator",
    values: (c, engine): Record<string, EngineValue> =>
      engine === 'grpo' ? {} : { 'algorithm.seed.analysis_backend': c.annotatorSkills ? 'openai' : 'policy_vllm' },
  },
  winReward: {
    none: "verl-agent's environment pays the reward (env_package/<benchmark>), not the config: 10 for a won ALFWorld game, the paper's winReward",
  },
  invalidPenalty: {
    keys: [`${A}.use_invalid_action_penalty`, `${A}.invalid_action_penalty_coef`],
    how: 'use_invalid_action_penalty = invalidPenalty > 0, invalid_action_penalty_coef = invalidPenalty',
    values: (c) => ({
      [`${A}.use_invalid_action_penalty`]: c.invalidPenalty > 0,
      [`${A}.invalid_action_penalty_coef`]: float(c.invalidPenalty),
    }),
  },
  scoreReward: {
    none: "whether a WebShop episode pays its success or its score is verl-agent's environment's, not a config key",
  },
  stepNormalised: {
    none: "verl-agent's episode-level group statistics (the mode the SEED estimator names, set to mean_std_norm: mean and std as here) count every step row of a group, as stepNormalised = 1 does; no key changes it",
  },
  jsdAlpha: { none: EXACT_ONLY },
  advisorAlpha: { none: EXACT_ONLY },
  rewardDirected: { none: EXACT_ONLY },
  opidWeight: {
    keys: ['algorithm.seed.episode_skill_teacher_advantage_w'],
    how: "opid: w, the trainer's teacher-advantage path (A + w Delta of the episode skill); 0 under the SEED algorithms, whose OPD loss takes its place",
    values: (c, engine): Record<string, EngineValue> =>
      engine === 'grpo'
        ? {}
        : { 'algorithm.seed.episode_skill_teacher_advantage_w': float(engine === 'opid' ? c.opidWeight : 0) },
  },
  epochs: one(
    `${A}.ppo_epochs`,
    "optimizer passes over each update's rollouts (verl splits a pass into mini-batches of the launcher's ppo_mini_batch_size, so it may take several steps)",
    (c) => c.epochs,
  ),
  resampleRounds: {
    keys: ['algorithm.filter_groups.enable', 'algorithm.filter_groups.max_num_gen_batches'],
    how: "DAPO's dynamic sampling: enable = resampleRounds > 0, max_num_gen_batches = resampleRounds + 1 (verl draws whole batches until the informative groups fill one; the playground replaces the uninformative groups by fresh tasks)",
    values: (c) => ({
      'algorithm.filter_groups.enable': c.resampleRounds > 0,
      'algorithm.filter_groups.max_num_gen_batches': c.resampleRounds + 1,
    }),
  },
  lr: one(`${A}.optim.lr`, 'AdamW step size', (c) => float(c.lr)),
  beta1: {
    none: "verl's actor optimizer is torch's AdamW at its defaults (0.9, 0.999, 1e-8), the paper's values; the config names none of them",
  },
  beta2: { none: "as beta1: torch's AdamW default, 0.999" },
  eps: { none: "as beta1: torch's AdamW default, 1e-8" },
  weightDecay: one(`${A}.optim.weight_decay`, 'AdamW decoupled weight decay', (c) => float(c.weightDecay)),
  gradClip: one(`${A}.grad_clip`, 'global gradient-norm clip', (c) => float(c.gradClip)),
  trainGames: {
    none: "verl-agent draws its tasks from the benchmark's whole training set; no key holds a run to a fraction of it (the paper's data-fraction runs set none)",
  },
  staticTasks: { none: "seed-static's library, which the SEED trainer does not have" },
  teacherEvery: { none: "the playground's teacher check, a diagnostic the SEED trainer does not run" },
  gradShareEvery: { none: "the playground's gradient-share metrics, which the SEED trainer does not measure" },
  teacherGames: { none: "the playground's teacher check, a diagnostic the SEED trainer does not run" },
  teacherRefresh: {
    none: "the SEED trainer's analyzer and teacher are the policy of the update (policy_vllm): teacherRefresh = 1, the paper's; no key refreshes them less often",
  },
  rehearsal: {
    none: "the playground's rehearsal of the warm start's skill examples; the SEED trainer's skill SFT runs once, before RL (the launch script's first stage), and no key repeats it during RL",
  },
  rehearsalBatch: { none: "as rehearsal: the playground's, with no counterpart" },
};

/** The keys every SEED algorithm sets: the SEED estimator with episode skills, as the paper's launchers. */
const SEED_ESTIMATOR: Readonly<Record<string, EngineValue>> = {
  'algorithm.adv_estimator': 'seed',
  'algorithm.seed.mode': 'mean_std_norm',
  'algorithm.seed.skill_mode': 'episode_only',
  'algorithm.seed.skill_teacher_mode': 'step_priority',
  'algorithm.seed.step_advantage_w': float(0),
  'algorithm.seed.step_skill_teacher_advantage_w': float(0),
  'algorithm.seed.analysis_max_step_skills_per_traj': 0,
  'algorithm.seed.enable_analysis': true,
  'algorithm.seed.selector': 'llm',
  'algorithm.seed.failed_only': false,
  'algorithm.seed.analysis_prompt_version': 'seed',
  // The skill SFT's prompts (sft_dataset.ts) ask for the skill alone, as the analyzer's prompt does then.
  'algorithm.seed.analysis_include_episode_summary': false,
  'algorithm.seed.analysis_num_workers': 1,
  'algorithm.seed.analysis_context_length': 16384,
  'algorithm.seed.analysis_max_completion_tokens': 4096,
  'algorithm.seed.normalize_teacher_adv': false,
};

/** The SEED repository's GRPO (examples/grpo_trainer/): GiGPO without its step-level part, mean and std. */
const GRPO_ESTIMATOR: Readonly<Record<string, EngineValue>> = {
  'algorithm.adv_estimator': 'gigpo',
  'algorithm.gigpo.step_advantage_w': float(0),
  'algorithm.gigpo.mode': 'mean_std_norm',
};

interface AlgoRow {
  /** The playground's algorithms the row covers, as the docs table names them. */
  names: string;
  covers(algo: Algo): boolean;
  engine: EngineAlgo | null;
  /** What the export sets, or why there is nothing to set. */
  how: string;
}

const partOf = (algo: Algo, arm: Algo) => ARMS[algo].part !== null && ARMS[algo].arm === arm;
/** A row of the named algorithms alone. */
const only =
  (...names: Algo[]) =>
  (a: Algo): boolean =>
    names.includes(a);

/** Every playground algorithm, each in one row: its engine algorithm, or none (docs/verl.md lists these rows). */
export const ALGORITHM_ROWS: readonly AlgoRow[] = [
  {
    names: 'grpo',
    covers: only('grpo'),
    engine: 'grpo',
    how: "algorithm.adv_estimator = gigpo with step_advantage_w 0 and mode mean_std_norm, the SEED repository's GRPO launcher; no OPD loss",
  },
  {
    names: 'seed',
    covers: only('seed'),
    engine: 'seed',
    how: 'algorithm.adv_estimator = seed, episode skills (skill_mode episode_only) written by the policy, the OPD loss at lambda with the gate at beta',
  },
  {
    names: 'seed-annotator',
    covers: only('seed-annotator'),
    engine: 'seed',
    how: 'as seed, with annotatorSkills = 1: analysis_backend openai, an external model writing the skills',
  },
  {
    names: 'seed-nogate',
    covers: only('seed-nogate'),
    engine: 'seed-nogate',
    how: 'as seed, with opd_gate_beta 0 (a gate of 1/2 on every token) and opd_loss_coef 2 lambda: lambda with the gate at 1',
  },
  {
    names: 'opid',
    covers: only('opid'),
    engine: 'opid',
    how: "as seed, with opd_loss_coef 0 and episode_skill_teacher_advantage_w = opidWeight: the trainer's teacher-advantage path, A + w Delta",
  },
  {
    names: 'seed-static',
    covers: only('seed-static'),
    engine: null,
    how: 'a skill library written once, before the first update: the SEED trainer has none',
  },
  {
    names: "seed-sibling and seed's part controls (seed-crossgame, seed-procedure, ...)",
    covers: (a) => only('seed-sibling')(a) || partOf(a, 'seed'),
    engine: null,
    how: "another trajectory's skill, or a part of one, in the place of the trajectory's own: the SEED trainer re-scores with the trajectory's own skill only",
  },
  {
    names: 'seed-exact and its part controls',
    covers: (a) => ARMS[a].signal === 'exact',
    engine: null,
    how: "the playground's exact distillation over the whole vocabulary: the SEED trainer's OPD loss is the paper's estimate at the sampled token",
  },
];

/** The engine algorithm a playground algorithm runs as, or the reason it has none. */
export function engineAlgorithm(algo: Algo): { engine: EngineAlgo } | { none: string } {
  const row = ALGORITHM_ROWS.find((r) => r.covers(algo));
  if (!row) throw new RangeError(`no row of ALGORITHM_ROWS covers ${algo}`);
  return row.engine === null
    ? { none: `${algo} has no counterpart in the SEED trainer: ${row.how}` }
    : { engine: row.engine };
}

/** The keys and values of a run's algorithm and settings; `config` as the run ran (annotatorSkills set where the annotator writes). */
export function engineValues(algo: Algo, engine: EngineAlgo, config: TrainConfig): Record<string, EngineValue> {
  const c = annotatorWrites(algo, config) ? { ...config, annotatorSkills: 1 } : config;
  const out: Record<string, EngineValue> = { ...(engine === 'grpo' ? GRPO_ESTIMATOR : SEED_ESTIMATOR) };
  for (const key of Object.keys(SETTING_ROWS) as TrainKey[]) {
    const row = SETTING_ROWS[key];
    if (isCarried(row)) Object.assign(out, row.values(c, engine));
  }
  return out;
}

/** The settings of a run with no counterpart, each with the run's value, the paper's and why (the script's header). */
export function uncarried(config: TrainConfig): { key: TrainKey; value: number; paper: number; why: string }[] {
  return (Object.keys(SETTING_ROWS) as TrainKey[]).flatMap((key) => {
    const row = SETTING_ROWS[key];
    return isCarried(row) ? [] : [{ key, value: config[key], paper: TRAIN_SETTINGS[key].paper, why: row.none }];
  });
}

/** A number as a person writes it: 5e-6, not 0.000005. */
export const numberText = (n: number): string => (n !== 0 && Math.abs(n) < 1e-3 ? n.toExponential() : String(n));

/** A setting whose value there is not the run's or not the paper's: both values, by the setting's name. */
interface SettingChoice {
  key: TrainKey;
  run: number;
  paper: number;
}

/** The settings a script sets, and which of the run's it carried and which it replaced by the paper's. */
export interface ScaledSettings {
  config: TrainConfig;
  /** Changed by the run from the playground's defaults: the run's value, which is not the paper's. */
  carried: SettingChoice[];
  /** At the playground's default, chosen for its small model: the paper's value in the place of the run's. */
  fromPaper: SettingChoice[];
}

/**
 * The settings of a run at the trainer's scale. Every setting with a key there starts from the paper's value
 * (`paper`: at 1.7B-7B, with the benchmark's steps and history), since the playground's defaults are chosen for
 * a model of thousands of parameters (rl/config.ts says where and why they differ); a setting the run changed
 * from those defaults (`defaults`: the page's for a link, the command line's for a run directory) is the run's
 * own choice and is carried. Settings with no key there keep the run's value (the script lists them apart).
 */
export function scaledSettings(config: TrainConfig, defaults: TrainConfig, paper: TrainConfig): ScaledSettings {
  const out: ScaledSettings = { config: { ...config }, carried: [], fromPaper: [] };
  for (const key of Object.keys(SETTING_ROWS) as TrainKey[]) {
    if (!isCarried(SETTING_ROWS[key]) || config[key] === paper[key]) continue;
    const choice = { key, run: config[key], paper: paper[key] };
    if (config[key] !== defaults[key]) {
      out.carried.push(choice);
    } else {
      out.config[key] = paper[key];
      out.fromPaper.push(choice);
    }
  }
  return out;
}

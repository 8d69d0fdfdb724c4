// The launch script of a playground run for the SEED repository's trainer (verl-agent based): the paper's two
// stages, the hindsight-skill SFT on the dataset written beside the script (sft_dataset.ts) and the RL run, as
// `python3 -m verl.trainer.main_ppo key=value ...` with this run's algorithm and settings (mapping.ts), the world's
// benchmark (its facts' `engine`) and the SEED launchers' values for the rest. Every key it sets is one of the
// vendored config keys (config_keys.ts), which config_keys.test.ts holds. The text depends on the run alone (no
// date, no path of this machine), so a run gives the same script wherever it is exported.
import { printable } from '../../common/json.ts';
import type { EngineBenchmark } from '../../env/world_facts.ts';
import type { PresetName } from '../../model/config.ts';
import { factsOf } from '../../worlds/facts.ts';
import type { EnvironmentName } from '../../worlds/names.ts';
import { PAPER_CONFIG, type TrainConfig } from '../config.ts';
import type { Algo } from '../arms.ts';
import { defaultSettings, formatHash, runIdsOf, trainConfigOf, type Settings } from '../page_settings.ts';
import { configFile, SEED_REPOSITORY } from './config_keys.ts';
import {
  engineAlgorithm,
  engineValues,
  float,
  numberText,
  scaledSettings,
  uncarried,
  type EngineAlgo,
  type EngineValue,
  type ScaledSettings,
} from './mapping.ts';

/** A run to carry there: what a run directory's checkpoint or a link's settings say. */
export interface RunToCarry {
  algo: Algo;
  env: EnvironmentName;
  preset: PresetName;
  seed: number;
  config: TrainConfig;
  /**
   * The playground's defaults the run's settings are read against (the page's for a link, the command line's for
   * a run directory): a setting changed from them is the run's own choice, carried there (scaledSettings).
   */
  defaults: TrainConfig;
  /** Where the run comes from, in words, for the script's header: a run directory, a link. */
  source: string;
}

/**
 * The runs a page's settings describe (SEED and GRPO for 'both'), as the page would train them; `defaults` are the
 * playground's for them (the recorded run's settings where a record of their world and preset ships:
 * recorded_defaults.ts playgroundDefaults).
 */
export function runsOfSettings(s: Settings, defaults: Settings = defaultSettings(s.preset, s.env)): RunToCarry[] {
  return runIdsOf(s.algo).map((algo) => ({
    algo,
    env: s.env,
    preset: s.preset,
    seed: s.seed,
    config: trainConfigOf(s),
    defaults: trainConfigOf(defaults),
    source: `the playground's settings ${formatHash(s)}`,
  }));
}

/** A value the shell expands inside double quotes: "$MODEL_PATH", "$HERE/sft_episode_skill_train.parquet". */
interface Shell {
  shell: string;
}
type ScriptValue = EngineValue | Shell;

export interface LaunchScript {
  /** The script's file name: run_<benchmark>_<algorithm>.sh. */
  file: string;
  text: string;
  /** Every key the script sets, by the config it is set in. */
  keys: { main_ppo: readonly string[]; sft: readonly string[] };
}

/** A run that cannot be carried there: an algorithm or a world with no counterpart. */
export class NoCounterpartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoCounterpartError';
  }
}

/** The dataset's files beside the script: the names the SEED repository's SFT scripts read (scripts/sft/). */
export const SFT_FILES = { train: 'sft_episode_skill_train.parquet', val: 'sft_episode_skill_val.parquet' } as const;

/** The SFT stage's settings: the SEED repository's scripts/sft/_common/trainer.sh, three epochs. */
const SFT_EPOCHS = 3;

const shell = (text: string): Shell => ({ shell: text });

/** The benchmark of a run's world there; throws NoCounterpartError for a world the trainer does not run. */
export function benchmarkOf(env: EnvironmentName): EngineBenchmark {
  const engine = factsOf(env).engine;
  if (!engine) throw new NoCounterpartError(`the ${env} world has no benchmark in the SEED repository's trainer`);
  return engine;
}

/**
 * The settings a run's script sets: the paper's values (the benchmark's steps and history) for what the run left at
 * the playground's defaults, the run's own for what it changed (mapping.ts scaledSettings).
 */
export function settingsThere(run: RunToCarry): ScaledSettings {
  const { paper } = benchmarkOf(run.env);
  return scaledSettings(run.config, run.defaults, {
    ...PAPER_CONFIG,
    maxSteps: paper.maxSteps,
    history: paper.history,
  });
}

/** The engine algorithm of a run; throws NoCounterpartError for one that has none. */
function engineAlgoOf(algo: Algo): EngineAlgo {
  const found = engineAlgorithm(algo);
  if ('none' in found) throw new NoCounterpartError(found.none);
  return found.engine;
}

function valueText(value: ScriptValue): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  if ('shell' in value) return value.shell;
  const text = String(value.float);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** A word as the shell reads it back unchanged: as it is where it holds no character the shell acts on, else quoted. */
function shellWord(text: string): string {
  return /^[\w./:+,=@-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** One `key=value` argument, quoted where the shell would read it otherwise. */
function argument(key: string, value: ScriptValue): string {
  const text = `${key}=${valueText(value)}`;
  if (typeof value === 'object' && 'shell' in value) return `"${text}"`;
  if (/^[\w./:+,=-]+$/.test(text)) return text;
  return `"${text.replace(/["\\$`]/g, '\\$&')}"`;
}

/** The main_ppo keys and values of a run: its settings, its world, and the SEED launchers' values for the rest. */
function rlValues(run: RunToCarry, config: TrainConfig): Record<string, ScriptValue> {
  const bench = benchmarkOf(run.env);
  const engine = engineAlgoOf(run.algo);
  const values: Record<string, ScriptValue> = {
    ...engineValues(run.algo, engine, config),
    'env.env_name': bench.envName,
    'env.seed': run.seed,
    ...bench.launcherKeys,
    'data.train_files': shell('$HOME/data/verl-agent/text/train.parquet'),
    'data.val_files': shell('$HOME/data/verl-agent/text/test.parquet'),
    'data.val_batch_size': 128,
    'data.max_response_length': 512,
    'data.filter_overlong_prompts': true,
    'data.truncation': 'left',
    'data.return_raw_chat': true,
    'actor_rollout_ref.model.path': shell('$MODEL_PATH'),
    'actor_rollout_ref.model.use_remove_padding': true,
    'actor_rollout_ref.model.enable_gradient_checkpointing': true,
    'actor_rollout_ref.actor.fsdp_config.param_offload': false,
    'actor_rollout_ref.actor.fsdp_config.optimizer_offload': false,
    'actor_rollout_ref.rollout.name': 'vllm',
    'actor_rollout_ref.rollout.tensor_model_parallel_size': 1,
    'actor_rollout_ref.rollout.gpu_memory_utilization': float(0.6),
    'actor_rollout_ref.rollout.enable_chunked_prefill': false,
    'actor_rollout_ref.rollout.enforce_eager': false,
    'actor_rollout_ref.rollout.free_cache_engine': false,
    'actor_rollout_ref.rollout.max_model_len': 20480,
    'actor_rollout_ref.rollout.max_num_batched_tokens': 20480,
    'actor_rollout_ref.ref.fsdp_config.param_offload': true,
    'algorithm.use_kl_in_reward': false,
    'algorithm.gamma': float(0.95),
    'env.resources_per_worker.num_cpus': float(0.1),
    'trainer.critic_warmup': 0,
    'trainer.logger': "['console']",
    'trainer.project_name': 'seed-playground',
    'trainer.experiment_name': shell('$EXPERIMENT'),
    'trainer.n_gpus_per_node': shell('$N_GPUS'),
    'trainer.nnodes': 1,
    'trainer.save_freq': 10,
    'trainer.test_freq': 5,
    'trainer.total_epochs': 160,
    'trainer.val_before_train': false,
    'trainer.default_local_dir': shell('$OUT_DIR/rl'),
  };
  return values;
}

/** The SFT trainer's keys and values: the skill stage on the dataset beside the script. */
function sftValues(env: EnvironmentName): Record<string, ScriptValue> {
  const { sft } = benchmarkOf(env);
  return {
    'data.train_files': shell(`$HERE/${SFT_FILES.train}`),
    'data.val_files': shell(`$HERE/${SFT_FILES.val}`),
    'data.prompt_key': 'prompt',
    'data.response_key': 'response',
    'data.prompt_dict_keys': '[]',
    'data.response_dict_keys': '[]',
    'data.max_length': sft.maxLength,
    'data.truncation': 'error',
    'data.train_batch_size': 8,
    'data.micro_batch_size_per_gpu': 1,
    'model.partial_pretrain': shell('$MODEL_PATH'),
    'model.enable_gradient_checkpointing': true,
    'optim.lr': float(sft.lr),
    'trainer.default_local_dir': shell('$OUT_DIR/sft'),
    'trainer.default_hdfs_dir': 'null',
    'trainer.project_name': 'seed-playground',
    'trainer.experiment_name': shell('$EXPERIMENT-sft'),
    'trainer.logger': "['console']",
    'trainer.total_epochs': SFT_EPOCHS,
    ulysses_sequence_parallel_size: 1,
    use_remove_padding: true,
  };
}

/**
 * Comment lines of at most 118 characters, continued lines indented. Control characters are escaped (\n, \u001b):
 * a comment carries text from outside, a run folder's name, and a raw newline there would end the comment and make
 * the rest of the name a command of the script.
 */
function comment(text: string, first = '# ', next = '#     '): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of printable(text).split(' ')) {
    if (line.length + word.length > 118 && line.trim() !== '#') {
      lines.push(line.trimEnd());
      line = next;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** Items of a header's list, or "(none)". */
const listed = (items: readonly string[]) =>
  items.length === 0 ? ['#   (none)'] : items.flatMap((item) => comment(item, '#   ', '#       '));

const sorted = (values: Record<string, ScriptValue>) =>
  Object.keys(values)
    .sort()
    .map((key) => argument(key, values[key]));

/** The script's variables: where it lies, the model, the stage (all or rl), the GPUs and the output folder. */
const preamble = (stage: string) =>
  `set -euo pipefail
HERE="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
: "\${MODEL_PATH:?set MODEL_PATH to the model to train (a Hugging Face checkpoint)}"
STAGE="\${STAGE:-${stage}}"
N_GPUS="\${N_GPUS:-8}"
OUT_DIR="\${OUT_DIR:-$HERE/outputs}"`.split('\n');

/** Arguments one a line, each but the last continued. */
const continued = (args: readonly string[]) => args.map((a, i) => `    ${a}${i < args.length - 1 ? ' \\' : ''}`);

/** The launch script of a run; throws NoCounterpartError for an algorithm or a world the trainer does not have. */
export function launchScript(run: RunToCarry): LaunchScript {
  const bench = benchmarkOf(run.env);
  const engine = engineAlgoOf(run.algo);
  const there = settingsThere(run);
  const rl = rlValues(run, there.config);
  const withSft = engine !== 'grpo';
  const sft = withSft ? sftValues(run.env) : {};
  const file = `run_${bench.sft.folder}_${run.algo}.sh`;
  const experiment = `${run.algo}-${bench.sft.folder}-${run.preset}-seed${run.seed}`;
  const { repo, commit } = SEED_REPOSITORY;
  const header = [
    '#!/usr/bin/env bash',
    ...comment(
      `SEED Playground: ${run.algo} in the ${run.env} (${bench.name}), ${run.preset} preset, seed ${run.seed}, carried to the SEED repository's trainer (verl-agent based).`,
    ),
    ...comment(`From ${run.source}.`),
    ...comment(
      `The SEED repository: github.com/${repo} at commit ${commit}. Every key below is one of that commit's config keys (${configFile('main_ppo')}${withSft ? `, ${configFile('sft')}` : ''}), which SEED Playground's tests check. Written by \`npm run seed -- export-verl\`; its docs/verl.md says what each setting becomes.`,
    ),
    '#',
    "# Run it from the SEED repository's root, with its environments installed (its README), MODEL_PATH the model to train:",
    ...(withSft
      ? [
          `#   MODEL_PATH=/models/Qwen2.5-3B-Instruct bash ${file}         # stage 1 (skill SFT), then stage 2 (RL)`,
          `#   STAGE=rl MODEL_PATH=/path/to/sft/model bash ${file}        # stage 2 alone`,
          ...comment(
            `Stage 1 fine-tunes MODEL_PATH on the hindsight-annotated trajectories beside this script (${SFT_FILES.train}, ${SFT_FILES.val}: prompt and response columns, the paper's skill prompt); stage 2 trains from the SFT model it wrote.`,
          ),
        ]
      : [
          `#   MODEL_PATH=/models/Qwen2.5-3B-Instruct bash ${file}`,
          ...comment("GRPO writes no skills: it trains the model as it is, as the paper's GRPO baseline does."),
        ]),
    ...comment(
      "N_GPUS (8), OUT_DIR (outputs/ beside this script) and Hydra overrides after the script's name (stage 2) change the rest.",
    ),
    '#',
    ...comment(
      "Replaced by the paper's values (for its models of 1.7B-7B parameters): the settings this run left at the playground's defaults, which are chosen for its small model:",
    ),
    ...listed(there.fromPaper.map((c) => `${c.key} = ${numberText(c.paper)} (this run ${numberText(c.run)})`)),
    ...comment("Carried from this run: the settings it changed from the playground's defaults, as it set them:"),
    ...listed(there.carried.map((c) => `${c.key} = ${numberText(c.run)} (paper ${numberText(c.paper)})`)),
    '#',
    '# Settings of this run with no counterpart there (what the trainer does instead):',
    ...uncarried(run.config).flatMap((u) =>
      comment(`${u.key} = ${u.value} (paper ${u.paper}): ${u.why}`, '#   ', '#       '),
    ),
  ];
  const body = [
    ...preamble(withSft ? 'all' : 'rl'),
    `EXPERIMENT=${shellWord(experiment)}`,
    '',
    ...(withSft
      ? [
          'if [[ "$STAGE" == all || "$STAGE" == sft ]]; then',
          '  torchrun --standalone --nnodes=1 --nproc_per_node="$N_GPUS" -m verl.trainer.fsdp_sft_trainer \\',
          ...continued(sorted(sft)),
          '  SFT_MODEL="$(find "$OUT_DIR/sft" -maxdepth 1 -type d -name \'global_step_*\' | sort -V | tail -n 1)"',
          '  [[ -f "$SFT_MODEL/config.json" ]] || { echo "no SFT checkpoint under $OUT_DIR/sft" >&2; exit 1; }',
          '  MODEL_PATH="$SFT_MODEL"',
          'fi',
          '',
        ]
      : []),
    'if [[ "$STAGE" == all || "$STAGE" == rl ]]; then',
    `  python3 -m examples.data_preprocess.prepare --mode text --train_data_size ${there.config.tasksPerUpdate} --val_data_size 128`,
    '  python3 -m verl.trainer.main_ppo \\',
    ...continued([...sorted(rl), '"$@"']),
    'fi',
  ];
  return {
    file,
    text: `${[...header, ...body].join('\n')}\n`,
    keys: { main_ppo: Object.keys(rl).sort(), sft: Object.keys(sft).sort() },
  };
}

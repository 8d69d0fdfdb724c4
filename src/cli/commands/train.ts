// `seed train`: trains from a warm-start checkpoint with the chosen algorithm, writing JSONL metrics and
// checkpoints that a resumed run continues exactly; its options, files and output are declared in `command`
// below (the --help text).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Environment } from '../../env/environment.ts';
import { writeCheckpoint } from '../../model/checkpoint.ts';
import { presetConfig, type PresetName } from '../../model/config.ts';
import { rewardProblem } from '../../rl/advantages.ts';
import { defaultConfig, type TrainConfig } from '../../rl/config.ts';
import { ALGOS, currentAlgoName, isAlgo, type Algo } from '../../rl/arms.ts';
import { evalSplitScenes, evaluateSplits } from '../../rl/evaluate.ts';
import { restoreRun, runCheckpoints } from '../../rl/run_checkpoint.ts';
import { RunOpdShares } from '../../rl/opd_share.ts';
import { Trainer, type UpdateMetrics } from '../../rl/trainer.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import { tokenizerOf, type Tokenizer } from '../../text/tokenizer.ts';
import { quote } from '../../common/json.ts';
import {
  applySetOptions,
  noPositionals,
  numberOption,
  parseOptions,
  presetOf,
  presetOption,
  requireOption,
  settingsSection,
} from '../args.ts';
import { backendOption, openBackend } from '../backend.ts';
import { CliError } from '../cli_error.ts';
import { appendLine, checkOutputsApart, progressBar, writeAtomic } from '../io.ts';
import { defineCommand, usageLine } from '../help.ts';
import { LIMITS } from '../limits.ts';
import { clearRunFiles, openRunDir, RUN_FILES } from '../run_dir.ts';
import { readResumeInputs, readStartWeights, type ResumeInputs } from '../train_inputs.ts';
import {
  ENV_OPTION,
  environmentFrom,
  evalSetsInWords,
  SCALE_OPTION,
  scoresInWords,
  worldsInWords,
} from '../environment_option.ts';
import { worldPrefix } from '../../worlds/names.ts';

export const command = defineCommand({
  name: 'train',
  summary: 'train a policy with grpo, seed or an ablation; JSONL metrics, checkpoints, exact resume',
  description:
    'Trains from a warm-start checkpoint with the chosen algorithm. DIR receives metrics.jsonl (one JSON line per update, its "update" the 0-based index, ' +
    'with the evaluations), last.ckpt (weights, AdamW state, run metadata), reference.ckpt and, for a run whose teacher is refreshed every K > 1 updates, teacher.ckpt, every --checkpoint-every updates and at the end; ' +
    '--resume continues from them exactly. A run holds DIR through a lock file while it runs; a DIR that already holds files is refused unless --resume ' +
    'continues its run or --force starts over.\n\n' +
    'Progress on stderr; the summary on stdout as JSON: updates (completed, as the page counts them), last_update (the number the page shows for the last one, ' +
    '1-based), episodes, wall_s, last (the metrics line of the last update run, its "update" 0-based as in metrics.jsonl), ' +
    'and over the updates this process ran, opd_share (the OPD share of the gradient: mean OPD norm / (mean GRPO norm + mean OPD norm)) ' +
    'and opd_delta_share (the mean Delta-dependent share of the OPD coefficient; docs/seed-loss.md), each null where no update defined it.\n\n' +
    `In a world with a score (${worldsInWords(true)}; in [0, 1], success a score of 1) a metrics line also holds "score", ` +
    'the mean score of the update\'s episodes beside their success, and an evaluation "score_seen" and "score_unseen" beside "seen" and "unseen"; ' +
    `--set scoreReward=1 trains on the score, which a world without one (${worldsInWords(false)}) refuses. ${scoresInWords()}`,
  options: {
    algo: {
      type: 'string',
      value: ALGOS.join('|'),
      required: true,
      description: 'the algorithm: GRPO, SEED, or an ablation or control of SEED',
    },
    preset: presetOption({ required: true, description: "the model's size; it must be the warm start's" }),
    updates: {
      type: 'string',
      value: 'N',
      limit: LIMITS.train.updates,
      required: true,
      description: 'the run ends when N updates are done (counting those of a resumed run)',
    },
    seed: {
      type: 'string',
      value: 'S',
      limit: LIMITS.train.seed,
      required: true,
      description: "the run's seed: its training games and sampling",
    },
    backend: backendOption('the backend that computes the forward and backward passes'),
    env: ENV_OPTION,
    scale: SCALE_OPTION,
    set: {
      type: 'string',
      value: 'key=value',
      multiple: true,
      default: [],
      description: "changes a training setting from the preset's default (settings below)",
    },
    init: {
      type: 'string',
      value: 'FILE',
      defaultText:
        'public/warmstart-<preset>.ckpt (the shop: warmstart-shop-<preset>.ckpt) when present, else a seeded random init',
      description: 'the checkpoint the run starts from',
    },
    out: {
      type: 'string',
      value: 'DIR',
      defaultText: 'bench/runs/<algo>-<preset>-s<seed> (the shop: shop-<algo>-...)',
      description: "the run's directory",
    },
    resume: {
      type: 'boolean',
      default: false,
      description: 'continues the run in DIR from its last.ckpt (the metrics of updates after it are redone)',
    },
    force: {
      type: 'boolean',
      default: false,
      description:
        "starts over in a DIR that holds a run: removes its run files once the new run's inputs are read and checked",
    },
    'checkpoint-every': {
      type: 'string',
      value: 'N',
      limit: LIMITS.train['checkpoint-every'],
      default: '10',
      description: 'writes the checkpoints after every Nth update (0: only at the end)',
    },
    'eval-every': {
      type: 'string',
      value: 'N',
      limit: LIMITS.train['eval-every'],
      default: '0',
      description: 'evaluates on eval-seen and eval-unseen after every Nth update (0: never)',
    },
    'eval-episodes': {
      type: 'string',
      value: 'N',
      limit: LIMITS.train['eval-episodes'],
      default: '0',
      description: `games per split of each evaluation (0: every game, ${evalSetsInWords()})`,
    },
  },
  sections: [settingsSection()],
});

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const algoName = requireOption(values.algo, 'algo', usage);
  const algo = currentAlgoName(algoName);
  if (!isAlgo(algo)) throw new CliError(`unknown --algo ${quote(algoName)} (known: ${ALGOS.join(', ')})`, 2);
  if (algo !== algoName) process.stderr.write(`--algo ${algoName} is the former name of ${algo}: training ${algo}\n`);
  const preset = presetOf(values.preset, usage);
  const limits = LIMITS.train;
  const updates = numberOption(values.updates, 'updates', limits.updates);
  const seed = numberOption(values.seed, 'seed', limits.seed);
  const checkpointEvery = numberOption(values['checkpoint-every'], 'checkpoint-every', limits['checkpoint-every']);
  const evalEvery = numberOption(values['eval-every'], 'eval-every', limits['eval-every']);
  const evalEpisodes = numberOption(values['eval-episodes'], 'eval-episodes', limits['eval-episodes']);
  const env = environmentFrom(values.env, values.scale);
  const world = rlWorldOf(env);
  // The world's own defaults (a shop episode is played in windows) come between the preset's and --set.
  const config: TrainConfig = takenBy(
    env,
    applySetOptions({ ...defaultConfig(preset), ...world.trainDefaults }, values.set as string[]),
  );
  const out = values.out ?? join('bench', 'runs', `${worldPrefix(env.name)}${algo}-${preset}-s${seed}`);
  const resume = values.resume === true;
  if (values.init !== undefined && !resume)
    checkOutputsApart(
      RUN_FILES.map((name) => ({ option: '--out', path: join(out, name) })),
      [{ option: '--init', path: values.init }],
    );
  const tok = tokenizerOf(env);
  const model = presetConfig(preset, tok.vocabSize);
  // A new run's start is read before the directory is even created; a resumed run's files once it is locked.
  const start = resume ? null : await readStartWeights(values.init, preset, model, seed, tok, env.name, config);
  const lock = await openRunDir(out, { resume, force: values.force === true });
  try {
    const from = start ? { params: start } : await readResumeInputs(out, preset, model, tok);
    return await train(
      {
        algo,
        preset,
        updates,
        seed,
        checkpointEvery,
        evalEvery,
        evalEpisodes,
        config,
        out,
        backend: values.backend!,
        from,
        force: values.force === true,
        set: values.set as string[],
        env,
      },
      tok,
    );
  } finally {
    lock.release();
  }
}

interface TrainOptions {
  algo: Algo;
  preset: PresetName;
  updates: number;
  seed: number;
  checkpointEvery: number;
  evalEvery: number;
  evalEpisodes: number;
  config: TrainConfig;
  out: string;
  backend: string;
  /** The weights of a new run, or the run that --resume continues. */
  from: { params: Float32Array } | ResumeInputs;
  force: boolean;
  set: string[];
  env: Environment;
}

async function train(o: TrainOptions, tok: Tokenizer): Promise<number> {
  const { algo, preset, updates, seed, checkpointEvery, evalEvery, evalEpisodes, config, out } = o;
  const model = presetConfig(preset, tok.vocabSize);
  const lastPath = join(out, 'last.ckpt');
  const refPath = join(out, 'reference.ckpt');
  const teacherPath = join(out, 'teacher.ckpt');
  const metricsPath = join(out, 'metrics.jsonl');

  const resumed = 'current' in o.from ? o.from : null;
  const backend = await openBackend(o.backend, model, 'current' in o.from ? o.from.current.params : o.from.params);
  const trainer = new Trainer({ backend, tokenizer: tok, algo: algo as Algo, config, seed, world: rlWorldOf(o.env) });
  if (resumed) {
    try {
      await restoreRun(trainer, resumed.current, resumed.reference, resumed.teacher);
    } catch (err) {
      throw new CliError(`--resume: ${lastPath}: ${(err as Error).message}`);
    }
    if (o.set.length) trainer.config = takenBy(o.env, applySetOptions(trainer.config, o.set));
    // Every input has passed its checks: only now does the run directory change.
    await writeAtomic(metricsPath, resumed.metrics.kept.map((l) => `${l.text}\n`).join(''));
    if (resumed.metrics.note) process.stderr.write(`${resumed.metrics.note}\n`);
    const saved = (resumed.current.metadata as { algo?: unknown }).algo;
    if (saved !== trainer.algo)
      process.stderr.write(`${lastPath} names its algorithm ${String(saved)}, the former name of ${trainer.algo}\n`);
    process.stderr.write(`resumed ${out} after update ${trainer.updates}\n`);
  } else {
    if (o.force) await clearRunFiles(out);
    await writeAtomic(metricsPath, '');
  }

  const save = async () => {
    const { current, reference, teacher } = await runCheckpoints(trainer, preset, tok.hash);
    await writeAtomic(refPath, writeCheckpoint(reference));
    // A run that holds no teacher leaves no teacher file behind, which a resume would refuse.
    if (teacher) await writeAtomic(teacherPath, writeCheckpoint(teacher));
    else await rm(teacherPath, { force: true });
    await writeAtomic(lastPath, writeCheckpoint(current));
  };
  // The bar counts completed updates, as the page numbers them: "update 3/12" once the third is done.
  const bar = progressBar(`${algo} ${preset} seed ${seed}`, updates, {
    start: Math.min(trainer.updates, updates),
    unit: 'update',
  });
  let last: UpdateMetrics | null = null;
  const shares = new RunOpdShares();
  const t0 = performance.now();
  while (trainer.updates < updates) {
    last = await trainer.update();
    shares.add(last);
    const line: Record<string, unknown> = { ...last };
    if (last.skipped)
      process.stderr.write(
        `\nupdate ${last.update + 1} refused: non-finite ${last.skipped.term} (${last.skipped.where}); weights unchanged\n`,
      );
    if (evalEvery > 0 && trainer.updates % evalEvery === 0) {
      const ev = await evaluateSplits(
        trainer.world.env,
        backend,
        tok,
        trainer.config,
        evalSplitScenes(trainer.world.env, evalEpisodes),
      );
      line.eval = {
        seen: ev.seen.success,
        unseen: ev.unseen.success,
        ...(ev.seen.score === undefined ? {} : { score_seen: ev.seen.score, score_unseen: ev.unseen.score }),
      };
    }
    await appendLine(metricsPath, `${JSON.stringify(line)}\n`);
    if (checkpointEvery > 0 && trainer.updates % checkpointEvery === 0) await save();
    const score = last.score === undefined ? '' : ` score ${last.score.toFixed(2)}`;
    bar.update(trainer.updates, {
      info: `success ${last.success.toFixed(2)}${score} loss ${Number(last.total).toFixed(3)}`,
    });
  }
  bar.stop();
  await save();
  // Updates are counted as the page counts them: `updates` is the number done, last_update the number the page
  // shows for the last one (1-based: "update 12" is the twelfth; null before the first); `last` is this
  // process's last metrics line, its `update` the 0-based index of metrics.jsonl.
  const done = trainer.updates;
  const summary = {
    algo,
    preset,
    seed,
    updates: done,
    last_update: done > 0 ? done : null,
    episodes: trainer.episodes,
    out,
    wall_s: (performance.now() - t0) / 1000,
    last,
    ...shares.result(),
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return 0;
}

/** The config, when the run's world takes it (a reward from a score only where the world has one); else a one-line refusal. */
function takenBy(env: Environment, config: TrainConfig): TrainConfig {
  const problem = rewardProblem(env, config);
  if (problem) throw new CliError(`--set: ${problem}`, 2);
  return config;
}

// One job of `bench learn`, run in a child process: a training run (train, then the eval-unseen curve and
// the final evaluation), a sweep run (train, then the validation-unseen games) or the warm start's own evaluation.
// A run of a benchmark that is recorded for the page (record.ts) also evaluates eval-seen at each point of
// its curve, and keeps a few episodes with their per-token numbers at the updates it is told.
import { CpuBackend } from '../../../backend/cpu/cpu_backend.ts';
import type { Backend } from '../../../backend/backend.ts';
import { worldOrDefault, type EnvironmentName } from '../../../worlds/names.ts';
import type { Environment } from '../../../env/environment.ts';
import { environmentOf } from '../../../worlds/environments.ts';
import type { Checkpoint } from '../../../model/checkpoint.ts';
import { presetConfig, presetOfConfig, type PresetName } from '../../../model/config.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import type { Algo } from '../../../rl/arms.ts';
import { evaluate, summarise, type EvalResult } from '../../../rl/evaluate.ts';
import { pickEpisodes, recordedEpisode, type CurvePoint, type RecordedEpisode } from '../../../rl/recorded_run.ts';
import { Trainer } from '../../../rl/trainer.ts';
import { rlWorldOf } from '../../../worlds/rl_worlds.ts';
import { tokenizerOf, type Tokenizer } from '../../../text/tokenizer.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { envFieldRemedy, readCheckpointFile } from '../../../cli/io.ts';
import { evalSets, sweepScenes } from '../design/games.ts';
import { keepProgress, nothingGathered, resumeProgress, type JobProgress } from './job_progress.ts';
import type { TeacherPoint, UpdateMeans } from './update_means.ts';

export const PRESET = 'tiny' as const;
/** The sweep's runs train on this seed's tasks, which no main run (seeds 1..K) draws. */
export const SWEEP_SEED = 1000;

export interface Job {
  /** run: train, then the curve and the final evaluation; sweep: train, then score on the validation-unseen games. */
  kind: 'run' | 'sweep' | 'warmstart';
  algo: Algo;
  seed: number;
  updates: number;
  config: TrainConfig;
  init: string;
  evalEvery: number;
  evalEpisodes: number;
  /** Sampled episodes per eval game in the final evaluation (the curve's evaluations take one). */
  evalSamples: number;
  /** The model preset of the init checkpoint: the benchmark's PRESET, or the micro preset in tests. */
  preset?: PresetName;
  /** The world the runs play (its tiny scale); absent: the household. */
  env?: EnvironmentName;
  /** Set when the benchmark is recorded: the updates (from 1) whose episodes this run keeps (none: only the curve). */
  record?: { episodeUpdates: number[] };
  /**
   * Runs only: the updates after which the run plays the teacher check on config.teacherGames validation games
   * (0: before the first update, the warm start's weights), with the KL to its teacher; none when absent.
   */
  teacherAt?: number[];
}

/** What a recorded run keeps beyond the report's figures. */
interface JobRecord {
  /** Both splits at every point of the curve, by update; update 0 (the warm start) is the parent's. */
  curve: CurvePoint[];
  episodes: RecordedEpisode[];
}

export interface JobResult extends UpdateMeans {
  algo: Algo;
  seed: number;
  lr: number;
  /** The weight of the distillation term the run trained with (unused by grpo and opid). */
  lambda: number;
  /** The weight of Delta in opid's advantage the run trained with (used by opid only). */
  opid_weight: number;
  success_seen: number;
  success_unseen: number;
  /** Sweep runs only: success on the validation-unseen games (SWEEP_GAMES, evalSamples episodes per game); null otherwise. */
  success_validation: number | null;
  per_type: { seen: Record<string, number>; unseen: Record<string, number> };
  /** Eval-unseen success by training episodes; the parent puts the warm start's point (0 episodes) first. */
  curve: [number, number][];
  /**
   * Per point of `curve`, per eval-unseen game, the fraction of its episodes won (one episode per game, the
   * last point the final evaluation's evalSamples): what each game's area under the curve is computed from.
   */
  curve_won: number[][];
  wall_s: number;
  /** Per eval game, the fraction of its evalSamples episodes won. */
  won_seen: number[];
  won_unseen: number[];
  /** Only when the job was given `record`. */
  recorded?: JobRecord;
  /** Per teacher check of `teacher` (in its order), the KL from the student to its teacher on validation states. */
  teacher_kl: [number, number | null][];
  /**
   * In a world with a score (the shop's WebShop score, in [0, 1]; absent in one without): the final evaluation's
   * mean score per split, and per eval game the mean score of its evalSamples episodes (as won_seen, won_unseen).
   */
  score_seen?: number;
  score_unseen?: number;
  scores_seen?: number[];
  scores_unseen?: number[];
  /** Per point of `curve`, the eval-unseen mean score; the parent puts the warm start's first. */
  curve_score?: number[];
  /** Per point of `curve`, per eval-unseen game, its mean score (as curve_won): the score's area under the curve. */
  curve_scores?: number[][];
}

/**
 * Success over `samples` independent sampling streams, and per game the fraction of its episodes won; in a
 * world with a score, the mean score too, and per game the mean score of its episodes (null in one without).
 */
async function play<S>(
  env: Environment<S>,
  backend: Backend,
  tok: Tokenizer,
  config: TrainConfig,
  scenes: readonly S[],
  samples = 1,
): Promise<{ result: EvalResult; won: number[]; scores: number[] | null }> {
  const wins = new Array<number>(scenes.length).fill(0);
  const scoreSums = new Array<number>(scenes.length).fill(0);
  const types: string[] = [];
  const flags: boolean[] = [];
  const scores: number[] = [];
  for (let k = 0; k < samples; k++) {
    const byIndex = new Map<number, { won: boolean; score: number | null }>();
    await evaluate(env, backend, tok, scenes, config, (t) => byIndex.set(t.task, { won: t.won, score: t.score }), k);
    scenes.forEach((scene, i) => {
      const won = byIndex.get(i)?.won ?? false;
      const score = byIndex.get(i)?.score ?? 0;
      wins[i] += won ? 1 : 0;
      scoreSums[i] += score;
      types.push(env.taskType(scene));
      flags.push(won);
      scores.push(score);
    });
  }
  const scored = env.score !== null;
  return {
    result: summarise(types, flags, scored ? scores : null),
    won: wins.map((w) => w / samples),
    scores: scored ? scoreSums.map((s) => s / samples) : null,
  };
}

/**
 * The means of the run's updates with the scheduled teacher checks (teacherAt) among those the config's
 * teacherEvery ran, in the order of their updates.
 */
function withChecks(
  means: UpdateMeans,
  checks: TeacherPoint[],
  kl: [number, number | null][],
): UpdateMeans & Pick<JobResult, 'teacher_kl'> {
  // A scheduled check after an update that teacherEvery checked too plays the same games with the same weights
  // and stream: the same figures, kept once.
  const scheduled = new Set(checks.map(([u]) => u));
  const teacher = [...checks, ...means.teacher.filter(([u]) => !scheduled.has(u))].sort((a, b) => a[0] - b[0]);
  return { ...means, teacher, teacher_kl: kl };
}

/** Refuses init weights of another shape than `preset`'s, naming the preset they are of. */
export function checkInitPreset(path: string, init: Checkpoint, preset: PresetName, wanted: string): void {
  const of = presetOfConfig(init.config);
  if (of !== preset)
    throw new CliError(
      `${path} is ${of ? `a checkpoint of the ${of} preset` : "no preset's checkpoint"}, not of ${wanted}`,
      2,
    );
}

/** The job's init checkpoint, refused (in one line) unless it is of the job's world and preset. */
export async function readJobInit(job: Job): Promise<Checkpoint> {
  const ck = await readCheckpointFile(
    job.init,
    tokenizerOf(environmentOf(worldOrDefault(job.env))),
    envFieldRemedy("the job's"),
  );
  const preset = job.preset ?? PRESET;
  checkInitPreset(
    job.init,
    ck,
    preset,
    job.preset ? `the job's preset ${preset}` : `${preset}, the preset of a job without one`,
  );
  return ck;
}

/**
 * One run (or the warm start's evaluation), in this process. With `progress`, a run keeps its progress after
 * each point of its curve and goes on from what the folder holds of it (job_progress.ts).
 */
export async function runJob(job: Job, progress?: JobProgress): Promise<JobResult> {
  const env = environmentOf(worldOrDefault(job.env));
  const tok = tokenizerOf(env);
  const ck = await readJobInit(job);
  const preset = job.preset ?? PRESET;
  const backend = new CpuBackend(presetConfig(preset, tok.vocabSize), ck.params);
  const t0 = performance.now();
  const { seen: seenScenes, unseen: unseenScenes } = evalSets(job.evalEpisodes, env);
  let gathered = nothingGathered(job.kind === 'run' && job.record !== undefined);
  const seconds = () => gathered.earlierSeconds + (performance.now() - t0) / 1000;
  if (job.kind !== 'warmstart') {
    const trainer = new Trainer({
      backend,
      tokenizer: tok,
      algo: job.algo,
      config: job.config,
      seed: job.seed,
      world: rlWorldOf(env),
    });
    const resumed = progress ? await resumeProgress(progress, job.updates, trainer, tok.hash) : null;
    if (resumed) gathered = resumed;
    const { curve, curveWon, curveScore, curveScores, record, means, teacherChecks, teacherKl } = gathered;
    const teacherAt = new Set(job.kind === 'run' ? (job.teacherAt ?? []) : []);
    const check = async () => {
      const c = await trainer.checkTeacher();
      teacherChecks.push([trainer.updates, c.no_skill, c.own_skill, c.other_skill, c.blank_skill]);
      teacherKl.push([trainer.updates, c.kl]);
    };
    if (teacherAt.has(0) && !resumed) await check();
    // The curve's first point, the warm start's eval-unseen success, is the same for every run (same weights,
    // same sampling stream): the parent takes it from the warm start's own evaluation.
    while (trainer.updates < job.updates) {
      means.add(await trainer.update());
      if (teacherAt.has(trainer.updates)) await check();
      if (record && job.record!.episodeUpdates.includes(trainer.updates)) {
        const state = trainer.current!;
        for (const i of pickEpisodes(state)) record.episodes.push(recordedEpisode(tok, state, i, job.seed));
      }
      const last = trainer.updates === job.updates;
      if (job.kind === 'run' && (trainer.updates % job.evalEvery === 0 || last)) {
        const point = last ? null : await play(env, backend, tok, job.config, unseenScenes);
        const unseen = point ? point.result.success : NaN;
        curve.push([trainer.episodes, unseen]);
        curveWon.push(point ? point.won : []);
        curveScore.push(point?.result.score ?? NaN);
        curveScores.push(point?.scores ?? []);
        if (record && !last)
          record.curve.push([
            trainer.updates,
            trainer.episodes,
            (await play(env, backend, tok, job.config, seenScenes)).result.success,
            unseen,
          ]);
      }
      if (progress && !last && trainer.updates % job.evalEvery === 0)
        await keepProgress(progress, trainer, preset, tok.hash, gathered, seconds());
    }
  }
  const { curve, curveWon, curveScore, curveScores, record, means, teacherChecks, teacherKl } = gathered;
  const common = {
    algo: job.algo,
    seed: job.seed,
    lr: job.config.lr,
    lambda: job.config.lambda,
    opid_weight: job.config.opidWeight,
  };
  if (job.kind === 'sweep') {
    const validation = await play(env, backend, tok, job.config, sweepScenes(job.evalEpisodes, env), job.evalSamples);
    return {
      ...common,
      success_seen: NaN,
      success_unseen: NaN,
      success_validation: validation.result.success,
      per_type: { seen: {}, unseen: {} },
      curve,
      curve_won: curveWon,
      wall_s: seconds(),
      won_seen: [],
      won_unseen: [],
      ...withChecks(means.result(), teacherChecks, teacherKl),
    };
  }
  const seen = await play(env, backend, tok, job.config, seenScenes, job.evalSamples);
  const unseen = await play(env, backend, tok, job.config, unseenScenes, job.evalSamples);
  if (curve.length && Number.isNaN(curve[curve.length - 1][1])) {
    curve[curve.length - 1][1] = unseen.result.success;
    curveWon[curveWon.length - 1] = unseen.won;
    curveScore[curveScore.length - 1] = unseen.result.score ?? NaN;
    curveScores[curveScores.length - 1] = unseen.scores ?? [];
  }
  if (record && curve.length)
    record.curve.push([job.updates, curve[curve.length - 1][0], seen.result.success, unseen.result.success]);
  return {
    ...common,
    success_seen: seen.result.success,
    success_unseen: unseen.result.success,
    success_validation: null,
    per_type: { seen: seen.result.per_type, unseen: unseen.result.per_type },
    curve,
    curve_won: curveWon,
    wall_s: seconds(),
    won_seen: seen.won,
    won_unseen: unseen.won,
    ...withChecks(means.result(), teacherChecks, teacherKl),
    ...(record ? { recorded: record } : {}),
    ...(env.score
      ? {
          score_seen: seen.result.score,
          score_unseen: unseen.result.score,
          scores_seen: seen.scores!,
          scores_unseen: unseen.scores!,
          curve_score: curveScore,
          curve_scores: curveScores,
        }
      : {}),
  };
}

// The check a run kept by `bench learn` (job_store.ts) passes before --resume takes it instead of running its
// job. A kept file is input like any other (cut short by a crash, edited by hand, copied from another folder),
// so the whole of it is checked against what its job implies: the same job, the arm, seed and settings it ran
// with, one curve point per evaluation of its schedule, one figure per eval game, and every number in its
// range. A refusal names the first field in the way, in one line.
import { factsOf } from '../../../worlds/facts.ts';
import { worldOrDefault } from '../../../worlds/names.ts';
import { array, curvePoint, episode, num, object, refuse, show, whole } from '../../../rl/recorded_run_check.ts';
import { evalGameCounts } from '../design/games.ts';
import type { Job, JobResult } from './job.ts';
import { MEAN_METRIC_KEYS, type MeanMetric } from './update_means.ts';

/** What a kept file holds: the job that ran and its result. */
export interface KeptRun {
  job: Job;
  result: JobResult;
}

/** Room for rounding in a correlation, which floating point can put just past 1. */
const ROUNDING = 1e-6;
/** The most seconds a kept run may say it took: some four months. */
const MAX_WALL_SECONDS = 1e7;
/** The most training episodes a count in a kept run may say. */
const MAX_EPISODES = 1e12;
/** The most task types a split's per-type figures may name. */
const MAX_TYPES = 1000;

type Check<T> = (v: unknown, at: string) => T;
type Range = readonly [lo: number, hi: number];

const inRange =
  ([lo, hi]: Range): Check<number> =>
  (v, at) =>
    num(v, at, lo, hi);
const SHARE: Range = [0, 1];
const CORRELATION: Range = [-1 - ROUNDING, 1 + ROUNDING];
const NON_NEGATIVE: Range = [0, Infinity];
/**
 * A divergence is at least 0, but it is summed over float32 log-probs whose rows each sum to 1 only to float32's
 * precision, so a student and a teacher that agree can give a hair below 0.
 */
const DIVERGENCE: Range = [-1e-3, Infinity];
const rate = inRange(SHARE);
const orNull =
  <T>(check: Check<T>): Check<T | null> =>
  (v, at) =>
    v === null ? null : check(v, at);

/** What each teacher check's entries are (update_means.ts, TeacherPoint). */
const TEACHER_ENTRIES = "the update, then success with no skill, its own, another game's and the blank block";

/** The range of each mean of an update metric (update_means.ts). */
const METRIC_RANGES: Record<MeanMetric, Range> = {
  gradNormGrpo: NON_NEGATIVE,
  gradNormOpd: NON_NEGATIVE,
  gradNormRatio: NON_NEGATIVE,
  opdDeltaShare: SHARE,
  meanDivergence: DIVERGENCE,
  corrDeltaExpert: CORRELATION,
  corrDeltaAdvantageWon: CORRELATION,
  corrDeltaAdvantageLost: CORRELATION,
  meanAbsDelta: NON_NEGATIVE,
  forcedShare: SHARE,
  zeroVarianceGroups: SHARE,
  validationKl: DIVERGENCE,
};

/** The metrics added to MEAN_METRICS after runs were first kept: a kept run without one holds null for it. */
const ADDED_METRICS: readonly MeanMetric[] = ['opdDeltaShare'];

/** A list of exactly `length` entries (`what` says what the job gives them for), each checked. */
function list<T>(
  v: unknown,
  at: string,
  length: number,
  what: string,
  each: (x: unknown, at: string, i: number) => T,
): T[] {
  const a = array(v, at);
  if (a.length !== length) refuse(`${at} has ${a.length} entries, but the job gives ${length} (${what})`);
  return a.map((x, i) => each(x, `${at}[${i}]`, i));
}

/** The updates (from 1) after which a run evaluates its curve: every evalEvery-th and the last (job.ts). */
function evalUpdates(job: Job): number[] {
  const updates: number[] = [];
  if (job.kind === 'run')
    for (let u = 1; u <= job.updates; u++) if (u % job.evalEvery === 0 || u === job.updates) updates.push(u);
  return updates;
}

/**
 * Per task type of the world, a success rate: at most as many types as the split has games, and one at least if
 * it has any. A name is checked against the world's list: the report looks each up in every run's figures.
 */
function perType(v: unknown, at: string, games: number, taskTypes: readonly string[]): Record<string, number> {
  const o = object(v, at);
  const types = Object.keys(o);
  const stranger = types.find((type) => !taskTypes.includes(type));
  if (stranger !== undefined) refuse(`${at} names ${show(stranger)}, not a task type of the run's world`);
  if (types.length > Math.min(games, MAX_TYPES) || (games > 0 && types.length === 0))
    refuse(`${at} names ${types.length} task types for ${games} games`);
  for (const type of types) rate(o[type], `${at}[${JSON.stringify(type)}]`);
  return o as Record<string, number>;
}

const SCORE_KEYS = [
  'score_seen',
  'score_unseen',
  'scores_seen',
  'scores_unseen',
  'curve_score',
  'curve_scores',
] as const;

/**
 * A world with a score (the shop's WebShop score) keeps it beside success in every run but a sweep: each split's
 * mean, each eval game's and each point of the curve's, all in [0, 1]; a run of another world or a sweep has none.
 */
function checkScores(
  r: Record<string, unknown>,
  job: Job,
  seen: number,
  unseen: number,
  points: number,
  what: string,
): void {
  if (!factsOf(worldOrDefault(job.env)).scored || job.kind === 'sweep') {
    for (const key of SCORE_KEYS)
      if (r[key] !== undefined) refuse(`result.${key} is ${show(r[key])}, but this ${job.kind} job scores nothing`);
    return;
  }
  rate(r.score_seen, 'result.score_seen');
  rate(r.score_unseen, 'result.score_unseen');
  list(r.scores_seen, 'result.scores_seen', seen, 'one per eval-seen game', rate);
  list(r.scores_unseen, 'result.scores_unseen', unseen, 'one per eval-unseen game', rate);
  list(r.curve_score, 'result.curve_score', points, what, rate);
  list(r.curve_scores, 'result.curve_scores', points, what, (w, at) =>
    list(w, at, unseen, 'one per eval-unseen game', rate),
  );
}

/**
 * The result a kept file holds for `job`, checked whole; throws (one line, naming the first field in the way)
 * when the file is of another job, of another shape, or holds a number out of its range.
 */
export function checkKeptRun(value: unknown, job: Job): JobResult {
  const kept = object(value, 'the file');
  if (kept.job === undefined) refuse('it names no job');
  if (JSON.stringify(kept.job) !== JSON.stringify(job))
    refuse(`it holds the run of another job than the one its name stands for (job is ${show(kept.job)})`);
  const r = object(kept.result, 'result');
  const same = (key: keyof JobResult, expected: number | string) => {
    if (r[key] !== expected) refuse(`result.${key} is ${show(r[key])}, but the job's is ${show(expected)}`);
  };
  same('algo', job.algo);
  same('seed', job.seed);
  same('lr', job.config.lr);
  same('lambda', job.config.lambda);
  same('opid_weight', job.config.opidWeight);
  // A sweep run scores the validation-unseen games alone: its eval figures are NaN, which JSON writes as null.
  const sweep = job.kind === 'sweep';
  const counts = evalGameCounts(job.evalEpisodes, worldOrDefault(job.env));
  const seen = sweep ? 0 : counts.seen;
  const unseen = sweep ? 0 : counts.unseen;
  const nothing = (key: keyof JobResult) => {
    if (r[key] !== null) refuse(`result.${key} is ${show(r[key])}, but a ${job.kind} job has none (null)`);
  };
  for (const key of ['success_seen', 'success_unseen'] as const) sweep ? nothing(key) : rate(r[key], `result.${key}`);
  if (sweep) rate(r.success_validation, 'result.success_validation');
  else nothing('success_validation');
  const types = object(r.per_type, 'result.per_type');
  const { taskTypes } = factsOf(worldOrDefault(job.env));
  perType(types.seen, 'result.per_type.seen', seen, taskTypes);
  perType(types.unseen, 'result.per_type.unseen', unseen, taskTypes);

  const schedule = evalUpdates(job);
  const points = `one per evaluation, after update ${schedule.join(', ') || 'none'}`;
  const curve = list(r.curve, 'result.curve', schedule.length, points, (p, at) =>
    list(p, at, 2, 'training episodes and eval-unseen success', (x, where, k) =>
      k === 0 ? whole(x, where, 1, MAX_EPISODES) : rate(x, where),
    ),
  );
  for (let i = 1; i < curve.length; i++)
    if (curve[i][0] <= curve[i - 1][0])
      refuse(`result.curve[${i}] is at ${curve[i][0]} episodes, not after ${curve[i - 1][0]}`);
  list(r.curve_won, 'result.curve_won', schedule.length, points, (w, at) =>
    list(w, at, unseen, 'one per eval-unseen game', rate),
  );
  checkScores(r, job, seen, unseen, schedule.length, points);
  list(r.won_seen, 'result.won_seen', seen, 'one per eval-seen game', rate);
  list(r.won_unseen, 'result.won_unseen', unseen, 'one per eval-unseen game', rate);
  num(r.wall_s, 'result.wall_s', 0, MAX_WALL_SECONDS);

  orNull(rate)(r.valid_skill_rate, 'result.valid_skill_rate');
  orNull(rate)(r.skill_fidelity, 'result.skill_fidelity');
  orNull(num)(r.mean_delta, 'result.mean_delta');
  orNull(rate)(r.mean_gate, 'result.mean_gate');
  orNull(inRange(CORRELATION))(r.corr_delta_advantage, 'result.corr_delta_advantage');
  if (r.crossgame !== null) {
    const sources = object(r.crossgame, 'result.crossgame');
    for (const key of ['update', 'pool', 'none']) whole(sources[key], `result.crossgame.${key}`, 0, MAX_EPISODES);
  }
  whole(r.skipped_updates, 'result.skipped_updates', 0, job.updates);
  const means = object(r.metric_means, 'result.metric_means');
  for (const key of MEAN_METRIC_KEYS) {
    // A run kept before a metric existed did not measure it: it reads as not defined, as in a run without it.
    if (means[key] === undefined && ADDED_METRICS.includes(key)) means[key] = null;
    orNull(inRange(METRIC_RANGES[key]))(means[key], `result.metric_means.${key}`);
  }
  // A check at update 0 is the warm start's (job.teacherAt); the others follow updates 1..updates. A check kept
  // without the blank block's figure (four entries) is refused like any other shape: the run goes again.
  const teacher = array(r.teacher, 'result.teacher', job.updates + 1).map(
    (t, i) =>
      list(t, `result.teacher[${i}]`, 5, TEACHER_ENTRIES, (x, at, k) =>
        k === 0 ? whole(x, at, 0, job.updates) : rate(x, at),
      )[0] as number,
  );
  for (let i = 1; i < teacher.length; i++)
    if (teacher[i] <= teacher[i - 1])
      refuse(`result.teacher[${i}] is at update ${teacher[i]}, not after update ${teacher[i - 1]}`);
  const checked = new Set(teacher);
  array(r.teacher_kl, 'result.teacher_kl', teacher.length).forEach((t, i) => {
    const [update] = list(t, `result.teacher_kl[${i}]`, 2, 'the update, then the KL to the teacher', (x, at, k) =>
      k === 0 ? whole(x, at, 0, job.updates) : orNull(inRange(METRIC_RANGES.validationKl))(x, at),
    );
    if (!checked.has(update as number))
      refuse(`result.teacher_kl[${i}] is at update ${update}, where no teacher check ran`);
  });
  checkRecorded(r.recorded, job, schedule, curve);
  return r as unknown as JobResult;
}

/** What a recorded run keeps beyond the figures: both splits at each point of the curve, and its episodes. */
function checkRecorded(v: unknown, job: Job, schedule: number[], curve: number[][]): void {
  const record = job.kind === 'run' ? job.record : undefined;
  if (!record) {
    if (v !== undefined) refuse(`result.recorded is ${show(v)}, but the job keeps no record`);
    return;
  }
  const o = object(v, 'result.recorded');
  list(o.curve, 'result.recorded.curve', schedule.length, 'one per point of the curve', (p, at, i) => {
    const point = curvePoint(p, 'result.recorded.curve', i, job.updates);
    if (point[0] !== schedule[i] || point[1] !== curve[i][0])
      refuse(`${at} is at update ${point[0]} after ${point[1]} episodes, not as the curve says`);
    return point;
  });
  array(o.episodes, 'result.recorded.episodes', 10_000).forEach((e, i) => {
    const at = `result.recorded.episodes[${i}]`;
    const kept = episode(e, at, job.updates);
    if (kept.algo !== job.algo || kept.seed !== job.seed)
      refuse(`${at} is of ${kept.algo} seed ${kept.seed}, not of the job's ${job.algo} seed ${job.seed}`);
    if (!record.episodeUpdates.includes(kept.update))
      refuse(`${at}.update is ${kept.update}, not one the job keeps (${record.episodeUpdates.join(', ') || 'none'})`);
  });
}

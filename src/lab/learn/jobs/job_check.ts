// The check a job of `bench learn` passes before a worker runs it from a file (`--worker FILE`, a job of a plan's
// folder: plan_dir.ts): a job file is input like any other (copied between machines, edited by hand, cut short),
// so every field is checked against what runJob reads, and a field the job does not have is refused too. The
// job comes back as it was read, key order kept: its JSON is what a result file is matched against.
import { isPresetName } from '../../../model/config.ts';
import { checkConfig, TRAIN_KEYS } from '../../../rl/config.ts';
import { isAlgo } from '../../../rl/arms.ts';
import { array, num, object, refuse, show, whole } from '../../../rl/recorded_run_check.ts';
import { isEnvironmentName } from '../../../worlds/names.ts';
import { LIMITS } from '../../../cli/limits.ts';
import type { Job } from './job.ts';

const KINDS: readonly Job['kind'][] = ['run', 'sweep', 'warmstart'];
const KEYS = new Set([
  'kind',
  'algo',
  'seed',
  'updates',
  'config',
  'init',
  'evalEvery',
  'evalEpisodes',
  'evalSamples',
  'preset',
  'env',
  'record',
  'teacherAt',
]);
const limits = LIMITS.benchLearn;
/** The largest seed a job runs: a sweep's seeds start at SWEEP_SEED (1000) and count up to --sweep-seeds. */
const MAX_SEED = 10_000;

const updates = (v: unknown, at: string, most: number) =>
  array(v, at, most + 1).map((u, i) => whole(u, `${at}[${i}]`, 0, most));

/** `value` as a job, checked whole; throws (one line, naming the first field in the way) when it is none. */
export function checkJob(value: unknown): Job {
  const job = object(value, 'the job');
  const stranger = Object.keys(job).find((key) => !KEYS.has(key));
  if (stranger !== undefined) refuse(`the job has a field ${show(stranger)} that no job has`);
  if (!KINDS.includes(job.kind as Job['kind'])) refuse(`job.kind is ${show(job.kind)}, not one of ${KINDS.join(', ')}`);
  if (typeof job.algo !== 'string' || !isAlgo(job.algo)) refuse(`job.algo is ${show(job.algo)}, not an algorithm`);
  whole(job.seed, 'job.seed', 0, MAX_SEED);
  const most = job.kind === 'sweep' ? limits['sweep-updates'].max : limits.updates.max;
  whole(job.updates, 'job.updates', 0, most);
  const config = object(job.config, 'job.config');
  const missing = TRAIN_KEYS.find((key) => typeof config[key] !== 'number');
  if (missing !== undefined) refuse(`job.config.${missing} is ${show(config[missing])}, not a number`);
  const extra = Object.keys(config).find((key) => !(TRAIN_KEYS as readonly string[]).includes(key));
  if (extra !== undefined) refuse(`job.config has a setting ${show(extra)} that no run has`);
  try {
    checkConfig({ ...(config as Job['config']) });
  } catch (err) {
    refuse(`job.config: ${(err as Error).message}`);
  }
  if (typeof job.init !== 'string' || job.init === '') refuse(`job.init is ${show(job.init)}, not a file name`);
  whole(job.evalEvery, 'job.evalEvery', limits['eval-every'].min, limits['eval-every'].max);
  whole(job.evalEpisodes, 'job.evalEpisodes', limits['eval-episodes'].min, limits['eval-episodes'].max);
  whole(job.evalSamples, 'job.evalSamples', limits['eval-samples'].min, limits['eval-samples'].max);
  if (job.preset !== undefined && !(typeof job.preset === 'string' && isPresetName(job.preset)))
    refuse(`job.preset is ${show(job.preset)}, not a preset`);
  if (job.env !== undefined && !(typeof job.env === 'string' && isEnvironmentName(job.env)))
    refuse(`job.env is ${show(job.env)}, not a world`);
  if (job.record !== undefined) {
    const record = object(job.record, 'job.record');
    const other = Object.keys(record).find((key) => key !== 'episodeUpdates');
    if (other !== undefined) refuse(`job.record has a field ${show(other)} that no record has`);
    updates(record.episodeUpdates, 'job.record.episodeUpdates', num(job.updates, 'job'));
  }
  if (job.teacherAt !== undefined) updates(job.teacherAt, 'job.teacherAt', num(job.updates, 'job'));
  return job as unknown as Job;
}

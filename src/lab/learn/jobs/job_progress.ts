// The progress of one `bench learn` job, kept in a folder after each point of its curve, so that a job cut short
// (a killed session, a crash) goes on from its last point instead of its first update: the run's checkpoints
// (run_checkpoint.ts: weights, AdamW state, counters, the skills it keeps between updates, a held teacher) and
// what the job has gathered (its curve, the sums of its update means, its teacher checks, its recorded episodes,
// the wall seconds spent). The update counter is the run's whole Rng state, so a job that goes on ends bit for
// bit as one never cut. The folder is written beside itself and renamed into place: whole or absent. A folder
// that does not fit the job is moved aside (DIR.damaged) with a line that says why, and the job starts over.
// Only a progress folder is ever removed or moved aside (progressFolderProblem): one that holds nothing but
// what keepProgress writes, its mark among them; a folder that holds anything else is left as it is. Only such
// folders are left out when a worker checks the tree for uncommitted changes (progressFoldersBeside).
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { messageOf } from '../../../common/errors.ts';
import { quote } from '../../../common/json.ts';
import { writeCheckpoint } from '../../../model/checkpoint.ts';
import type { PresetName } from '../../../model/config.ts';
import type { CurvePoint, RecordedEpisode } from '../../../rl/recorded_run.ts';
import { restoreRun, runCheckpoints } from '../../../rl/run_checkpoint.ts';
import { runMetadata } from '../../../rl/run_metadata.ts';
import type { Trainer } from '../../../rl/trainer.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { asideName, readCheckpointBytes, readTextInput } from '../../../cli/io.ts';
import { MEAN_METRIC_KEYS, MeansOfUpdates, type MeansSums, type TeacherPoint } from './update_means.ts';

const PROGRESS_FORMAT = 'seed-learn-job-progress';
const STATE_FILE = 'progress.json';
const CHECKPOINTS = { current: 'last.ckpt', reference: 'reference.ckpt', teacher: 'teacher.ckpt' } as const;
/** Written first into every folder of progress, so that one cut before its state is written is known as one. */
const MARK_FILE = 'seed-learn-job-progress';
const PROGRESS_NAMES: ReadonlySet<string> = new Set([MARK_FILE, STATE_FILE, ...Object.values(CHECKPOINTS)]);
/** The most bytes the state is read to: a recorded run keeps a few megabytes of episodes. */
const MAX_STATE_BYTES = 64 << 20;

/** What a job has gathered up to the update it reached. */
export interface Gathered {
  /** Eval-unseen success by training episodes, with per game its episodes won and, with a score, the scores. */
  curve: [number, number][];
  curveWon: number[][];
  curveScore: number[];
  curveScores: number[][];
  /** A recorded run's curve of both splits and its kept episodes; null when the run is not recorded. */
  record: { curve: CurvePoint[]; episodes: RecordedEpisode[] } | null;
  means: MeansOfUpdates;
  teacherChecks: TeacherPoint[];
  teacherKl: [number, number | null][];
  /** Wall seconds the job spent before the stretch now running. */
  earlierSeconds: number;
}

export function nothingGathered(recorded: boolean): Gathered {
  return {
    curve: [],
    curveWon: [],
    curveScore: [],
    curveScores: [],
    record: recorded ? { curve: [], episodes: [] } : null,
    means: new MeansOfUpdates(),
    teacherChecks: [],
    teacherKl: [],
    earlierSeconds: 0,
  };
}

/** Where a job keeps its progress, whose it is, and who hears of it. */
export interface JobProgress {
  dir: string;
  /**
   * What the progress must have been kept for to be gone on from: the job, the code that runs it and its init
   * weights (the job store's key; the worker's job and commit).
   */
  key: string;
  log: (line: string) => void;
  /** Told after each kept point, with the updates done. */
  onKept?: (updates: number) => void | Promise<void>;
}

/**
 * Why `dir` is not a folder of a job's progress, which may be removed (null when it is one, is empty or is
 * absent): a link, not a folder, or a folder holding a file keepProgress never writes, or without its mark.
 */
export async function progressFolderProblem(dir: string): Promise<string | null> {
  const info = await lstat(dir).catch(() => null);
  if (info === null) return null;
  if (info.isSymbolicLink()) return 'it is a link';
  if (!info.isDirectory()) return 'it is not a folder';
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    return `it cannot be listed (${messageOf(err)})`;
  }
  const other = names.find((name) => !PROGRESS_NAMES.has(name));
  if (other !== undefined) return `it holds ${quote(other)}, which a job's progress never holds`;
  if (names.length > 0 && !names.includes(MARK_FILE) && !names.includes(STATE_FILE))
    return "it holds no job's progress";
  return null;
}

/**
 * `dir`, its `dir.new`, and every folder beside them that holds a job's progress, its mark among what it holds
 * (another job's, as a plan's progress/N are, or one moved aside): what jobs write, which a check of the source
 * tree for changes leaves out. A folder beside them that holds anything else, or no mark, is not among them.
 */
export async function progressFoldersBeside(dir: string): Promise<string[]> {
  const parent = dirname(dir);
  const names = await readdir(parent).catch(() => [] as string[]);
  const marked: string[] = [];
  for (const name of names) {
    const folder = join(parent, name);
    const held = await readdir(folder).catch(() => null);
    if (held?.includes(MARK_FILE) && (await progressFolderProblem(folder)) === null) marked.push(folder);
  }
  return [dir, `${dir}.new`, ...marked];
}

/** Refuses to go on where `dir` is not a progress folder: nothing there is removed or moved. */
async function checkProgressFolder(dir: string): Promise<void> {
  const problem = await progressFolderProblem(dir);
  if (problem !== null) throw new CliError(`${dir} is not a job's progress folder (${problem}): it is left as it is`);
}

/** The JSON of the state: a number that is not finite (a curve point still to come, NaN) kept as text. */
const NON_FINITE = '$nonFinite';
const encode = (value: unknown) =>
  JSON.stringify(value, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? { [NON_FINITE]: String(v) } : v));
const decode = (text: string): unknown =>
  JSON.parse(text, (_, v) =>
    v !== null && typeof v === 'object' && typeof v[NON_FINITE] === 'string' ? Number(v[NON_FINITE]) : v,
  );

interface SavedState {
  format: typeof PROGRESS_FORMAT;
  key: string;
  updates: number;
  gathered: Omit<Gathered, 'means'> & { means: MeansSums };
}

/**
 * Keeps the trainer's run and what the job gathered, after `trainer.updates` updates that took `seconds` of
 * wall time in all. A folder that cannot be written is said in one line: the run goes on, a cut would start it
 * over.
 */
export async function keepProgress(
  progress: JobProgress,
  trainer: Trainer,
  preset: PresetName,
  vocabHash: string,
  gathered: Gathered,
  seconds: number,
): Promise<void> {
  const next = `${progress.dir}.new`;
  let made = false;
  try {
    const checkpoints = await runCheckpoints(trainer, preset, vocabHash);
    await checkProgressFolder(next);
    await checkProgressFolder(progress.dir);
    await rm(next, { recursive: true, force: true });
    await mkdir(next, { recursive: true });
    made = true;
    await writeFile(join(next, MARK_FILE), '');
    for (const part of ['current', 'reference', 'teacher'] as const) {
      const ck = checkpoints[part];
      if (ck) await writeFile(join(next, CHECKPOINTS[part]), writeCheckpoint(ck));
    }
    const state: SavedState = {
      format: PROGRESS_FORMAT,
      key: progress.key,
      updates: trainer.updates,
      gathered: { ...gathered, means: gathered.means.sums(), earlierSeconds: seconds },
    };
    await writeFile(join(next, STATE_FILE), encode(state));
    await rm(progress.dir, { recursive: true, force: true });
    await rename(next, progress.dir);
  } catch (err) {
    progress.log(
      `could not keep the progress of a run in ${progress.dir} (${messageOf(err)}): a cut would start it over`,
    );
    if (made) await rm(next, { recursive: true, force: true }).catch(() => undefined);
    return;
  }
  await progress.onKept?.(trainer.updates);
}

const isList = (v: unknown, length?: number) => Array.isArray(v) && (length === undefined || v.length === length);

/** The state file's fields this job needs, checked; throws a one-line reason when they do not fit. */
function checkState(value: unknown, key: string, updates: number): SavedState {
  const s = value as Partial<SavedState> | null;
  if (s === null || typeof s !== 'object' || s.format !== PROGRESS_FORMAT)
    throw new Error(`${STATE_FILE} is not a job's progress`);
  if (s.key !== key) throw new Error("it is another job's progress, or one kept by other code or weights");
  if (!Number.isInteger(s.updates) || s.updates! < 1 || s.updates! >= updates)
    throw new Error(`it stops at update ${String(s.updates)}, not between 1 and ${updates - 1}`);
  const g = s.gathered;
  const n = Array.isArray(g?.curve) ? g.curve.length : -1;
  if (
    !g ||
    !isList(g.curve) ||
    !isList(g.curveWon, n) ||
    !isList(g.curveScore, n) ||
    !isList(g.curveScores, n) ||
    !isList(g.teacherChecks) ||
    !isList(g.teacherKl) ||
    !(g.record === null || (isList(g.record?.curve) && isList(g.record?.episodes))) ||
    typeof g.earlierSeconds !== 'number' ||
    typeof g.means?.metrics !== 'object' ||
    g.means.metrics === null ||
    MEAN_METRIC_KEYS.some((k) => !isList(g.means.metrics[k], 2))
  )
    throw new Error(`${STATE_FILE} lacks what the job gathered`);
  if (!g.teacherChecks.every((c) => isList(c, 5)) || !(g.means.teacher ?? []).every((c) => isList(c, 5)))
    throw new Error(`${STATE_FILE} holds teacher checks without the blank block's figure`);
  return s as SavedState;
}

/**
 * The progress kept in `progress.dir` for this job, its run loaded into `trainer`; null when there is none, or
 * when it does not fit the job (moved aside and said in one line: the job starts over).
 */
export async function resumeProgress(
  progress: JobProgress,
  updates: number,
  trainer: Trainer,
  vocabHash: string,
): Promise<Gathered | null> {
  await checkProgressFolder(progress.dir);
  const held = await readdir(progress.dir).catch(() => null);
  if (held === null || held.length === 0) return null;
  try {
    const state = checkState(
      decode(await readTextInput(join(progress.dir, STATE_FILE), MAX_STATE_BYTES)),
      progress.key,
      updates,
    );
    const read = async (name: string) => (await readCheckpointBytes(join(progress.dir, name), vocabHash)).checkpoint;
    const current = await read(CHECKPOINTS.current);
    const reference = await read(CHECKPOINTS.reference);
    const teacher = held.includes(CHECKPOINTS.teacher) ? await read(CHECKPOINTS.teacher) : null;
    const at = runMetadata(current).updates;
    if (at !== state.updates) throw new Error(`its checkpoint is at update ${at}, its state at ${state.updates}`);
    await restoreRun(trainer, current, reference, teacher);
    progress.log(`a run goes on from update ${state.updates}, kept in ${progress.dir}`);
    return { ...state.gathered, means: MeansOfUpdates.from(state.gathered.means) };
  } catch (err) {
    const aside = await asideName(progress.dir);
    const moved = await rename(progress.dir, aside).then(
      () => `moved to ${aside}`,
      (e) => `left as it is (${messageOf(e)})`,
    );
    progress.log(`${progress.dir} cannot be used (${messageOf(err)}): ${moved}, and its run starts over`);
    return null;
  }
}

/** Removes a job's progress once its result is kept; throws, removing nothing, where it is no progress folder. */
export async function dropProgress(dir: string): Promise<void> {
  await checkProgressFolder(dir);
  await checkProgressFolder(`${dir}.new`);
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}.new`, { recursive: true, force: true });
}

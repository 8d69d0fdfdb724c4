// The weights the teacher re-scores with (config teacherRefresh = K). The paper's teacher is the pre-update
// policy with the skill in context (K = 1): as the student learns, so does its teacher, and the teacher's lead
// can close. A teacher refreshed every K updates keeps the weights of the last update divisible by K; K = 0
// never refreshes it, and the weights the run started from are the reference's (the KL term's frozen policy).
// A frozen control (`<arm>-frozen`) runs at K = 0 whatever the setting (config.ts, teacherRefreshOf).
// The held weights are part of a run's state: a run checkpoint carries them (run_checkpoint.ts).
import type { ParameterSet } from '../backend/backend.ts';
import type { TrainConfig } from './config.ts';
import { teacherRefreshOf } from './arms.ts';
import type { UpdateContext } from './update_state.ts';

/** What the teacher reads when the config asks for a held copy of the weights (K > 1). */
export interface HeldTeacher {
  /** The weights taken at the last refresh; null before the first. */
  teacherParams: Float32Array | null;
}

/** Whether the teacher of update `update` is taken afresh from the current weights (K > 1 only). */
function refreshesAt(k: number, update: number, held: HeldTeacher): boolean {
  return k > 1 && (held.teacherParams === null || update % k === 0);
}

/**
 * Before an update: takes the current weights as the teacher where the config says so; drops a held copy
 * when the config no longer needs one (K = 0 or 1), so a checkpoint never carries stale weights.
 */
export async function refreshTeacher(
  run: Pick<UpdateContext, 'backend' | 'algo'>,
  config: Pick<TrainConfig, 'teacherRefresh'>,
  update: number,
  held: HeldTeacher,
): Promise<void> {
  const k = teacherRefreshOf(run.algo, config);
  if (k <= 1) held.teacherParams = null;
  else if (refreshesAt(k, update, held)) held.teacherParams = await run.backend.readParameters('current');
}

/**
 * Runs `score` with the teacher's weights in place: the current weights (K = 1), the reference (K = 0), or
 * the held copy swapped in for the call and swapped back after it, whatever the call does.
 */
export async function withTeacher<T>(
  run: Pick<UpdateContext, 'backend' | 'algo'> & Partial<HeldTeacher>,
  config: Pick<TrainConfig, 'teacherRefresh'>,
  score: (set: ParameterSet) => Promise<T>,
): Promise<T> {
  const k = teacherRefreshOf(run.algo, config);
  if (k === 1) return score('current');
  if (k === 0) return score('reference');
  const teacher = run.teacherParams;
  if (!teacher) throw new Error(`teacherRefresh ${k}: no teacher weights held (internal error)`);
  const current = await run.backend.readParameters('current');
  await run.backend.writeParameters(teacher);
  try {
    return await score('current');
  } finally {
    await run.backend.writeParameters(current);
  }
}

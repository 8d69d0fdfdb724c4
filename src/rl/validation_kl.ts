// KL(student || teacher) on held-out states: on the validation games the teacher check plays, at every
// decision position of the student's own first play (more than one allowed token), the exact reverse KL from
// the plain policy to the teacher's weights (the same weights unless the run holds a frozen teacher:
// teacher_weights.ts) with the trajectory's own hindsight skill in context. It says whether training brings the
// student toward its skill-conditioned teacher on states it never trained on.
import { maskWords } from '../backend/backend.ts';
import { distilDivergence } from '../backend/cpu/distil.ts';
import { packBatch } from './batch.ts';
import type { TrainConfig } from './config.ts';
import { hadChoice } from './diagnostics.ts';
import { skillSequences } from './rescore.ts';
import type { Trajectory } from './rollout.ts';
import { withTeacher } from './teacher_weights.ts';
import type { UpdateContext } from './update_state.ts';

/** Mean KL(student || own-skill teacher) over the decision tokens of the trajectories with a skill; null without any. */
export async function validationDivergence(
  run: UpdateContext,
  trajectories: readonly Trajectory[],
  skills: readonly (string | null)[],
  config: TrainConfig,
): Promise<number | null> {
  const pairs = trajectories.flatMap((t, i) => (skills[i] === null ? [] : [{ t, skill: skills[i]! }]));
  if (pairs.length === 0) return null;
  const V = run.backend.config.vocabSize;
  const words = maskWords(V);
  const plain = packBatch(
    pairs.flatMap((p) => p.t.sequences),
    run.tok.padId,
  );
  const student = await run.backend.scoreRows(plain, 'current');
  const skilled = packBatch(
    pairs.flatMap((p) => skillSequences(run, p.t, p.skill, config)),
    run.tok.padId,
  );
  const teacher = await withTeacher(run, config, (set) => run.backend.scoreRows(skilled, set));
  const kl = new Float32Array(1);
  let sum = 0;
  let n = 0;
  for (let k = 0; k < plain.masks.length / words; k++) {
    if (!hadChoice(plain.masks, k * words, words)) continue;
    const row = [k * V, (k + 1) * V] as const;
    distilDivergence(
      kl,
      student.subarray(...row),
      teacher.subarray(...row),
      plain.masks.subarray(k * words, (k + 1) * words),
      1,
      V,
      0,
    );
    sum += kl[0];
    n++;
  }
  return n ? sum / n : null;
}

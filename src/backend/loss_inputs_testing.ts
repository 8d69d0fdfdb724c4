// Test inputs for the SEED loss of a batch: random advantages, every third token outside the OPD mask, and
// l_skill, l_old, l_ref scattered around the scored l_student. Shared by the tests of both backends.
import { Rng } from '../common/rng.ts';
import type { LossInputs } from './backend.ts';

export function randomLossInputs(lStudent: Float32Array, seed: number): LossInputs {
  const rng = new Rng(seed);
  const n = lStudent.length;
  const near = () => Float32Array.from(lStudent, (l) => l + 0.3 * rng.normal());
  return {
    advantage: Float32Array.from({ length: n }, () => rng.normal()),
    mask: new Float32Array(n).fill(1),
    opdMask: Float32Array.from({ length: n }, (_, k) => (k % 3 === 0 ? 0 : 1)),
    lSkill: near(),
    lOld: near(),
    lRef: near(),
  };
}

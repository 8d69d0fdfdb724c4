// The loss settings every speed benchmark times the loss with: the paper's beta and clip, and a lambda and KL weight
// that keep every term of the loss on. A pass costs the same whatever the values, so one set serves every bench.
import type { LossHyper } from '../../backend/backend.ts';

export const BENCH_LOSS: Readonly<LossHyper> = { lambda: 0.5, beta: 5, clip: 0.2, klCoef: 0.01, gate: true };

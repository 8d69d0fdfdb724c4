// The residual connection: out = a + b; its gradient flows unchanged into both branches.
import type { Floats } from './floats.ts';

export function residualForward(out: Floats, inp1: Floats, inp2: Floats, N: number): void {
  for (let i = 0; i < N; i++) out[i] = inp1[i] + inp2[i];
}

/** Accumulates into dinp1 and dinp2. */
export function residualBackward(dinp1: Floats, dinp2: Floats, dout: Floats, N: number): void {
  for (let i = 0; i < N; i++) {
    dinp1[i] += dout[i];
    dinp2[i] += dout[i];
  }
}

import { describe, expect, it } from 'vitest';
import type { UpdateMetrics } from '../../worker/protocol.ts';
import { metrics } from '../curves_testing.ts';
import { nextPairedPoint } from './eta.ts';

/** An arm's curve: the warm start's evaluation (900 ms), then `updates` updates of 1 s, evaluated as the schedule says. */
function arm(updates: number, evalEvery: number, trainMs = 1000, evalMs = 500): UpdateMetrics[] {
  const warm = { ...metrics('grpo', 0, 0.3), updateMs: null, evalMs: 900 };
  return [
    warm,
    ...Array.from({ length: updates }, (_, k) => {
      const update = k + 1;
      const evaluated = update === 1 || update % evalEvery === 0;
      return {
        ...metrics('grpo', update, evaluated ? 0.4 : null),
        evalMs: evaluated ? evalMs : null,
        updateMs: trainMs + (evaluated ? evalMs : 0),
      };
    }),
  ];
}

describe("a race's next paired point", () => {
  it('is update 1 before any pair, due once each arm has timed an update', () => {
    expect(nextPairedPoint(arm(0, 5), arm(0, 5), 5)).toEqual({ update: 1, seconds: null });
    // One arm timed, the other not: still unknown.
    expect(nextPairedPoint(arm(0, 5), arm(1, 5), 5)).toEqual({ update: 1, seconds: null });
  });

  it('is the next evaluation of the schedule after the last pair, due when the slower arm reaches it', () => {
    // Both evaluated update 1: next is 5. GRPO has 3 done: 2 more updates of 1 s and an evaluation of 0.5 s.
    // SEED has 2 done at 2 s an update: 3 more and an evaluation of 0.5 s, the later.
    expect(nextPairedPoint(arm(3, 5), arm(2, 5, 2000), 5)).toEqual({ update: 5, seconds: 6.5 });
    // An arm that has the point already waits for nothing: the other's time alone.
    expect(nextPairedPoint(arm(7, 5), arm(4, 5), 5)).toEqual({ update: 5, seconds: 1.5 });
    // Pairs at 1, 5 and 10 (evalEvery 5): next is 15.
    expect(nextPairedPoint(arm(12, 5), arm(10, 5), 5)).toEqual({ update: 15, seconds: 5.5 });
    // Every update evaluated.
    expect(nextPairedPoint(arm(2, 1), arm(2, 1), 1)).toEqual({ update: 3, seconds: 1.5 });
  });
});

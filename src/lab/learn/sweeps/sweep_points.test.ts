// The points of a sweep: the step past a grid's edge, and a value's summary over the seeds that finished.
import { describe, expect, it } from 'vitest';
import { bestPoint, pastEdge, sweepPoints, type SweepRun } from './sweep_points.ts';

describe('bench learn: the points of a sweep', () => {
  it("steps past an edge at the ratio of its two nearest values, within the setting's range", () => {
    expect(pastEdge([0.03, 0.1, 0.3], 0.3, 'lambda')).toBe(0.9);
    expect(pastEdge([0.03, 0.1, 0.3], 0.03, 'lambda')).toBe(0.009);
    expect(pastEdge([0.03, 0.1, 0.3], 0.1, 'lambda')).toBeNull();
    expect(pastEdge([5e-4, 1e-3], 1e-3, 'lr')).toBe(2e-3);
    expect(pastEdge([0.3, 0.6], 0.6, 'lr')).toBeNull();
    expect(pastEdge([0.1], 0.1, 'lr')).toBeNull();
    // A rehearsal grid from 0 has no step past either edge by its ratio; past its top it stays within 10.
    expect(pastEdge([0, 1], 0, 'rehearsal')).toBeNull();
    expect(pastEdge([0, 1], 1, 'rehearsal')).toBeNull();
    expect(pastEdge([0.3, 1], 1, 'rehearsal')).toBe(3.33);
    expect(pastEdge([1, 5], 5, 'rehearsal')).toBeNull();
  });

  it('summarises a value over the seeds that finished, and takes the first of equal means', () => {
    const run = (
      lambda: number,
      seed: number,
      success: number,
      ratio: number | null,
      [grpo, opd]: (number | null)[] = [null, null],
    ): SweepRun => ({
      param: 'lambda',
      algo: 'seed',
      seed,
      lr: 5e-4,
      lambda,
      opidWeight: 1e-3,
      rehearsal: 0,
      success_validation: success,
      grad_norm_ratio: ratio,
      grad_norm_grpo: grpo,
      grad_norm_opd: opd,
      opd_share: grpo === null || opd === null ? null : opd / (grpo + opd),
    });
    const points = sweepPoints(
      [
        run(0.1, 1001, 0.4, 0.2, [2, 1]),
        run(0.1, 1000, 0.2, null, [4, 1]),
        run(0.1, 1002, 0.3, null),
        run(0.3, 1000, 0.3, 0.6),
      ],
      'lambda',
      'seed',
      [0.03, 0.1, 0.3],
    );
    // The share of the mean norms (3 and 1) over the runs that measured them, not the mean of their shares (4/15).
    expect(points.map((p) => [p.value, p.seeds, p.success, p.grad_norm_ratio, p.opd_share])).toEqual([
      [0.1, [1000, 1001, 1002], 0.30000000000000004, 0.2, 0.25],
      [0.3, [1000], 0.3, 0.6, null],
    ]);
    expect(bestPoint(points)!.value).toBe(0.1);
    expect(bestPoint([])).toBeNull();
  });
});

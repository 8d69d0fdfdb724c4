import { describe, expect, it } from 'vitest';
import type { UpdateMetrics } from '../../../rl/trainer.ts';
import { MEAN_METRIC_KEYS, MeansOfUpdates } from './update_means.ts';

/** An update's metrics with only the figures these means read; the others as a refused update leaves them. */
function update(figures: Partial<UpdateMetrics>): UpdateMetrics {
  const none = Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, null]));
  return {
    meanDelta: 0,
    meanGate: 0,
    validSkillRate: null,
    skillFidelity: null,
    corrDeltaAdvantage: null,
    crossgame: null,
    skipped: null,
    ...none,
    ...figures,
  } as UpdateMetrics;
}

describe("bench learn: means over a run's updates", () => {
  it('averages each listed metric over the updates where it is not null, and gives null when none has it', () => {
    const means = new MeansOfUpdates();
    means.add(update({ gradNormGrpo: 2, gradNormRatio: 0.1 }));
    means.add(update({ gradNormGrpo: 4, gradNormRatio: null, skipped: { term: 'L_GRPO', where: 'loss' } }));
    means.add(update({ gradNormGrpo: 6, gradNormRatio: 0.3 }));
    const r = means.result();
    expect(r.metric_means.gradNormGrpo).toBe(4);
    expect(r.metric_means.gradNormRatio).toBeCloseTo(0.2, 12);
    expect(r.metric_means.meanDivergence).toBeNull();
    expect(r.skipped_updates).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import type { TrajectoryView, UpdateMetrics } from '../worker/protocol.ts';
import {
  EMPTY_RECORD,
  afterImport,
  applyEvent,
  colourOf,
  colourScale,
  filterTrajectories,
  keepSelection,
  isForced,
  recordWithCurves,
  robustBound,
  tokenValue,
  type RunRecord,
} from './run_record.ts';

function trajectory(
  run: 'seed' | 'grpo',
  update: number,
  index: number,
  won: boolean,
  delta: number[] = [],
  forced: number[] = [],
): TrajectoryView {
  const f = (a: number[]) => Float32Array.from(a);
  return {
    run,
    update,
    index,
    task: Math.floor(index / 2),
    episode: index % 2,
    goal: 'put a mug in cabinet',
    taskType: 'put',
    opening: 'You are in the middle of a room.',
    steps: [],
    won,
    reward: won ? 10 : 0,
    invalidSteps: 0,
    tokens: delta.map(() => 'go'),
    choice: Uint8Array.from(delta, (_, k) => (forced.includes(k) ? 0 : 1)),
    lOld: f(delta.map(() => -1)),
    advantage: null,
    skill: null,
    scores:
      delta.length === 0
        ? null
        : {
            lStudent: f(delta),
            lSkill: f(delta),
            lRef: f(delta),
            delta: f(delta),
            gate: f(delta),
            coef: f(delta.map((d) => -d)),
            coefGrpo: f(delta),
            coefOpd: f(delta),
            coefKl: f(delta),
            divergence: f(delta.map((d) => d * d)),
            mask: f(delta),
            opdMask: f(delta),
          },
  };
}

function metrics(run: 'seed' | 'grpo', update: number, evalSeen: number | null = null): UpdateMetrics {
  return {
    run,
    update,
    episodes: update * 8,
    successTrain: 0.25,
    meanReward: 1.5,
    L_GRPO: -0.1,
    L_OPD: 0.2,
    KL: 0.001,
    total: 0.05,
    lambda: 0.1,
    beta: 5,
    meanDelta: 0.1,
    meanGate: 0.6,
    validSkillRate: 0.75,
    skillFidelity: 0.5,
    skillPlaceTrue: 0.6,
    skillPlaceFalse: 0.05,
    corrDeltaAdvantage: 0.2,
    gradNorm: 1.2,
    gradNormGrpo: null,
    gradNormOpd: null,
    gradNormRatio: null,
    opdShare: null,
    opdDeltaShare: null,
    meanDivergence: null,
    evalSeen,
    evalUnseen: evalSeen,
    tokens: 90,
    tokensPerSecond: 100,
    wallMs: 900,
    rolloutMs: 500,
    rewardsMs: 1,
    skillsMs: 100,
    rescoreMs: 99,
    lossMs: 150,
    optimizerMs: 50,
    currentPassMs: 50,
    referencePassMs: 49,
    evalMs: null,
    updateMs: 950,
    skipped: null,
    meanAbsDelta: 0.4,
    forcedShare: 0.6,
    corrDeltaAdvantageWon: 0.1,
    corrDeltaAdvantageLost: -0.1,
    corrDeltaExpert: 0.3,
    zeroVarianceGroups: 0.25,
    teacherNoSkill: null,
    teacherOwnSkill: null,
    teacherOtherSkill: null,
    teacherBlankSkill: null,
    validationKl: null,
    degenerateSkillRate: null,
  };
}

describe('run record', () => {
  it('collects the trajectories of an update as they finish, in index order, and starts over at the next update', () => {
    let rec: RunRecord = EMPTY_RECORD;
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory('seed', 1, 2, true) });
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory('seed', 1, 0, false) });
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory('grpo', 1, 0, false) });
    expect(rec.batch.seed.map((t) => t.index)).toEqual([0, 2]);
    expect(rec.batch.grpo.map((t) => t.index)).toEqual([0]);
    // A re-sent trajectory (scored later) replaces the first copy.
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory('seed', 1, 2, true, [0.5]) });
    expect(rec.batch.seed.map((t) => t.index)).toEqual([0, 2]);
    expect(rec.batch.seed[1].scores?.delta[0]).toBe(0.5);
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory('seed', 2, 1, true) });
    expect(rec.batch.seed.map((t) => [t.update, t.index])).toEqual([[2, 1]]);
    expect(rec.batchUpdate).toEqual({ seed: 2, grpo: 1 });
  });

  it('adds one curve point per run and update, replacing a repeated update', () => {
    let rec = EMPTY_RECORD;
    rec = applyEvent(rec, { type: 'update', metrics: metrics('seed', 2) });
    rec = applyEvent(rec, { type: 'update', metrics: metrics('seed', 1) });
    rec = applyEvent(rec, { type: 'update', metrics: metrics('grpo', 1) });
    rec = applyEvent(rec, { type: 'update', metrics: { ...metrics('seed', 2), meanReward: 3 } });
    expect(rec.curves.seed.map((m) => [m.update, m.meanReward])).toEqual([
      [1, 1.5],
      [2, 3],
    ]);
    expect(recordWithCurves(rec.curves.seed).curves.seed).toEqual(rec.curves.seed);
  });

  it('keeps the last five errors', () => {
    let rec = EMPTY_RECORD;
    for (let i = 0; i < 7; i++) rec = applyEvent(rec, { type: 'error', message: `e${i}` });
    expect(rec.errors).toEqual(['e2', 'e3', 'e4', 'e5', 'e6']);
  });

  it('drops the errors of the replaced weights once a checkpoint is imported, and the curves too for a run checkpoint', () => {
    let rec = applyEvent(EMPTY_RECORD, { type: 'update', metrics: metrics('seed', 1) });
    rec = applyEvent(rec, { type: 'error', message: 'cannot sample: the logits are not finite' });
    expect(afterImport(rec, false)).toMatchObject({ errors: [], stage: {}, curves: rec.curves });
    expect(afterImport(rec, true)).toMatchObject({ errors: [], curves: {} });
  });

  it('filters by outcome and keeps a selection that is still shown', () => {
    const list = [trajectory('seed', 1, 0, true), trajectory('seed', 1, 1, false), trajectory('seed', 1, 2, true)];
    expect(filterTrajectories(list, 'success').map((t) => t.index)).toEqual([0, 2]);
    expect(filterTrajectories(list, 'failure').map((t) => t.index)).toEqual([1]);
    expect(filterTrajectories(list, 'all')).toHaveLength(3);
    expect(keepSelection(filterTrajectories(list, 'success'), 2)).toBe(2);
    expect(keepSelection(filterTrajectories(list, 'success'), 1)).toBe(0);
    expect(keepSelection([], 1)).toBeNull();
  });
});

describe('colour scales', () => {
  it('spans the 95th percentile of |value| of the batch symmetrically; gate spans [0, 1]', () => {
    const list = [trajectory('seed', 1, 0, true, [0.5, -2]), trajectory('seed', 1, 1, false, [1])];
    expect(colourScale(list, 'delta')).toEqual({ range: [-2, 2], largest: 2 });
    expect(colourScale(list, 'coef').range).toEqual([-2, 2]);
    expect(colourScale(list, 'gate').range).toEqual([0, 1]);
    // The divergence is never negative: a one-sided scale from 0.
    expect(colourScale(list, 'kl').range).toEqual([0, 4]);
    expect(colourScale([], 'delta').range[1]).toBeGreaterThan(0);
  });

  it('lets an outlier saturate instead of setting the scale', () => {
    // 39 tokens at |Delta| <= 1 and one at 14: the scale ends at the 38th smallest |value| (nearest rank), not 14.
    const delta = [...Array.from({ length: 39 }, (_, k) => (k % 2 ? -1 : 1) * ((k + 1) / 39)), 14];
    const scale = colourScale([trajectory('seed', 1, 0, true, delta)], 'delta');
    expect(scale.range[1]).toBeCloseTo(38 / 39, 6);
    expect(scale.largest).toBe(14);
    expect(colourOf(14, scale.range, 'delta')).toBe(colourOf(scale.range[1], scale.range, 'delta'));
    expect(robustBound([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3])).toBe(3);
    expect(robustBound([Number.NaN, 0])).toBeGreaterThan(0);
  });

  it('leaves forced tokens out of the scale and marks them', () => {
    // Token 1 was forced: its value (however large) does not set the scale.
    const t = trajectory('seed', 1, 0, true, [0.5, 9, -0.25], [1]);
    expect(isForced(t, 1)).toBe(true);
    expect(isForced(t, 0)).toBe(false);
    expect(colourScale([t], 'delta')).toEqual({ range: [-0.5, 0.5], largest: 0.5 });
  });

  it('colours only tokens that went through the loss', () => {
    const scored = trajectory('seed', 1, 0, true, [0.5, Number.NaN]);
    expect(tokenValue(scored, 0, 'delta')).toBe(0.5);
    expect(tokenValue(scored, 0, 'coef')).toBe(-0.5);
    expect(tokenValue(scored, 1, 'gate')).toBeNull();
    expect(tokenValue(trajectory('seed', 1, 0, true), 0, 'delta')).toBeNull();
  });

  it('is white at zero, saturated at the ends', () => {
    expect(colourOf(0, [-2, 2], 'delta')).toBe('rgb(255, 255, 255)');
    expect(colourOf(2, [-2, 2], 'delta')).toBe('rgb(215, 48, 39)');
    expect(colourOf(-5, [-2, 2], 'delta')).toBe('rgb(49, 104, 200)');
    expect(colourOf(-1, [-2, 2], 'coef')).toBe('rgb(152, 180, 228)');
    expect(colourOf(0, [0, 4], 'kl')).toBe('rgb(255, 255, 255)');
    expect(colourOf(4, [0, 4], 'kl')).toBe('rgb(118, 42, 131)');
    expect(colourOf(1, [0, 1], 'gate')).toBe('rgb(26, 152, 80)');
    expect(colourOf(0, [0, 1], 'gate')).toBe('rgb(255, 255, 255)');
  });
});

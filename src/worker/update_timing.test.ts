// The engine's timings of a page update: each stage's, the scoring passes by the weights they score with, the
// evaluation's and the whole wait per update, with the progress of every evaluation told as the page's status.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Backend, TokenBatch } from '../backend/backend.ts';
import { Engine } from './engine.ts';
import { TEST_SETTINGS, clearStore, memoryHost } from './engine_testing.ts';
import type { EngineEvent, UpdateMetrics } from './protocol.ts';
import { noTimes, timeStage, timedScoring } from './update_timing.ts';

beforeEach(clearStore);
afterEach(() => {
  vi.restoreAllMocks();
});

/** performance.now() reads 0, 10, 20, ...: each read is 10 ms after the one before. */
function steppingClock(): void {
  let t = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => {
    const now = t;
    t += 10;
    return now;
  });
}

const batch = {} as TokenBatch;

describe('update timing', () => {
  it('times the scoring passes by their weights and leaves every other member to the backend', async () => {
    const backend = {
      kind: 'cpu',
      calls: [] as string[],
      async score(_b: TokenBatch, set?: string) {
        this.calls.push(`score ${set ?? 'current'}`);
        return new Float32Array(1);
      },
      async scoreRows(_b: TokenBatch, set?: string) {
        this.calls.push(`rows ${set ?? 'current'}`);
        return new Float32Array(2);
      },
      async zeroGradients() {
        this.calls.push('zero');
      },
    };
    const clock = { current: 0, reference: 0 };
    const timed = timedScoring(backend as unknown as Backend, clock);
    steppingClock();
    expect(await timed.score(batch)).toHaveLength(1);
    await timed.score(batch, 'reference');
    expect(await timed.scoreRows(batch, 'current')).toHaveLength(2);
    await timed.zeroGradients();
    expect(timed.kind).toBe('cpu');
    expect(backend.calls).toEqual(['score current', 'score reference', 'rows current', 'zero']);
    expect(clock).toEqual({ current: 20, reference: 10 });
  });

  it('adds a stage its wall time and the scoring passes it ran, even when it throws', async () => {
    const clock = { current: 5, reference: 0 };
    const times = noTimes();
    steppingClock();
    await timeStage(times, 'rescore', clock, async () => {
      clock.current += 3;
      clock.reference += 4;
    });
    await expect(
      timeStage(times, 'loss', clock, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(times).toMatchObject({ rescoreMs: 10, lossMs: 10, currentPassMs: 3, referencePassMs: 4, rolloutMs: 0 });
  });

  it("puts each update's timings on its point and tells how far each evaluation is", async () => {
    const engine = new Engine(memoryHost());
    const events: EngineEvent[] = [];
    await engine.subscribe((e) => events.push(e));
    await engine.start({ ...TEST_SETTINGS, algo: 'seed', evalEvery: 2 }, null);
    await engine.play(2);
    const points = events.flatMap((e) => (e.type === 'update' ? [e.metrics] : []));
    expect(points.map((p) => p.update)).toEqual([0, 1, 2]);
    const [warm, first, second] = points as [UpdateMetrics, UpdateMetrics, UpdateMetrics];
    expect(warm.evalMs).toBeGreaterThan(0);
    expect(warm.updateMs).toBeNull();
    expect(warm.rolloutMs).toBeNull();
    for (const p of [first, second]) {
      const stages = [p.rolloutMs, p.rewardsMs, p.skillsMs, p.rescoreMs, p.lossMs, p.optimizerMs] as number[];
      for (const ms of stages) expect(ms).toBeGreaterThanOrEqual(0);
      expect(p.rolloutMs).toBeGreaterThan(0);
      // The scoring passes run within the rescore stage: the teacher's with skills, and the KL term's reference.
      expect(p.currentPassMs! + p.referencePassMs!).toBeLessThanOrEqual(p.rescoreMs!);
    }
    // The wait for an update holds all of it; the first update's rollout ran before Play, on screen at the start.
    const whole = (p: UpdateMetrics) =>
      p.rolloutMs! + p.rewardsMs! + p.skillsMs! + p.rescoreMs! + p.lossMs! + p.optimizerMs! + p.evalMs!;
    expect(second.updateMs).toBeGreaterThanOrEqual(whole(second));
    expect(first.updateMs).toBeGreaterThanOrEqual(whole(first) - first.rolloutMs!);
    // Evaluated after update 1 and update 2 (evalEvery 2): each evaluation told its games as they ended.
    expect(first.evalMs).toBeGreaterThan(0);
    expect(second.evalMs).toBeGreaterThan(0);
    const status = events.flatMap((e) => (e.type === 'status' ? [e.text] : []));
    const games = 2 * TEST_SETTINGS.evalEpisodes;
    for (const what of [
      'evaluating the warm start',
      'evaluating seed after update 1',
      'evaluating seed after update 2',
    ])
      expect(status.filter((s) => s.startsWith(what))).toEqual(
        Array.from({ length: games + 1 }, (_, k) => `${what}: ${k} of ${games} games`),
      );
    expect(status.at(-1)).toBe('');
  });

  it('leaves the wait unmeasured for an update stepped stage by stage', async () => {
    const engine = new Engine(memoryHost());
    const events: EngineEvent[] = [];
    await engine.subscribe((e) => events.push(e));
    await engine.start({ ...TEST_SETTINGS, algo: 'grpo' }, null);
    // The first rollout ran by itself at the start; five steps finish the update.
    for (let k = 0; k < 5; k++) await engine.stepStage('grpo');
    const point = events.flatMap((e) => (e.type === 'update' ? [e.metrics] : [])).find((p) => p.update === 1)!;
    expect(point.updateMs).toBeNull();
    expect(point.rolloutMs).toBeGreaterThan(0);
    expect(point.evalMs).toBeGreaterThan(0);
  });
});

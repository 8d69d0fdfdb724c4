// bench learn in a world with a score: a shop job keeps the final and curve scores beside success, a household
// job none; the report gives each arm's mean score and the score's paired differences with success's intervals
// (from a stream of their own: success's figures are unchanged), and no score section in the household.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { factsOf } from '../../../worlds/facts.ts';
import { SHOP } from '../../../worlds/shop/env/environment.ts';
import { writeCheckpoint } from '../../../model/checkpoint.ts';
import { presetConfig, warmStartPath } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import { defaultConfig } from '../../../rl/config.ts';
import { shopRl } from '../../../worlds/shop/rl/adapter.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { parseOptions } from '../../../cli/args.ts';
import { runPlan } from '../benchmark.ts';
import { runJob, type Job, type JobResult } from '../jobs/job.ts';
import { command } from '../plan_options.ts';
import { readPlan } from '../plan_read.ts';
import { fakeOutcome, fakeResult } from '../learn_testing.ts';
import { renderLearn } from '../report/report.ts';
import { scoreReport } from './score.ts';
import { differences } from './differences.ts';
import { Rng } from '../../../common/rng.ts';
import { isBaseline } from '../../../rl/arms.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-score-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A run whose per-game outcomes are `won` and per-game scores `scores`, on both splits and at the curve's end. */
function scored(algo: 'grpo' | 'seed', seed: number, won: number[], scores: number[]): JobResult {
  return fakeResult(algo, seed, won, {
    score_seen: mean(scores),
    score_unseen: mean(scores),
    scores_seen: scores,
    scores_unseen: scores,
    curve_score: [0.5, mean(scores)],
    curve_scores: [scores.map(() => 0.5), scores],
  });
}

const games = [0, 1, 2, 3].map((i) => ({ layout: `c${i % 2}`, type: 'shirts' }));

describe('bench learn: the score', () => {
  it('a shop job keeps the score of its final evaluation and of each curve point; a household job none', async () => {
    const tok = tokenizerOf(SHOP);
    const model = presetConfig('micro', tok.vocabSize);
    const init = join(dir, 'shop-micro.ckpt');
    const params = initParameters(model, 1);
    writeFileSync(init, writeCheckpoint({ config: model, vocabHash: tok.hash, params, optimizer: null, metadata: {} }));
    const config = {
      ...defaultConfig('micro'),
      ...shopRl().trainDefaults,
      groupSize: 2,
      tasksPerUpdate: 2,
      maxSteps: 4,
    };
    const job = { algo: 'grpo', seed: 1, config, init, evalEpisodes: 3, preset: 'micro', env: 'shop' } as const;
    const r = await runJob({ ...job, kind: 'run', updates: 2, evalEvery: 1, evalSamples: 2 });
    expect(r.scores_unseen).toHaveLength(3);
    expect(r.score_unseen).toBeCloseTo(mean(r.scores_unseen!), 12);
    expect(r.score_seen).toBeCloseTo(mean(r.scores_seen!), 12);
    // A score is at least the success it counts as 1.
    expect(r.score_unseen!).toBeGreaterThanOrEqual(r.success_unseen);
    expect(r.curve_score).toHaveLength(r.curve.length);
    expect(r.curve_scores!.map((s) => s.length)).toEqual([3, 3]);
    expect(r.curve_score![1]).toBe(r.score_unseen);
    expect(r.curve_score![0]).toBeCloseTo(mean(r.curve_scores![0]), 12);
    const household = await runJob({
      kind: 'warmstart',
      algo: 'grpo',
      seed: 0,
      updates: 0,
      config: { ...defaultConfig('micro'), maxSteps: 2 },
      init: warmStartPath('micro', 'household'),
      evalEvery: 1,
      evalEpisodes: 2,
      evalSamples: 1,
      preset: 'micro',
    });
    expect(Object.keys(household).filter((k) => k.includes('score'))).toEqual([]);
  });

  it("reports each arm's mean score and the paired differences of the score, and success's figures as they were", () => {
    const runs = [
      scored('grpo', 1, [1, 0, 0, 0], [1, 0.5, 0, 0.5]),
      scored('grpo', 2, [0, 0, 1, 0], [0, 0.5, 1, 0.5]),
      scored('seed', 1, [1, 1, 0, 0], [1, 1, 0.5, 0.5]),
      scored('seed', 2, [1, 0, 1, 0], [1, 0.5, 1, 1]),
    ];
    const warm = scored('grpo', 0, [0, 0, 0, 0], [0.25, 0.25, 0.5, 0.5]);
    const outcome = fakeOutcome(runs, games, { warm, seeds: 2, env: 'shop' });
    const report = renderLearn(outcome);
    const plain = renderLearn({ ...outcome, runs: runs.map(strip), warm: strip(warm) });
    // Success's rows and differences are those of the same runs without a score.
    expect(report.rows).toEqual(plain.rows);
    expect(report.differences).toEqual(plain.differences);
    expect(plain.markdown).not.toContain('## Score');
    expect((plain.json as Record<string, unknown>).score).toBeUndefined();
    expect(report.markdown).toContain(`## Score (${factsOf('shop').words.score})`);
    const json = (report.json as { score: Record<string, Record<string, unknown>> }).score;
    // seed: 0.75 and 0.875, mean 0.8125; grpo 0.5 and 0.5; seed - grpo 0.3125 on both splits.
    expect(json.arms.seed).toMatchObject({ seeds: 2, seen: { value: 0.8125 }, unseen: { value: 0.8125 } });
    expect(json.arms.grpo).toMatchObject({ unseen: { value: 0.5 } });
    const diff = (
      json.differences as unknown as { a: string; b: string; unseen: { value: number; ci: number[] } }[]
    ).find((d) => d.a === 'seed' && d.b === 'grpo')!;
    expect(diff.unseen.value).toBeCloseTo(0.3125, 12);
    expect(diff.unseen.ci[0]).toBeLessThanOrEqual(0.3125);
    expect(diff.unseen.ci[1]).toBeGreaterThanOrEqual(0.3125);
    expect(report.markdown).toContain('| seed - grpo | 1, 2 | +0.313 [');
    // Against the warm start's flat curve (0.375): seed's area is the mean of 0.5 and its final score per game.
    const vsWarm = (json.differences as unknown as { a: string; b: string; auc: { value: number } }[]).find(
      (d) => d.a === 'seed' && d.b === 'warm start',
    )!;
    expect(vsWarm.auc.value).toBeCloseTo((0.5 + 0.8125) / 2 - 0.375, 12);
    const runsJson = (report.json as { runs: Record<string, unknown>[] }).runs;
    expect(runsJson[0]).toMatchObject({ score_seen: 0.5, score_unseen: 0.5, curve_score: [0.5, 0.5] });
  });

  it("starts every run's score curve at the warm start's score, as its success curve", async () => {
    const p = {
      ...readPlan(
        parseOptions(['--env', 'shop', '--algos', 'grpo', '--controls', '', '--seeds', '1', '--updates', '1'], command)
          .values,
      ),
      workers: 1,
    };
    const run = async (jobs: Job[]) =>
      jobs.map((job) => ({
        job,
        result: {
          ...scored(
            isBaseline(job.algo) ? 'grpo' : 'seed',
            job.seed,
            [1, 0],
            job.kind === 'warmstart' ? [0.25, 0.5] : [1, 0.5],
          ),
          curve: [[32, 0.5]] as [number, number][],
          curve_won: [[1, 0]],
          curve_score: [0.75],
          curve_scores: [[1, 0.5]],
          success_validation: job.kind === 'sweep' ? 0.5 : null,
        },
      }));
    const o = await runPlan(p, run, () => {});
    expect(o.runs[0].curve_score).toEqual([0.375, 0.75]);
    expect(o.runs[0].curve_scores).toEqual([
      [0.25, 0.5],
      [1, 0.5],
    ]);
  });

  it('has no score section in a world without a score', () => {
    const runs = [fakeResult('grpo', 1, [1, 0, 0, 0]), fakeResult('seed', 1, [1, 1, 0, 0])];
    const warm = fakeResult('grpo', 0, [0, 0, 0, 0]);
    const clusters = {
      seen: [
        [0, 2],
        [1, 3],
      ],
      unseen: [
        [0, 2],
        [1, 3],
      ],
    };
    const diffs = differences(['grpo', 'seed'], runs, warm, clusters, new Rng(1));
    expect(scoreReport(['grpo', 'seed'], runs, warm, clusters, diffs)).toBeNull();
  });
});

/** The run as a world without a score gives it. */
function strip(r: JobResult): JobResult {
  const { score_seen, score_unseen, scores_seen, scores_unseen, curve_score, curve_scores, ...rest } = r;
  return rest;
}

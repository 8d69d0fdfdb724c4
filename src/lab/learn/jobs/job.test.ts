// A job of `bench learn` on the micro preset: the means of the update metrics it reports, the per-game
// outcomes at every point of its curve (what each game's area under the curve comes from), and a sweep job's
// score on the validation-unseen games with the lambda it ran at.
import { describe, expect, it, vi } from 'vitest';
import type { Environment } from '../../../env/environment.ts';
import { defaultConfig } from '../../../rl/config.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../../../cli/cli_error.ts';
import { writeCheckpoint } from '../../../model/checkpoint.ts';
import { presetConfig } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { environmentOf } from '../../../worlds/environments.ts';
import { readJobInit, runJob, type Job } from './job.ts';
import { MEAN_METRIC_KEYS } from './update_means.ts';

// Every update measures its gradient's parts: the first, whose GRPO part is 0 (no group differs in reward yet),
// would otherwise be the only one of the three that does.
const config = {
  ...defaultConfig('micro'),
  groupSize: 2,
  tasksPerUpdate: 2,
  maxSteps: 3,
  history: 3,
  gradShareEvery: 1,
};
const job = (kind: Job['kind'], algo: Job['algo'], lambda: number): Job => ({
  kind,
  algo,
  seed: 1,
  updates: 3,
  config: { ...config, lambda },
  init: 'public/warmstart-micro.ckpt',
  evalEvery: 2,
  evalEpisodes: 3,
  evalSamples: 2,
  preset: 'micro',
});

describe('bench learn: a job', () => {
  it('averages the update metrics over the updates that define them, and keeps each curve point per game', async () => {
    const exact = await runJob(job('run', 'seed-exact', 0.3));
    expect(Object.keys(exact.metric_means).sort()).toEqual([...MEAN_METRIC_KEYS].sort());
    expect(exact.metric_means.gradNormGrpo).toBeGreaterThan(0);
    expect(exact.metric_means.gradNormOpd).toBeGreaterThanOrEqual(0);
    expect(exact.metric_means.meanDivergence).not.toBeNull();
    expect(exact.lambda).toBe(0.3);
    // Points at updates 2 and 3 (the last, from the final evaluation at 2 samples per game).
    expect(exact.curve).toHaveLength(2);
    expect(exact.curve_won).toHaveLength(2);
    expect(exact.curve_won[0]).toHaveLength(3);
    exact.curve_won.forEach((won, i) => {
      expect(won.reduce((a, b) => a + b, 0) / won.length).toBeCloseTo(exact.curve[i][1], 12);
    });
    expect(exact.curve_won[1]).toEqual(exact.won_unseen);
    const grpo = await runJob(job('run', 'grpo', 0.3));
    expect(grpo.metric_means.meanDivergence).toBeNull();
    expect(grpo.metric_means.gradNormOpd).toBe(0);
  }, 60_000);

  it('plays the teacher check at the updates it is told, the warm start (0) among them, with the KL to its teacher', async () => {
    const checked = await runJob({
      ...job('run', 'seed-exact', 0.3),
      config: { ...config, lambda: 0.3, teacherGames: 4, teacherEvery: 2 },
      teacherAt: [0, 1, 3, 7],
    });
    // teacherEvery's check after update 2 among the scheduled ones; 7 lies past the run.
    expect(checked.teacher.map(([u]) => u)).toEqual([0, 1, 2, 3]);
    expect(checked.teacher_kl.map(([u]) => u)).toEqual([0, 1, 3]);
    // Every check keeps success with no skill, its own, another game's and the blank block, teacherEvery's too.
    for (const [, ...rates] of checked.teacher) {
      expect(rates).toHaveLength(4);
      for (const x of rates) expect(x * 4).toBe(Math.round(x * 4));
    }
    expect(checked.teacher_kl.every(([, kl]) => kl === null || kl >= 0)).toBe(true);
    // The checks leave the run as it was: its figures are those of the same run unchecked.
    const plain = await runJob({
      ...job('run', 'seed-exact', 0.3),
      config: { ...config, lambda: 0.3, teacherGames: 4 },
    });
    expect(plain.won_unseen).toEqual(checked.won_unseen);
    expect(plain.teacher).toEqual([]);
    // A sweep run plays none.
    const sweep = await runJob({ ...job('sweep', 'seed-exact', 0.3), teacherAt: [0, 1] });
    expect(sweep.teacher).toEqual([]);
  }, 120_000);

  it('scores a sweep run on the validation-unseen games only', async () => {
    const env = environmentOf('household') as Environment & { validationUnseenScenes: (count?: number) => unknown[] };
    const unseen = vi.spyOn(env, 'validationUnseenScenes');
    const seen = vi.spyOn(env, 'validationScenes');
    const r = await runJob(job('sweep', 'seed-exact', 0.03));
    // the same environment object the job plays (one per scale): the sweep drew its games from validation-unseen
    expect([unseen.mock.calls.length > 0, seen.mock.calls.length]).toEqual([true, 0]);
    vi.restoreAllMocks();
    expect(r.success_validation).toBeGreaterThanOrEqual(0);
    expect(r.lambda).toBe(0.03);
    expect(r.curve).toEqual([]);
    expect(r.curve_won).toEqual([]);
    expect(r.won_unseen).toEqual([]);
  }, 60_000);
});

describe('a job whose init is of another world', () => {
  it("names the job's env field, not --env, as what chooses the world (bench learn --worker)", async () => {
    const tok = tokenizerOf(environmentOf('shop'));
    const config = presetConfig('micro', tok.vocabSize);
    const dir = mkdtempSync(join(tmpdir(), 'seed-job-init-'));
    try {
      const init = join(dir, 'shop.ckpt');
      const ck = { config, vocabHash: tok.hash, params: initParameters(config, 1), optimizer: null, metadata: {} };
      writeFileSync(init, writeCheckpoint(ck));
      const job: Job = {
        ...{ kind: 'run', algo: 'grpo', seed: 1, updates: 1, config: defaultConfig('micro'), init },
        ...{ evalEvery: 0, evalEpisodes: 1, evalSamples: 1, preset: 'micro' },
      };
      const err = await readJobInit(job).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CliError);
      expect((err as Error).message).toMatch(
        /\(it is a shop checkpoint, not a household one: set the job's env field to shop\)$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

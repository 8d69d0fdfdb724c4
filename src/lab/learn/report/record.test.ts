// `bench learn --record`: a recorded job keeps both splits at every point of its curve and its episodes at the
// updates it was given; the record built from a benchmark reads back through the page's check and lists itself
// in the index beside it, which a second record joins and a damaged index refuses. A record of another world than
// the default one names it, and so does its line of the index.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../rl/config.ts';
import { type Algo, isBaseline, ofAlgo } from '../../../rl/arms.ts';
import { RECORD_INDEX_FORMAT } from '../../../rl/recorded_run.ts';
import { checkRecordIndex, parseRecordedRun } from '../../../rl/recorded_run_check.ts';
import { CliError } from '../../../cli/cli_error.ts';
import { runJob, type JobResult } from '../jobs/job.ts';
import { fakeOutcome, fakeResult, givenSettings } from '../learn_testing.ts';
import { buildRecord, readRecordIndex, writeRecord } from './record.ts';
import { renderLearn, type LearnOutcome } from './report.ts';
import type { SweepPoint } from '../sweeps/sweep_points.ts';

const GAMES = [
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'bathroom/train/3', type: 'pick_and_place_simple' },
];

function result(algo: Algo, seed: number, won: number[]): JobResult {
  const success = won.reduce((a, b) => a + b, 0) / won.length;
  return fakeResult(algo, seed, won, {
    per_type: { seen: {}, unseen: {} },
    curve: [[64, success]],
    curve_won: [won],
    wall_s: 1,
    recorded: { curve: [[2, 64, success, success]], episodes: [] },
  });
}

function outcome(): LearnOutcome {
  return fakeOutcome(
    [
      result('seed', 2, [1, 1]),
      result('grpo', 1, [0, 1]),
      result('seed', 1, [1, 0]),
      result('grpo', 2, [0, 0]),
      result('seed-sibling', 1, [1, 1]),
    ],
    GAMES,
    {
      command: 'npm run seed -- bench learn --updates 2 --record public/runs/r.json',
      commit: { hash: 'abc1234', dirty: false },
      init: 'public/warmstart-tiny.ckpt',
      controls: ['seed-sibling'],
      seeds: 2,
      evalEvery: 2,
      evalSamples: 1,
      warm: result('grpo', 0, [0, 1]),
      wallSeconds: 10,
    },
  );
}

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

describe('bench learn --record', () => {
  it("builds a record the page accepts: every arm and seed from the warm start, the report's intervals", () => {
    const o = outcome();
    const report = renderLearn(o);
    const record = parseRecordedRun(JSON.stringify(buildRecord(o, report, new Date('2025-05-01T12:00:00Z'))));
    expect(record).toMatchObject({
      command: o.command,
      commit: 'abc1234',
      created: '2025-05-01T12:00:00.000Z',
      updates: 2,
      episodesPerUpdate: 32,
      warmstart: { seen: 0.5, unseen: 0.5 },
    });
    expect(record.arms.map((a) => [a.algo, a.role, a.seeds.map((s) => s.seed)])).toEqual([
      ['grpo', 'main', [1, 2]],
      ['seed', 'main', [1, 2]],
      ['seed-sibling', 'control', [1]],
    ]);
    expect(record.arms[1].seeds[0].curve).toEqual([
      [0, 0, 0.5, 0.5],
      [2, 64, 0.5, 0.5],
    ]);
    const seedRow = report.rows.find(ofAlgo('seed'))!;
    expect(record.arms[1].final.unseen.value).toBe(0.75);
    expect(record.arms[1].final.unseen.ci).toEqual(seedRow.unseenCi.map((x) => Math.round(x * 1e4) / 1e4));
    const diff = report.differences.find((d) => d.label === 'seed - grpo')!;
    expect(record.differences.find((d) => d.a === 'seed' && d.b === 'grpo')?.seen.value).toBeCloseTo(
      diff.seen.value,
      4,
    );
  });

  it("keeps each checked arm's teacher checks over updates, the effects with the report's intervals", () => {
    const o = outcome();
    const checks = (seed: number): Partial<JobResult> => ({
      teacher: [
        [0, 0.25, 0.5, 0.25, 0.375],
        [2, 0.25, 0.75 + seed / 8, 0.5, 0.25 + seed / 8],
      ],
      teacher_kl: [
        [0, null],
        [2, null],
      ],
    });
    const runs = o.runs.map((r) => (ofAlgo('seed')(r) ? { ...r, ...checks(r.seed) } : r));
    const checked = { ...o, runs };
    const report = renderLearn(checked);
    const record = parseRecordedRun(JSON.stringify(buildRecord(checked, report, new Date('2025-05-01T12:00:00Z'))));
    expect(record.arms.map((a) => [a.algo, a.teacher?.length])).toEqual([
      ['grpo', undefined],
      ['seed', 2],
      ['seed-sibling', undefined],
    ]);
    // Content (own - other) per seed +37.5 and +50 after update 2: their mean, with the interval over the seeds.
    expect(record.arms[1].teacher).toEqual([
      {
        update: 0,
        seeds: 2,
        none: 0.25,
        own: 0.5,
        other: 0.25,
        blank: 0.375,
        block: { value: 0, ci: [0, 0] },
        content: { value: 0.25, ci: [0.25, 0.25] },
      },
      {
        update: 2,
        seeds: 2,
        none: 0.25,
        own: 0.9375,
        other: 0.5,
        blank: 0.4375,
        block: { value: 0.25, ci: [0.25, 0.25] },
        content: { value: 0.4375, ci: [0.375, 0.5] },
      },
    ]);
    expect(report.markdown).toContain(
      '| seed | 2 | 2 | 25.0 | 93.8 | 50.0 | 43.8 | +68.8 | +25.0 [+25.0, +25.0] | +43.8 [+37.5, +50.0] | n/a |',
    );
  });

  it("keeps each arm's lambda and the base configuration, the settings the page runs its live run at", () => {
    const o = outcome();
    const settings = new Map(o.settings);
    settings.set('seed', { ...settings.get('seed')!, lambda: 0.03 });
    const lambdas = { ...o, settings };
    const record = parseRecordedRun(
      JSON.stringify(buildRecord(lambdas, renderLearn(lambdas), new Date('2025-05-01T12:00:00Z'))),
    );
    expect(record.arms.map((a) => [a.algo, a.lambda])).toEqual([
      ['grpo', settings.get('grpo')!.lambda],
      ['seed', 0.03],
      ['seed-sibling', settings.get('seed-sibling')!.lambda],
    ]);
    expect(record.config).toEqual(o.base);
  });

  it("names the headline's arm, the one picked on validation, when two main arms distil", () => {
    const runs = [
      result('grpo', 1, [0, 1]),
      result('seed-exact', 1, [1, 1]),
      result('seed', 1, [1, 0]),
      result('grpo', 2, [0, 0]),
      result('seed-exact', 2, [1, 0]),
      result('seed', 2, [1, 1]),
    ];
    const point = (algo: Algo, success: number): SweepPoint => ({
      param: 'lambda',
      algo,
      value: 0.1,
      seeds: [1, 2],
      per_seed: [success, success],
      success,
      grad_norm_ratio: null,
      opd_share: null,
    });
    const o = { ...outcome(), runs, algos: ['grpo', 'seed-exact', 'seed'] as Algo[], controls: [] };
    const settings = givenSettings(o.algos);
    const created = new Date('2025-05-01T12:00:00Z');
    for (const [best, other] of [
      ['seed', 'seed-exact'],
      ['seed-exact', 'seed'],
    ] as const) {
      const picked = { ...o, settings, points: [point(best, 0.6), point(other, 0.4)] };
      const record = parseRecordedRun(JSON.stringify(buildRecord(picked, renderLearn(picked), created)));
      expect(record.headline).toBe(best);
    }
    const noneDistils = { ...o, runs: runs.filter((r) => isBaseline(r.algo)), algos: ['grpo'] as Algo[] };
    expect('headline' in buildRecord(noneDistils, renderLearn(noneDistils), created)).toBe(false);
  });

  it('writes the record and lists it in index.json beside it; a second record joins, the same name replaces', async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-record-'));
    const o = outcome();
    const record = buildRecord(o, renderLearn(o), new Date('2025-05-01T12:00:00Z'));
    await writeRecord(join(dir, 'first.json'), record);
    await writeRecord(join(dir, 'second.json'), { ...record, created: '2025-06-01T12:00:00.000Z' });
    await writeRecord(join(dir, 'first.json'), { ...record, created: '2025-07-01T12:00:00.000Z' });
    const index = checkRecordIndex(JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')));
    expect(index.runs.map((r) => [r.file, r.created])).toEqual([
      ['second.json', '2025-06-01T12:00:00.000Z'],
      ['first.json', '2025-07-01T12:00:00.000Z'],
    ]);
    expect(parseRecordedRun(await readFile(join(dir, 'first.json'), 'utf8')).created).toBe('2025-07-01T12:00:00.000Z');
  });

  it("names the outcome's world in the record and its index line, and none for the default world", async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-record-'));
    const o = outcome();
    const created = new Date('2025-05-01T12:00:00Z');
    const household = buildRecord(o, renderLearn(o), created);
    expect('env' in household).toBe(false);
    expect('env' in buildRecord({ ...o, env: 'household' }, renderLearn(o), created)).toBe(false);
    const shopOutcome: LearnOutcome = {
      ...o,
      env: 'shop',
      command: 'npm run seed -- bench learn --env shop --record public/runs/shop.json',
    };
    const shop = buildRecord(shopOutcome, renderLearn(shopOutcome), created);
    expect(shop.env).toBe('shop');
    expect(parseRecordedRun(JSON.stringify(shop)).env).toBe('shop');
    await writeRecord(join(dir, 'household.json'), household);
    await writeRecord(join(dir, 'shop.json'), shop);
    const written = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { runs: object[] };
    expect(written.runs).toEqual([
      { file: 'household.json', created: household.created, command: o.command, commit: 'abc1234' },
      { file: 'shop.json', env: 'shop', created: shop.created, command: shopOutcome.command, commit: 'abc1234' },
    ]);
    expect(checkRecordIndex(written).runs.map((r) => [r.file, r.env])).toEqual([
      ['household.json', undefined],
      ['shop.json', 'shop'],
    ]);
    expect(JSON.parse(await readFile(join(dir, 'shop.json'), 'utf8')).env).toBe('shop');
  });

  it('refuses, before any run, an index that is not one and a record name the index cannot list', async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-record-'));
    expect(await readRecordIndex(join(dir, 'r.json'))).toEqual({ format: RECORD_INDEX_FORMAT, runs: [] });
    await writeFile(join(dir, 'index.json'), '{"runs": 3}');
    await expect(readRecordIndex(join(dir, 'r.json'))).rejects.toThrow(
      /index\.json" is not an index of recorded runs \(the index's format is undefined/,
    );
    await expect(readRecordIndex(join(dir, 'my record.json'))).rejects.toBeInstanceOf(CliError);
    await expect(readRecordIndex(join(dir, 'r.txt'))).rejects.toThrow('--record names a .json file');
  });

  it('a recorded job evaluates both splits at each point of its curve and keeps its episodes at the updates given', async () => {
    const config = { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3 };
    const job = {
      kind: 'run' as const,
      algo: 'seed' as const,
      seed: 1,
      updates: 2,
      config,
      init: 'public/warmstart-micro.ckpt',
      evalEvery: 1,
      evalEpisodes: 2,
      evalSamples: 1,
      preset: 'micro' as const,
    };
    const recorded = await runJob({ ...job, record: { episodeUpdates: [2] } });
    const plain = await runJob(job);
    expect(plain.recorded).toBeUndefined();
    // Recording changes nothing of the run's own figures.
    expect({ ...recorded, recorded: undefined, wall_s: 0 }).toEqual({ ...plain, wall_s: 0 });
    expect(recorded.recorded!.curve.map(([u, e, , unseen]) => [u, e, unseen])).toEqual(
      recorded.curve.map(([e, unseen], i) => [i + 1, e, unseen]),
    );
    expect(recorded.recorded!.curve[1][2]).toBe(recorded.success_seen);
    expect(recorded.recorded!.episodes.map((e) => [e.algo, e.seed, e.update])).toEqual([
      ['seed', 1, 2],
      ['seed', 1, 2],
    ]);
  });
});

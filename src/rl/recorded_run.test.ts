// A recorded run as the command line builds it and the page checks it: episodes line up with their update's
// per-token numbers, the updates kept are spread over the curve, a record of the benchmark's full default size
// stays under the byte budget, and a damaged record or index is refused with a one-line reason. A record and its
// index line name their world, none for the household (as every record written before the shop).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { presetConfig } from '../model/config.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { defaultConfig } from './config.ts';
import type { Algo } from './arms.ts';
import {
  EPISODES_PER_UPDATE,
  EPISODE_UPDATES,
  MAX_RECORD_BYTES,
  RECORD_FORMAT,
  RECORD_INDEX_FORMAT,
  RECORD_VERSION,
  episodeUpdates,
  pickEpisodes,
  recordedEpisode,
  sig3,
  type RecordedEpisode,
  type RecordedRun,
  type RecordedTeacherCheck,
} from './recorded_run.ts';
import {
  RecordedRunError,
  checkRecordIndex,
  newestRecord,
  parseRecordedRun,
  recordWorld,
} from './recorded_run_check.ts';
import { Trainer } from './trainer.ts';
import { householdRl } from '../worlds/household/rl/adapter.ts';

const tok = defaultTokenizer();

describe('episodes of a recorded run', () => {
  it('keeps up to 4 evaluated updates, spread from the first to the last', () => {
    expect(episodeUpdates(16, 4)).toEqual([4, 8, 12, 16]);
    expect(episodeUpdates(16, 16)).toEqual([16]);
    expect(episodeUpdates(5, 2)).toEqual([2, 4, 5]);
    expect(episodeUpdates(192, 16)).toEqual([16, 80, 128, 192]);
    expect(episodeUpdates(10, 3, 2)).toEqual([3, 10]);
  });

  it('keeps a trajectory with its tokens, skill and per-token Delta, gate and coefficient to 3 significant digits', async () => {
    const config = { ...defaultConfig('micro'), groupSize: 2, tasksPerUpdate: 2, maxSteps: 3, history: 3 };
    const trainer = new Trainer({
      backend: CpuBackend.fromSeed(presetConfig('micro', tok.vocabSize), 11),
      tokenizer: tok,
      algo: 'seed',
      config,
      seed: 5,
      world: householdRl(TINY),
    });
    await trainer.update();
    const st = trainer.current!;
    const picks = pickEpisodes(st);
    expect(picks).toHaveLength(EPISODES_PER_UPDATE);
    for (const i of picks) {
      const e = recordedEpisode(tok, st, i, 5);
      const t = st.trajectories[i];
      expect(e).toMatchObject({
        algo: 'seed',
        seed: 5,
        update: 1,
        goal: t.scene.task.goal,
        won: t.won,
        reward: st.rewards[i],
      });
      expect(e.steps.map((s) => s.action)).toEqual(t.records.slice(1).map((r) => r.action));
      expect(e.tokens).toHaveLength(st.tokenOffsets[i + 1] - st.tokenOffsets[i]);
      expect(e.steps.reduce((n, s) => n + s.tokens, 0)).toBe(e.tokens.length);
      expect(e.tokens[e.steps[0].tokens - 1]).toBe('<end>');
      const a = st.tokenOffsets[i];
      const distilled = (k: number) => st.inputs!.opdMask[a + k] === 1;
      expect(e.delta).toEqual(e.tokens.map((_, k) => (distilled(k) ? sig3(st.loss!.delta[a + k]) : null)));
      expect(e.gate).toEqual(e.tokens.map((_, k) => (distilled(k) ? sig3(st.loss!.gate[a + k]) : null)));
      expect(e.coef).toEqual(e.tokens.map((_, k) => sig3(st.loss!.coef[a + k])));
      expect(e.skill).toEqual(st.used[i] ? { text: st.used[i]!.text, valid: st.used[i]!.ok } : null);
    }
    expect(picks.some((i) => st.inputs!.opdMask.subarray(st.tokenOffsets[i], st.tokenOffsets[i + 1]).includes(1))).toBe(
      true,
    );
    expect(sig3(0.12345)).toBe(0.123);
    expect(sig3(-0.000012345)).toBe(-0.0000123);
    expect(sig3(Number.NaN)).toBeNull();
  });

  it('prefers a won and a lost episode of a group whose rewards differ', () => {
    const st = {
      trajectories: [{ won: false }, { won: false }, { won: true }, { won: false }],
      advantages: new Float64Array([0, 0, 1, -1]),
    } as unknown as Parameters<typeof pickEpisodes>[0];
    expect(pickEpisodes(st)).toEqual([2, 3]);
    expect(pickEpisodes({ ...st, advantages: new Float64Array(4) })).toEqual([0, 1]);
  });
});

/** The longest a number of the record is written: "-0.00000123" (smaller ones are written "-1.23e-7"). */
const WIDE = -0.00000123;

function episode(algo: Algo, update: number, tokens: number): RecordedEpisode {
  const steps = Array.from({ length: 10 }, () => ({
    action: 'take the butterknife 12 from the countertop 3',
    valid: true,
    tokens: tokens / 10,
  }));
  const per = Array.from({ length: tokens }, () => WIDE);
  return {
    algo,
    seed: 1,
    update,
    goal: 'put a clean butterknife in the drawer 12.',
    taskType: 'pick_clean_then_place',
    won: false,
    reward: -0.5,
    advantage: WIDE,
    skill: { text: 'workflow: '.padEnd(48 * 8, 'x'), valid: true },
    ownSkill: { text: 'avoid: '.padEnd(48 * 8, 'y'), valid: false },
    steps,
    tokens: Array.from({ length: tokens }, () => 'butterknife'),
    delta: per,
    gate: per.map(() => 0.123),
    coef: per,
  };
}

/**
 * A record as large as the benchmark's defaults make one, every number at its widest: grpo and seed with 6
 * seeds, 3 controls with 3 seeds, every ablation with one, 192 updates evaluated every 16, and the episodes of
 * every arm at full length (maxSteps commands of maxCommandTokens + 1 tokens).
 */
function fullRecord(): RecordedRun {
  const config = defaultConfig('tiny');
  const arms: [Algo, 'main' | 'control' | 'ablation', number][] = [
    ['grpo', 'main', 6],
    ['seed', 'main', 6],
    ['seed-crossgame', 'control', 3],
    ['seed-annotator', 'control', 3],
    ['seed-sibling', 'control', 3],
    ['seed-static', 'ablation', 1],
    ['opid', 'ablation', 1],
    ['seed-nogate', 'ablation', 1],
  ];
  const updates = 192;
  const curve = Array.from(
    { length: updates / 16 + 1 },
    (_, k) => [16 * k, 16 * k * 32, 0.1234, 0.5678] as [number, number, number, number],
  );
  const interval = { value: 0.1234, ci: [0.0987, 0.1567] as [number, number] };
  const tokens = config.maxSteps * (config.maxCommandTokens + 1);
  return {
    format: RECORD_FORMAT,
    version: RECORD_VERSION,
    command: 'npm run seed -- bench learn --record public/runs/learn.json',
    commit: 'abc1234-dirty',
    created: '2025-01-01T00:00:00.000Z',
    preset: 'tiny',
    updates,
    episodesPerUpdate: 32,
    evalEvery: 16,
    evalGames: { seen: 140, unseen: 134 },
    warmstart: { seen: 0.1234, unseen: 0.1234 },
    headline: 'seed',
    arms: arms.map(([algo, role, seeds]) => ({
      algo,
      role,
      lr: 5e-4,
      final: { seen: interval, unseen: interval },
      seeds: Array.from({ length: seeds }, (_, s) => ({ seed: s + 1, curve, final: { seen: 0.1234, unseen: 0.5678 } })),
    })),
    differences: arms.flatMap(([a]) => [
      { a, b: 'warm start' as const, seeds: [1, 2, 3, 4, 5, 6], seen: interval, unseen: interval },
    ]),
    episodes: arms.flatMap(([algo]) =>
      episodeUpdates(updates, 16).flatMap((u) =>
        Array.from({ length: EPISODES_PER_UPDATE }, () => episode(algo, u, tokens)),
      ),
    ),
  };
}

/** The updates a record evaluated at, from 0 (the warm start). */
const updates = (r: RecordedRun) => r.arms[0].seeds[0].curve.map(([u]) => u);

/** An arm's teacher checks at `at`, every figure at its widest. */
function teacherChecks(at: number[]): RecordedTeacherCheck[] {
  const effect = { value: -0.1234, ci: [-0.2345, -0.0123] as [number, number] };
  return at.map((update) => ({
    update,
    seeds: 6,
    none: 0.1234,
    own: 0.5678,
    other: 0.2345,
    blank: 0.1357,
    block: effect,
    content: effect,
  }));
}

describe('checking a recorded run', () => {
  it('a record of the full default size stays under the budget and reads back as written', () => {
    const record = fullRecord();
    expect(record.episodes).toHaveLength(8 * EPISODE_UPDATES * EPISODES_PER_UPDATE);
    const json = `${JSON.stringify(record)}\n`;
    expect(json.length).toBeGreaterThan(MAX_RECORD_BYTES / 8);
    expect(json.length).toBeLessThan(MAX_RECORD_BYTES);
    expect(parseRecordedRun(json)).toEqual(record);
    // The settings it ran at, where a record keeps them: each arm's lambda and the base configuration.
    const withSettings = {
      ...record,
      config: defaultConfig('tiny'),
      arms: record.arms.map((a, i) => ({ ...a, lambda: i === 0 ? 0.1 : 0.01 })),
    };
    expect(parseRecordedRun(JSON.stringify(withSettings))).toEqual(withSettings);
    // Each arm's teacher checks at every evaluated update.
    const checked = { ...record, arms: record.arms.map((a) => ({ ...a, teacher: teacherChecks(updates(record)) })) };
    const text = JSON.stringify(checked);
    expect(text.length).toBeLessThan(MAX_RECORD_BYTES);
    expect(parseRecordedRun(text)).toEqual(checked);
  });

  it('reads every shipped record, whose teacher checks, where it keeps any, take the own skill apart', () => {
    const index = checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
    expect(index.runs.length).toBeGreaterThan(0);
    for (const { file } of index.runs) {
      const run = parseRecordedRun(readFileSync(`public/runs/${file}`, 'utf8'));
      for (const arm of run.arms) {
        const checks = arm.teacher ?? [];
        const updates = checks.map((c) => c.update);
        expect(updates, `${file} ${arm.algo}`).toEqual([...updates].sort((a, b) => a - b));
        for (const c of checks) {
          // The block and content effects are means of paired differences: the differences of the means (kept to 4 digits).
          expect(c.block.value, `${file} ${arm.algo} ${c.update}`).toBeCloseTo(c.other - c.none, 3);
          expect(c.content.value, `${file} ${arm.algo} ${c.update}`).toBeCloseTo(c.own - c.other, 3);
          expect(c.block.ci[0]).toBeLessThanOrEqual(c.block.value + 1e-12);
          expect(c.content.ci[1]).toBeGreaterThanOrEqual(c.content.value - 1e-12);
        }
      }
    }
  });

  it('refuses a damaged record with one line naming the first field in the way', () => {
    const refusal = (edit: (r: Record<string, unknown>) => void): string => {
      const r = JSON.parse(JSON.stringify(fullRecord())) as Record<string, unknown>;
      edit(r);
      try {
        parseRecordedRun(JSON.stringify(r));
      } catch (err) {
        expect(err).toBeInstanceOf(RecordedRunError);
        expect((err as Error).message).not.toContain('\n');
        return (err as Error).message;
      }
      throw new Error('the record was accepted');
    };
    const arms = (r: Record<string, unknown>) => r.arms as { seeds: { curve: unknown[] }[]; algo: unknown }[];
    const episodes = (r: Record<string, unknown>) => r.episodes as Record<string, unknown>[];
    expect(refusal((r) => (r.format = 'learn.json'))).toContain('the record\'s format is "learn.json"');
    expect(refusal((r) => (r.version = 2))).toContain('version 2');
    expect(refusal((r) => (arms(r)[1].algo = 'ppo'))).toBe('arms[1].algo is "ppo", not an algorithm');
    expect(refusal((r) => (arms(r)[0].seeds[2].curve[3] = [48, 1536, 1.5, 0.5]))).toBe(
      'arms[0].seeds[2].curve[3][2] is 1.5, not a number in [0, 1]',
    );
    expect(refusal((r) => arms(r)[0].seeds[0].curve.reverse())).toContain(
      'arms[0].seeds[0].curve[1] is at update 176, not after update 192',
    );
    expect(refusal((r) => (episodes(r)[3].gate as unknown[]).pop())).toBe(
      `episodes[3].gate has ${defaultConfig('tiny').maxSteps * 13 - 1} numbers for ${defaultConfig('tiny').maxSteps * 13} tokens`,
    );
    expect(refusal((r) => (episodes(r)[0].update = 500))).toBe('episodes[0].update is 500, not a number in [1, 192]');
    expect(refusal((r) => delete r.arms)).toBe('arms is undefined, not a list');
    expect(refusal((r) => (r.preset = 'huge'))).toBe('preset is "huge", not one of micro, tiny, small');
    expect(refusal((r) => (r.headline = 'seed-exact'))).toBe('headline is "seed-exact", not one of the record\'s arms');
    expect(refusal((r) => (r.headline = 7))).toBe('headline is 7, not an algorithm');
    expect(refusal((r) => (r.config = { lr: 5e-4, warmth: 1 }))).toBe('config.warmth is not a training setting');
    expect(refusal((r) => (r.config = { groupSize: 0.5 }))).toMatch(/^config\.groupSize is 0\.5: setting groupSize /);
    expect(refusal((r) => ((r.arms as Record<string, unknown>[])[1].lambda = 'high'))).toMatch(
      /^arms\[1\]\.lambda is "high": setting lambda must be a number/,
    );
    const teacher = (r: Record<string, unknown>) => {
      const arm = (r.arms as Record<string, unknown>[])[1];
      arm.teacher = JSON.parse(JSON.stringify(teacherChecks([0, 96, 192])));
      return arm.teacher as Record<string, unknown>[];
    };
    expect(refusal((r) => (teacher(r)[1].blank = 1.5))).toBe('arms[1].teacher[1].blank is 1.5, not a number in [0, 1]');
    expect(refusal((r) => (teacher(r)[2].block = { value: -2, ci: [0, 0] }))).toBe(
      'arms[1].teacher[2].block.value is -2, not a number in [-1, 1]',
    );
    expect(refusal((r) => teacher(r).reverse())).toBe('arms[1].teacher[1] is at update 96, not after update 192');
    expect(refusal((r) => delete teacher(r)[0].content)).toBe('arms[1].teacher[0].content is undefined, not an object');
    expect(() => parseRecordedRun('{"format": ')).toThrow(/^the record is not JSON/);
    expect(() => parseRecordedRun(' '.repeat(MAX_RECORD_BYTES + 1))).toThrow(/over the 2097152-byte budget/);
  });

  it("names its world: the shop by name, the household by none (an older record's), and no other name", () => {
    const record = fullRecord();
    expect('env' in record).toBe(false);
    expect(recordWorld(parseRecordedRun(JSON.stringify(record)))).toBe('household');
    const shop = parseRecordedRun(JSON.stringify({ ...record, env: 'shop' }));
    expect(shop).toEqual({ ...record, env: 'shop' });
    expect(recordWorld(shop)).toBe('shop');
    // The default world named outright reads as a record that names none.
    expect(parseRecordedRun(JSON.stringify({ ...record, env: 'household' }))).toEqual(record);
    expect(() => parseRecordedRun(JSON.stringify({ ...record, env: 'mall' }))).toThrow(
      'env: "mall" is not a world (the worlds: household, shop, searchqa)',
    );
    expect(() => parseRecordedRun(JSON.stringify({ ...record, env: null }))).toThrow(/^env: null is not a world/);
  });

  it('reads an index and picks its newest record; refuses a file name that leaves the folder', () => {
    const entry = (file: string, created: string) => ({
      file,
      created,
      command: 'npm run seed -- bench learn',
      commit: 'abc1234',
    });
    const index = checkRecordIndex({
      format: RECORD_INDEX_FORMAT,
      runs: [
        entry('a.json', '2025-01-02T00:00:00Z'),
        entry('b.json', '2025-03-01T00:00:00Z'),
        entry('c.json', '2025-02-01T00:00:00Z'),
      ],
    });
    expect(newestRecord(index, 'household')?.file).toBe('b.json');
    expect(newestRecord(index, 'shop')).toBeNull();
    expect(newestRecord({ format: RECORD_INDEX_FORMAT, runs: [] }, 'household')).toBeNull();
    expect(() => checkRecordIndex({ format: RECORD_INDEX_FORMAT, runs: [entry('../secret.json', '2025')] })).toThrow(
      'runs[0].file is "../secret.json", not a plain file name ending in .json',
    );
    expect(() => checkRecordIndex({ runs: [] })).toThrow("the index's format is undefined");
  });

  it("picks the newest record of each world: a line without env is the household's", () => {
    const entry = (file: string, created: string, env?: string) => ({
      file,
      ...(env === undefined ? {} : { env }),
      created,
      command: 'npm run seed -- bench learn',
      commit: 'abc1234',
    });
    const index = checkRecordIndex({
      format: RECORD_INDEX_FORMAT,
      runs: [
        entry('old.json', '2025-01-01T00:00:00Z'),
        entry('shop-old.json', '2025-02-01T00:00:00Z', 'shop'),
        entry('household.json', '2025-03-01T00:00:00Z', 'household'),
        entry('shop-new.json', '2025-04-01T00:00:00Z', 'shop'),
      ],
    });
    expect(index.runs.map((r) => r.env)).toEqual([undefined, 'shop', undefined, 'shop']);
    expect(newestRecord(index, 'household')?.file).toBe('household.json');
    expect(newestRecord(index, 'shop')?.file).toBe('shop-new.json');
    expect(() => checkRecordIndex({ format: RECORD_INDEX_FORMAT, runs: [entry('a.json', '2025', 'mall')] })).toThrow(
      'runs[0].env: "mall" is not a world (the worlds: household, shop, searchqa)',
    );
  });
});

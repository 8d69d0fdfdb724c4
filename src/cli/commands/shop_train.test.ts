// train, eval and teacher with --env shop: a shop run from the preset's seeded init (no shop warm start given),
// resumed exactly, evaluated and checked in the shop; a shop checkpoint given to the household is refused
// with the world it is of.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckpoint } from '../../model/checkpoint.ts';
import { run as evalRun } from './eval.ts';
import { run as teacherRun } from './teacher.ts';
import { run as trainRun } from './train.ts';
import { run as warmRun } from './warmstart.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-shop-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const out = join(dir, 'run');
const small = ['--set', 'groupSize=2', '--set', 'tasksPerUpdate=2', '--set', 'maxSteps=4'];
const args = (dirName: string) => [
  '--env',
  'shop',
  '--algo',
  'seed',
  '--preset',
  'micro',
  '--seed',
  '3',
  '--out',
  dirName,
  ...small,
];
const base = args(out);

describe('seed train / eval / teacher --env shop (micro preset)', () => {
  it("trains in the shop with the world's defaults, and a resumed run goes on exactly as one that never stopped", async () => {
    const straight = join(dir, 'straight');
    await runCaptured(trainRun, [...args(straight), '--updates', '2']);
    const first = await runCaptured(trainRun, [...base, '--updates', '1']);
    expect(first.code).toBe(0);
    const resumed = await runCaptured(trainRun, [...base, '--updates', '2', '--resume']);
    expect(resumed.stderr).toContain('resumed');
    const ck = readCheckpoint(new Uint8Array(readFileSync(join(out, 'last.ckpt'))));
    expect(ck.metadata).toMatchObject({ env: 'shop', scale: 'tiny', updates: 2 });
    // The shop's own defaults (window layout, longer commands and skills) under the --set values.
    expect(ck.metadata.config).toMatchObject({
      history: 2,
      maxSkillTokens: 56,
      maxCommandTokens: 16,
      maxSteps: 4,
      groupSize: 2,
    });
    const other = readCheckpoint(new Uint8Array(readFileSync(join(straight, 'last.ckpt'))));
    expect(Array.from(ck.params)).toEqual(Array.from(other.params));
    const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.update)).toEqual([0, 1]);
    // The shop's score beside success: the mean over the update's episodes, in [0, 1].
    for (const l of lines) expect(l.score).toBeGreaterThanOrEqual(l.success);
    for (const l of lines) expect(l.score).toBeLessThanOrEqual(1);
  });

  it('evaluates with the score beside success, and the household refuses a reward from a score it has not', async () => {
    const run = join(dir, 'scored');
    const trained = await runCaptured(trainRun, [
      ...args(run),
      '--updates',
      '1',
      '--eval-every',
      '1',
      '--eval-episodes',
      '2',
      '--set',
      'scoreReward=1',
    ]);
    expect(trained.code).toBe(0);
    const line = JSON.parse(readFileSync(join(run, 'metrics.jsonl'), 'utf8'));
    expect(Object.keys(line.eval)).toEqual(['seen', 'unseen', 'score_seen', 'score_unseen']);
    expect(line.eval.score_unseen).toBeGreaterThanOrEqual(line.eval.unseen);
    expect(readCheckpoint(new Uint8Array(readFileSync(join(run, 'last.ckpt')))).metadata.config).toMatchObject({
      scoreReward: 1,
    });
    await expect(
      runCaptured(trainRun, [
        ...['--algo', 'grpo', '--preset', 'micro', '--seed', '1', '--updates', '1', '--out', join(dir, 'household')],
        ...['--set', 'scoreReward=1'],
      ]),
    ).rejects.toThrow(/^--set: scoreReward=1 trains on the world's score, and the household has none/);
  });

  it('warmstart --env shop writes a shop checkpoint and card that train --env shop starts from', async () => {
    const warm = join(dir, 'shop-warm.ckpt');
    const { code } = await runCaptured(warmRun, [
      '--env',
      'shop',
      '--preset',
      'micro',
      '--seed',
      '2',
      '--out',
      warm,
      '--episodes',
      '4',
      '--steps',
      '2',
      '--eval-episodes',
      '2',
      '--teacher-games',
      '2',
    ]);
    expect(code).toBe(0);
    const card = JSON.parse(readFileSync(join(dir, 'shop-warm.json'), 'utf8'));
    expect(card).toMatchObject({
      env: 'shop',
      scale: 'tiny',
      preset: 'micro',
      steps: 2,
      eval_episodes: { seen: 2, unseen: 2 },
    });
    expect(card.corpus.examples.act).toBeGreaterThan(0);
    expect(card.corpus.examples.follow).toBeGreaterThan(0);
    expect(card.corpus.examples.analyze).toBe(4);
    expect(readCheckpoint(new Uint8Array(readFileSync(warm))).metadata).toMatchObject({
      stage: 'warmstart',
      env: 'shop',
    });
    const trained = await runCaptured(trainRun, [...args(join(dir, 'from-warm')), '--updates', '1', '--init', warm]);
    expect(JSON.parse(trained.stdout)).toMatchObject({ updates: 1 });
  });

  it('evaluates and checks the teacher of a shop checkpoint in the shop, and names the world to the household', async () => {
    const ckpt = join(out, 'last.ckpt');
    const ev = await runCaptured(evalRun, ['--env', 'shop', '--ckpt', ckpt, '--split', 'unseen', '--episodes', '3']);
    const result = JSON.parse(ev.stdout);
    expect(result.episodes).toBe(3);
    expect(Object.keys(result)).toEqual(['success', 'score', 'per_type', 'episodes']);
    expect(result.score).toBeGreaterThanOrEqual(result.success);
    for (const type of Object.keys(result.per_type))
      expect(['shirts', 'shoes', 'bags', 'lamps', 'mugs']).toContain(type);
    const teacher = JSON.parse(
      (await runCaptured(teacherRun, ['--env', 'shop', '--ckpt', ckpt, '--games', '2'])).stdout,
    );
    expect(teacher).toMatchObject({ skills: 'own', games: 2, valid_skills: 1 });
    expect(Object.keys(teacher.score)).toEqual(['first', 'no_skill', 'own_skill', 'other_skill', 'blank_skill']);
    expect(teacher.score.own_skill).toBeGreaterThanOrEqual(teacher.own_skill);
    await expect(runCaptured(evalRun, ['--ckpt', ckpt, '--split', 'unseen', '--episodes', '1'])).rejects.toThrow(
      /it is a shop checkpoint, not a household one: pass --env shop/,
    );
  });
});

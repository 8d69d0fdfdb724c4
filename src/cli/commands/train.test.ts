import { afterAll, describe, expect, it } from 'vitest';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalScenes } from '../../worlds/household/env/splits.ts';
import { sceneToJson } from '../../worlds/household/env/scene.ts';
import { readCheckpoint, writeCheckpoint } from '../../model/checkpoint.ts';
import { defaultConfig } from '../../rl/config.ts';
import { opdShareOfNorms } from '../../rl/opd_share.ts';
import { CliError } from '../cli_error.ts';
import { run as evalRun } from './eval.ts';
import { run as teacherRun } from './teacher.ts';
import { run as trainRun } from './train.ts';
import { run as warmRun } from './warmstart.ts';
import { runCaptured } from '../testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const warm = join(dir, 'warm.ckpt');
const shippedMicro = join('public', 'warmstart-micro.ckpt');
const small = [
  '--set',
  'groupSize=2',
  '--set',
  'tasksPerUpdate=2',
  '--set',
  'maxSteps=3',
  '--set',
  'history=3',
  '--set',
  'lr=0.01',
];
const params = (path: string) => Array.from(readCheckpoint(new Uint8Array(readFileSync(path))).params);

describe('seed warmstart / train / eval (micro preset)', () => {
  it('warmstart writes a checkpoint and a card with the success and skill figures', async () => {
    const { code, stdout } = await runCaptured(warmRun, [
      '--preset',
      'micro',
      '--seed',
      '2',
      '--out',
      warm,
      '--episodes',
      '6',
      '--steps',
      '3',
      '--eval-episodes',
      '3',
      '--teacher-games',
      '3',
    ]);
    expect(code).toBe(0);
    const card = JSON.parse(readFileSync(join(dir, 'warm.json'), 'utf8'));
    expect(JSON.parse(stdout)).toEqual(card);
    expect(card).toMatchObject({ preset: 'micro', corpus_seed: 2, steps: 3, eval_episodes: { seen: 3, unseen: 3 } });
    for (const key of ['loss', 'success_seen', 'success_unseen', 'valid_skill_rate']) {
      expect(card[key]).toBeGreaterThanOrEqual(0);
      expect(card[key]).toBeLessThan(key === 'loss' ? 100 : 1.000001);
    }
    const fidelity = card.skill_fidelity_grammar;
    expect(fidelity === null || (fidelity >= 0 && fidelity <= 1), `skill_fidelity_grammar ${fidelity}`).toBe(true);
    expect(readCheckpoint(new Uint8Array(readFileSync(warm))).metadata.stage).toBe('warmstart');
    expect(Object.keys(card.teacher)).toEqual(['own', 'annotator']);
    expect(card.teacher.own).toMatchObject({ skills: 'own', games: 3 });
    expect(card.teacher.annotator).toMatchObject({ skills: 'annotator', games: 3 });
  }, 60_000);

  it('warmstart --backend webgpu trains as the CPU reference does, and its card says so', async () => {
    const base = [
      '--preset',
      'micro',
      '--seed',
      '2',
      '--episodes',
      '6',
      '--steps',
      '2',
      '--eval-episodes',
      '2',
      '--teacher-games',
      '0',
    ];
    expect((await runCaptured(warmRun, [...base, '--backend', 'cpu', '--out', join(dir, 'warm-cpu.ckpt')])).code).toBe(
      0,
    );
    expect(
      (await runCaptured(warmRun, [...base, '--backend', 'webgpu', '--out', join(dir, 'warm-gpu.ckpt')])).code,
    ).toBe(0);
    const card = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
    expect(card('warm-cpu.json')).not.toHaveProperty('backend');
    expect(card('warm-gpu.json')).toMatchObject({ backend: 'webgpu', steps: 2 });
    expect(card('warm-gpu.json').loss).toBeCloseTo(card('warm-cpu.json').loss, 3);
    const cpu = params(join(dir, 'warm-cpu.ckpt'));
    const gpu = params(join(dir, 'warm-gpu.ckpt'));
    // Two AdamW steps at the default lr (0.005): where a gradient is near eps, last-digit differences show as a
    // fraction of lr per step (as in the train test below).
    expect(Math.max(...cpu.map((v, i) => Math.abs(v - gpu[i])))).toBeLessThan(5e-4);
  }, 120_000);

  it('train writes JSONL metrics and checkpoints; a resumed run ends with the same weights as a straight one', async () => {
    const straight = join(dir, 'straight');
    const split = join(dir, 'split');
    const base = [
      '--algo',
      'seed',
      '--preset',
      'micro',
      '--seed',
      '4',
      '--backend',
      'cpu',
      '--init',
      warm,
      '--checkpoint-every',
      '1',
      ...small,
    ];
    expect((await runCaptured(trainRun, [...base, '--updates', '3', '--out', straight])).code).toBe(0);
    expect((await runCaptured(trainRun, [...base, '--updates', '2', '--out', split])).code).toBe(0);
    expect(readdirSync(straight).sort()).toEqual(['last.ckpt', 'metrics.jsonl', 'reference.ckpt']);
    // Lines written before the diagnostics existed go on being read and kept.
    const older = readFileSync(join(split, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const {
          corrDeltaExpert: _e,
          zeroVarianceGroups: _z,
          teacherOwnSkill: _t,
          ...rest
        } = JSON.parse(l) as Record<string, unknown>;
        return `${JSON.stringify(rest)}\n`;
      });
    writeFileSync(join(split, 'metrics.jsonl'), older.join(''));
    // What a full disk or a kill leaves in the middle of an append: a last line without its newline.
    appendFileSync(join(split, 'metrics.jsonl'), '{"update":2,"succ');
    const { code, stdout, stderr } = await runCaptured(trainRun, [
      ...base,
      '--updates',
      '3',
      '--out',
      split,
      '--resume',
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain(
      'metrics.jsonl: dropped 1 line: a partial last line (17 characters, no newline) left by an interrupted write\n',
    );
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ algo: 'seed', updates: 3, episodes: 12 });
    expect(params(join(split, 'last.ckpt'))).toEqual(params(join(straight, 'last.ckpt')));
    const lines = readFileSync(join(split, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.update)).toEqual([0, 1, 2]);
    expect(lines.map((l) => 'zeroVarianceGroups' in l)).toEqual([false, false, true]);
    // Each line names the loss's lambda and beta of its update (the preset's, as no --set changes them).
    const { lambda, beta } = defaultConfig('micro');
    expect(lines.map((l) => [l.lambda, l.beta])).toEqual([
      [lambda, beta],
      [lambda, beta],
      [lambda, beta],
    ]);
    // Counted as the page counts: after the third update it shows "update 3" (the line's 0-based index + 1),
    // the number of updates done; the progress says the same, with the time elapsed.
    expect(summary.last.update).toBe(lines[2].update);
    expect([summary.updates, summary.last_update]).toEqual([lines[2].update + 1, lines[2].update + 1]);
    // The shares are over the updates this process ran: the third alone.
    const [third] = lines.slice(2);
    expect(summary.opd_share).toBe(opdShareOfNorms(third.gradNormGrpo, third.gradNormOpd));
    expect(summary.opd_delta_share).toBe(third.opdDeltaShare);
    expect(stderr).toContain(`resumed ${split} after update 2`);
    expect(stderr).toMatch(/update 3\/3, \d+s elapsed/);
    for (const l of lines) {
      expect(l.success).toBeGreaterThanOrEqual(0);
      expect(l.success).toBeLessThanOrEqual(1);
      expect(Number.isFinite(l.total)).toBe(true);
      expect(l.validSkillRate).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);

  it('train --backend webgpu runs the same update as the CPU reference', async () => {
    // Seed 2 of the shipped micro warm start writes a usable skill in this batch, so the OPD term moves the weights.
    const tiny = [
      '--set',
      'groupSize=4',
      '--set',
      'tasksPerUpdate=2',
      '--set',
      'maxSteps=6',
      '--set',
      'history=6',
      '--set',
      'lr=0.01',
      '--set',
      'constrained=0',
    ];
    const base = [
      '--algo',
      'seed',
      '--preset',
      'micro',
      '--seed',
      '2',
      '--updates',
      '1',
      '--init',
      shippedMicro,
      ...tiny,
    ];
    expect((await runCaptured(trainRun, [...base, '--backend', 'cpu', '--out', join(dir, 'on-cpu')])).code).toBe(0);
    expect((await runCaptured(trainRun, [...base, '--backend', 'webgpu', '--out', join(dir, 'on-gpu')])).code).toBe(0);
    const metric = (run: string) =>
      JSON.parse(
        readFileSync(join(dir, run, 'metrics.jsonl'), 'utf8')
          .trim()
          .split('\n')[0],
      );
    expect(metric('on-gpu').success).toBe(metric('on-cpu').success);
    expect(metric('on-gpu').total).toBeCloseTo(metric('on-cpu').total, 4);
    const cpu = params(join(dir, 'on-cpu', 'last.ckpt'));
    const gpu = params(join(dir, 'on-gpu', 'last.ckpt'));
    // AdamW's first step moves each weight by about lr * g / (|g| + eps): where a gradient is near eps the two
    // backends' last-digit differences show as a fraction of lr, so the bound is 5% of lr (0.01).
    expect(Math.max(...cpu.map((v, i) => Math.abs(v - gpu[i])))).toBeLessThan(5e-4);
    expect(cpu).not.toEqual(params(shippedMicro));
  }, 120_000);

  it('eval prints success, per_type and episodes', async () => {
    const { code, stdout } = await runCaptured(evalRun, [
      '--ckpt',
      join(dir, 'straight', 'last.ckpt'),
      '--split',
      'unseen',
      '--episodes',
      '3',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(Object.keys(result).sort()).toEqual(['episodes', 'per_type', 'success']);
    expect(result.episodes).toBe(3);
    expect(result.success).toBeGreaterThanOrEqual(0);
    expect(result.success).toBeLessThanOrEqual(1);
  }, 60_000);

  it('eval --scenes plays scene JSON files: the same figures as the split they were written from', async () => {
    const scenes = join(dir, 'scenes');
    mkdirSync(scenes);
    evalScenes('seen')
      .slice(0, 3)
      .forEach((scene, i) => {
        writeFileSync(join(scenes, `g${i}.json`), sceneToJson(scene));
      });
    // A directory named like a scene file is not one.
    mkdirSync(join(scenes, 'x.json'));
    const ckpt = join(dir, 'straight', 'last.ckpt');
    const fromFiles = JSON.parse((await runCaptured(evalRun, ['--ckpt', ckpt, '--scenes', scenes])).stdout);
    const fromSplit = JSON.parse(
      (await runCaptured(evalRun, ['--ckpt', ckpt, '--split', 'seen', '--episodes', '3'])).stdout,
    );
    expect(fromFiles).toEqual(fromSplit);
    writeFileSync(join(scenes, 'g9.json'), '{"room": "kitchen"');
    await expect(runCaptured(evalRun, ['--ckpt', ckpt, '--scenes', scenes])).rejects.toThrow(/g9\.json/);
  }, 60_000);

  it('never overwrites a run directory unasked, and one run at a time holds it', async () => {
    const straight = join(dir, 'straight');
    const before = readFileSync(join(straight, 'metrics.jsonl'), 'utf8');
    const base = [
      '--algo',
      'seed',
      '--preset',
      'micro',
      '--seed',
      '4',
      '--backend',
      'cpu',
      '--init',
      warm,
      '--updates',
      '1',
      ...small,
    ];
    await expect(runCaptured(trainRun, [...base, '--out', straight])).rejects.toThrow(
      /straight already holds files \(.*\): --resume continues its run, --force starts over$/,
    );
    expect(readFileSync(join(straight, 'metrics.jsonl'), 'utf8')).toBe(before);
    const held = join(dir, 'held');
    mkdirSync(held);
    writeFileSync(join(held, 'run.lock'), `${process.ppid}\n`);
    await expect(runCaptured(trainRun, [...base, '--out', held])).rejects.toThrow(`in use by process ${process.ppid}`);
    const forced = join(dir, 'forced');
    mkdirSync(forced);
    writeFileSync(join(forced, 'metrics.jsonl'), '{"update":0}\n{"update":1}\n');
    expect((await runCaptured(trainRun, [...base, '--out', forced, '--force'])).code).toBe(0);
    expect(
      readFileSync(join(forced, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).update),
    ).toEqual([0]);
    expect(readdirSync(forced).sort()).toEqual(['last.ckpt', 'metrics.jsonl', 'reference.ckpt']);
  }, 60_000);

  it("checks a checkpoint's run config before evaluating or resuming with it", async () => {
    const run = join(dir, 'bad-config');
    cpSync(join(dir, 'straight'), run, { recursive: true });
    const last = join(run, 'last.ckpt');
    const ck = readCheckpoint(new Uint8Array(readFileSync(last)));
    writeFileSync(
      last,
      writeCheckpoint({
        ...ck,
        metadata: { ...ck.metadata, config: { ...(ck.metadata.config as object), maxSteps: -3 } },
      }),
    );
    await expect(runCaptured(evalRun, ['--ckpt', last, '--split', 'seen', '--episodes', '1'])).rejects.toThrow(
      new CliError(`${last}: metadata.config: setting maxSteps is outside [1, 100], got -3`),
    );
    await expect(runCaptured(teacherRun, ['--ckpt', last, '--games', '2'])).rejects.toThrow(
      new CliError(`${last}: metadata.config: setting maxSteps is outside [1, 100], got -3`),
    );
    const resume = [
      '--algo',
      'seed',
      '--preset',
      'micro',
      '--seed',
      '4',
      '--backend',
      'cpu',
      '--updates',
      '3',
      '--out',
      run,
      '--resume',
    ];
    await expect(runCaptured(trainRun, resume)).rejects.toThrow(
      new CliError(`--resume: ${last}: metadata.config: setting maxSteps is outside [1, 100], got -3`),
    );
    writeFileSync(last, writeCheckpoint({ ...ck, metadata: { ...ck.metadata, config: 'fast' } }));
    await expect(runCaptured(evalRun, ['--ckpt', last, '--split', 'seen'])).rejects.toThrow(
      new CliError(`${last}: metadata.config must be a JSON object, got "fast"`),
    );
  }, 60_000);

  it('trains a part control named in --algo, and resumes it from its checkpoint', async () => {
    const run = join(dir, 'part');
    const base = ['--preset', 'micro', '--seed', '4', '--backend', 'cpu', '--init', warm, '--out', run, ...small];
    const first = await runCaptured(trainRun, ['--algo', 'seed-shuffled', '--updates', '1', ...base]);
    expect(first.stderr).not.toContain('former name');
    expect(JSON.parse(first.stdout)).toMatchObject({ algo: 'seed-shuffled', updates: 1 });
    const line = JSON.parse(readFileSync(join(run, 'metrics.jsonl'), 'utf8').trim());
    expect(line.algo).toBe('seed-shuffled');
    expect('corrDeltaAdvantage' in line).toBe(true);
    for (const key of [
      'corrDeltaExpert',
      'corrDeltaAdvantageWon',
      'corrDeltaAdvantageLost',
      'meanAbsDelta',
      'forcedShare',
    ])
      expect(key in line, key).toBe(true);
    expect(line.zeroVarianceGroups).toBeGreaterThanOrEqual(0);
    expect(line.teacherOwnSkill).toBeNull();
    expect(line.skillPlaceTrue === null || (line.skillPlaceTrue >= 0 && line.skillPlaceTrue <= 1)).toBe(true);
    expect('skillPlaceFalse' in line).toBe(true);
    // Skills that repeat a phrase are counted apart in metrics.jsonl.
    expect(line.degenerateSkillRate).toBeGreaterThanOrEqual(0);
    expect(line.degenerateSkillRate).toBeLessThanOrEqual(1);
    const resumed = await runCaptured(trainRun, ['--algo', 'seed-shuffled', '--updates', '2', '--resume', ...base]);
    expect(resumed.stderr).not.toContain('former name');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ algo: 'seed-shuffled', updates: 2 });
  }, 60_000);

  it('refuses bad input with one clear line', async () => {
    const base = ['--preset', 'micro', '--updates', '1', '--seed', '1', '--init', warm, '--out', join(dir, 'x')];
    await expect(runCaptured(trainRun, ['--algo', 'seed', '--backend', 'tpu', ...base])).rejects.toThrow(
      /--backend must be cpu or webgpu, got "tpu"/,
    );
    await expect(runCaptured(trainRun, ['--algo', 'ppo', '--backend', 'cpu', ...base])).rejects.toThrow(
      /unknown --algo "ppo"/,
    );
    await expect(
      runCaptured(trainRun, ['--algo', 'seed', '--backend', 'cpu', ...base, '--set', 'lambda=x']),
    ).rejects.toThrow(CliError);
    await expect(runCaptured(trainRun, ['--algo', 'seed', '--backend', 'cpu', ...base, '--resume'])).rejects.toThrow(
      /holds no checkpoint \(its run stopped before its first one\): --force starts the run over$/,
    );
    await expect(runCaptured(evalRun, ['--ckpt', join(dir, 'missing.ckpt'), '--split', 'seen'])).rejects.toThrow(
      /cannot read/,
    );
    await expect(runCaptured(evalRun, ['--ckpt', warm, '--split', 'train'])).rejects.toThrow(
      /^--split must be one of seen, unseen, validation, validation-unseen, got "train"$/,
    );
    await expect(
      runCaptured(warmRun, ['--preset', 'micro', '--seed', '2', '--out', join(dir, 'k.ckpt'), '--kinds', 'act,teach']),
    ).rejects.toThrow(/^--kinds must be a comma-separated list of act, follow, analyze, got "act,teach"$/);
  }, 60_000);
});

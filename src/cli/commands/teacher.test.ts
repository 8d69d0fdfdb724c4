import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCaptured } from '../testing.ts';
import { run as ckptRun } from './ckpt.ts';
import { run as teacherRun } from './teacher.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-teacher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seed teacher', () => {
  it('prints the check as JSON, and refuses bad options', async () => {
    const file = join(dir, 'micro.ckpt');
    await runCaptured(ckptRun, ['init', '--preset', 'micro', '--seed', '3', '--out', file]);
    const { code, stdout } = await runCaptured(teacherRun, ['--ckpt', file, '--games', '3', '--temperature', '0']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).toEqual([
      'skills',
      'valid_skills',
      'skill_place_true',
      'skill_place_false',
      'games',
      'first',
      'no_skill',
      'own_skill',
      'other_skill',
      'blank_skill',
      'after_won',
      'after_failed',
      'own_gain',
      'effects',
    ]);
    expect(json.own_gain.mean).toBeCloseTo(json.own_skill - json.no_skill, 12);
    expect(Object.keys(json.effects)).toEqual(['block', 'content', 'blank']);
    expect(json.effects.block.mean + json.effects.content.mean).toBeCloseTo(json.own_gain.mean, 12);
    expect(json.games).toBe(3);
    expect(json.skills).toBe('own');
    const annotated = JSON.parse(
      (await runCaptured(teacherRun, ['--ckpt', file, '--games', '3', '--skills', 'annotator'])).stdout,
    );
    expect(annotated.skills).toBe('annotator');
    expect(annotated.first).toBe(json.first);
    await expect(teacherRun(['--ckpt', file, '--skills', 'mine'])).rejects.toThrow(
      /--skills must be one of own, annotator/,
    );
    await expect(teacherRun(['--ckpt', file, '--games', '1'])).rejects.toThrow(
      /--games must be in 2\.\.100000, got "1"/,
    );
    await expect(teacherRun(['--ckpt', file, '--games', '+2'])).rejects.toThrow(
      '--games must be written in plain digits, as 2, got "+2"',
    );
    await expect(teacherRun(['--games', '4'])).rejects.toThrow(/--ckpt/);
    await expect(teacherRun(['--ckpt', file, '--temperature=-1'])).rejects.toThrow(
      /--temperature must be in \[0, 5\], got "-1"/,
    );
  });
});

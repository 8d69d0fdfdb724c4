// `seed scenes` on a large count shows its progress on stderr (the command line's progress helper), and keeps
// stdout for the paths it writes; a small count writes no progress.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing.ts';
import { PROGRESS_FROM, run } from './scenes.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function scenes(count: number) {
  const out = await mkdtemp(join(tmpdir(), 'seed-scenes-'));
  dirs.push(out);
  const args = ['--split', 'train', '--count', String(count), '--seed', '3', '--out', out];
  return { out, ...(await runCaptured(run, args)) };
}

describe('seed scenes', () => {
  it(`shows its progress on stderr from ${PROGRESS_FROM} scenes, and prints only the paths on stdout`, async () => {
    const { out, code, stdout, stderr } = await scenes(PROGRESS_FROM);
    expect(code).toBe(0);
    const paths = stdout.trim().split('\n');
    expect(paths).toHaveLength(PROGRESS_FROM);
    expect((await readdir(out)).length).toBe(PROGRESS_FROM);
    expect(stderr).toContain(`scenes: 0/${PROGRESS_FROM}`);
    expect(stderr).toContain(`scenes: ${PROGRESS_FROM}/${PROGRESS_FROM}`);
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^wrote ${PROGRESS_FROM} tiny household train scenes`),
    );
  });

  it('writes no progress for fewer scenes', async () => {
    const { code, stderr } = await scenes(3);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^wrote 3 tiny household train scenes \(seed 3\) to .*\n$/);
  });
});

// `seed scenes` on a large count shows its progress on stderr (the command line's progress helper), and keeps
// stdout for the paths it writes; a small count writes no progress.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing.ts';
import { CliError } from '../cli_error.ts';
import { PROGRESS_FROM, run, writeAllOrNone } from './scenes.ts';

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

  it('keeps none of its files when a write fails midway (a full disk), and touches nothing else in the folder', async () => {
    const out = await mkdtemp(join(tmpdir(), 'seed-scenes-'));
    dirs.push(out);
    await writeFile(join(out, 'kept.json'), '{}');
    const files = Array.from({ length: 5 }, (_, i) => ({ name: `train-3-${i}.json`, text: `{"i":${i}}` }));
    let written = 0;
    const fullAfterTwo = async (path: string, text: string) => {
      if (written === 2) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      await writeFile(path, text);
      written++;
    };
    const refused = await writeAllOrNone(out, files, undefined, fullAfterTwo).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CliError);
    expect((refused as Error).message).toBe(
      `cannot write ${join(out, 'train-3-2.json')}: ENOSPC (none of the 2 written before it is kept)`,
    );
    expect(await readdir(out)).toEqual(['kept.json']);
    // The same files, written in full, all land in the folder.
    expect(await writeAllOrNone(out, files)).toEqual(files.map((f) => join(out, f.name)));
    expect((await readdir(out)).sort()).toEqual(['kept.json', ...files.map((f) => f.name)]);
  });

  it('writes no progress for fewer scenes', async () => {
    const { code, stderr } = await scenes(3);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^wrote 3 tiny household train scenes \(seed 3\) to .*\n$/);
  });
});

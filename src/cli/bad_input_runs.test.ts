// Bad input that could cost a user their data, run in-process against one real run directory R (`train
// --algo seed --preset micro --seed 1 --updates 2`): a mistyped or wrong --init with --force, an output that
// is an input, run checkpoints whose metadata is out of range, weights that overflow, locks that are no
// lock files. Each must be refused in one line before anything in R changes; what a resume drops it names.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readCheckpoint, writeCheckpoint, type Checkpoint } from '../model/checkpoint.ts';
import { CliError } from './cli_error.ts';
import { run as ckpt } from './commands/ckpt.ts';
import { run as exportOnnx } from './commands/export_onnx.ts';
import { run as scenes } from './commands/scenes.ts';
import { run as train } from './commands/train.ts';
import { run as warmstart } from './commands/warmstart.ts';
import { runCaptured } from './testing.ts';

const root = mkdtempSync(join(tmpdir(), 'seed-bad-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const at = (...parts: string[]) => join(root, ...parts);

const R = at('R');
const small = ['--set', 'groupSize=2', '--set', 'tasksPerUpdate=1', '--set', 'maxSteps=2', '--set', 'history=2'];
const trainArgs = (out: string, updates = 2) => [
  '--algo',
  'seed',
  '--preset',
  'micro',
  '--seed',
  '1',
  '--updates',
  String(updates),
  '--out',
  out,
  ...small,
];

/** Every file under `dir` with its bytes, to show that nothing changed. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    try {
      out[name] = readFileSync(join(dir, name)).toString('base64');
    } catch {
      out[name] = '(not a file)';
    }
  }
  return out;
}

/** The CliError message of a command that must fail. */
async function refusal(run: (args: string[]) => Promise<number>, args: string[]): Promise<string> {
  const err = await runCaptured(run, args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CliError);
  return (err as Error).message;
}

/** A copy of R whose checkpoint `file` is rewritten by `change`. */
function copyWith(name: string, file: 'last.ckpt' | 'reference.ckpt', change: (ck: Checkpoint) => Checkpoint): string {
  const dir = at(name);
  cpSync(R, dir, { recursive: true });
  const ck = readCheckpoint(new Uint8Array(readFileSync(join(dir, file))));
  writeFileSync(join(dir, file), writeCheckpoint(change(ck)));
  return dir;
}

const micro = at('micro.ckpt');
const tiny = at('tiny.ckpt');

beforeAll(async () => {
  await runCaptured(train, trainArgs(R));
  await runCaptured(ckpt, ['init', '--preset', 'micro', '--seed', '1', '--out', micro]);
  await runCaptured(ckpt, ['init', '--preset', 'tiny', '--seed', '1', '--out', tiny]);
}, 120_000);

describe('train --force reads and checks every input before it empties the run directory', () => {
  it("a missing, non-checkpoint or other preset's --init, or one whose header differs from the preset, leaves R as it was", async () => {
    const before = contents(R);
    writeFileSync(at('image.png'), Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13));
    const ck = readCheckpoint(new Uint8Array(readFileSync(micro)));
    writeFileSync(at('heads.ckpt'), writeCheckpoint({ ...ck, config: { ...ck.config, nHead: 4 } }));
    writeFileSync(at('eps.ckpt'), writeCheckpoint({ ...ck, config: { ...ck.config, lnEps: 1e-3 } }));
    const force = (init: string) => refusal(train, [...trainArgs(R, 1), '--force', '--init', init]);
    expect(await force(at('typo.ckpt'))).toBe(`cannot read ${at('typo.ckpt')}: ENOENT`);
    expect(await force(at('image.png'))).toBe(`${at('image.png')}: not a SEED checkpoint (no SEEDCKPT magic)`);
    expect(await force(tiny)).toMatch(
      new RegExp(
        `^${tiny} is a checkpoint of the tiny preset, not of micro: dModel 48 \\(expected 16\\), nHead 4 \\(expected 2\\), dMlp 192 \\(expected 64\\)$`,
      ),
    );
    expect(await force(at('heads.ckpt'))).toBe(
      `${at('heads.ckpt')} is no preset's checkpoint, not of micro: nHead 4 (expected 2)`,
    );
    expect(await force(at('eps.ckpt'))).toBe(
      `${at('eps.ckpt')} is no preset's checkpoint, not of micro: lnEps 0.001 (expected 0.00001)`,
    );
    expect(contents(R)).toEqual(before);
  });

  it('finite weights so large that the forward overflows (every weight 3e38) are refused naming the checkpoint', async () => {
    const before = contents(R);
    const ck = readCheckpoint(new Uint8Array(readFileSync(micro)));
    writeFileSync(at('huge.ckpt'), writeCheckpoint({ ...ck, params: new Float32Array(ck.params.length).fill(3e38) }));
    const message = await refusal(train, [...trainArgs(R, 1), '--force', '--init', at('huge.ckpt')]);
    expect(message).toMatch(
      new RegExp(
        `^${at('huge.ckpt')}: its weights give non-finite logits \\(the logit of token 0 at position 0 is NaN\\)`,
      ),
    );
    expect(contents(R)).toEqual(before);
  });

  it('--init inside the directory that --force would empty is refused', async () => {
    const before = contents(R);
    expect(await refusal(train, [...trainArgs(R, 1), '--force', '--init', join(R, 'last.ckpt')])).toBe(
      `cannot write ${join(R, 'last.ckpt')} (--out): it is the file --init reads, and a command never writes over its input`,
    );
    expect(contents(R)).toEqual(before);
  });
});

describe('an output that is an input is refused', () => {
  it('export-onnx --ckpt X --out X, by the same name or another', async () => {
    const x = at('export', 'x.ckpt');
    mkdirSync(at('export'));
    cpSync(micro, x);
    const before = contents(at('export'));
    for (const out of [x, at('export', '.', 'x.ckpt')]) {
      expect(await refusal(exportOnnx, ['--ckpt', x, '--out', out])).toBe(
        `cannot write ${out} (--out): it is the file --ckpt reads, and a command never writes over its input`,
      );
    }
    expect(contents(at('export'))).toEqual(before);
  });
});

describe('--resume checks the run checkpoints field by field before it touches metrics.jsonl', () => {
  const cases: [string, 'last.ckpt' | 'reference.ckpt', (ck: Checkpoint) => Checkpoint, string][] = [
    [
      'updates -5',
      'last.ckpt',
      (ck) => ({ ...ck, metadata: { ...ck.metadata, updates: -5 } }),
      'metadata.updates is -5, not a whole number in [0, 1000000000]',
    ],
    [
      'updates 1e300',
      'last.ckpt',
      (ck) => ({ ...ck, metadata: { ...ck.metadata, updates: 1e300 } }),
      'metadata.updates is 1e+300, not a whole number in [0, 1000000000]',
    ],
    [
      'episodes -1',
      'last.ckpt',
      (ck) => ({ ...ck, metadata: { ...ck.metadata, episodes: -1 } }),
      'metadata.episodes is -1, not a whole number in [0, 139264]',
    ],
    [
      'another preset',
      'last.ckpt',
      (ck) => ({ ...ck, metadata: { ...ck.metadata, preset: 'tiny' } }),
      'its metadata names the tiny preset, but its weights are of the micro preset (dModel 16 (expected 48), nHead 2 (expected 4), dMlp 64 (expected 192))',
    ],
    [
      'a string as the library',
      'last.ckpt',
      (ck) => ({ ...ck, metadata: { ...ck.metadata, staticLibrary: 'skills' } }),
      'metadata.staticLibrary is "skills", not skills by task type',
    ],
    [
      'optimizer step 2^53',
      'last.ckpt',
      (ck) => ({ ...ck, optimizer: { ...ck.optimizer!, step: 2 ** 53 } }),
      "the optimizer's step 9007199254740992 is more than 16000000000, the most a run takes",
    ],
    [
      'an all-zero reference',
      'reference.ckpt',
      (ck) => ({ ...ck, params: new Float32Array(ck.params.length) }),
      'its weights are all zero, not a trained or initialised model',
    ],
  ];
  for (const [label, file, change, why] of cases) {
    it(`refuses ${label} in one line, and changes nothing`, async () => {
      const dir = copyWith(label.replace(/\W+/g, '-'), file, change);
      const before = contents(dir);
      expect(await refusal(train, [...trainArgs(dir, 3), '--resume'])).toBe(`--resume: ${join(dir, file)}: ${why}`);
      expect(contents(dir)).toEqual(before);
    });
  }

  it('says in one line which metrics lines it drops: of another schema, repeated updates, updates after the checkpoint', async () => {
    const dir = at('noisy');
    cpSync(R, dir, { recursive: true });
    const lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').trim().split('\n');
    const later = JSON.stringify({ ...JSON.parse(lines[1]), update: 2 });
    writeFileSync(
      join(dir, 'metrics.jsonl'),
      [lines[0], '{"update":1,"loss":"x"}', lines[0], lines[1], later, ''].join('\n'),
    );
    const { stderr } = await runCaptured(train, [...trainArgs(dir, 2), '--resume']);
    expect(stderr).toContain(
      `${join(dir, 'metrics.jsonl')}: dropped 3 lines: 1 not of this run's metrics (its algorithm, episodes and success); 1 repeating an update of an earlier line; ` +
        "1 of updates after the checkpoint's update 2, which the run does again\n",
    );
    expect(readFileSync(join(dir, 'metrics.jsonl'), 'utf8')).toBe(`${lines[0]}\n${lines[1]}\n`);
  });
});

describe('run locks and interrupted runs', () => {
  it('a run.lock that is a directory: one line, and nothing is removed', async () => {
    const dir = at('locked-dir');
    cpSync(R, dir, { recursive: true });
    mkdirSync(join(dir, 'run.lock'));
    const before = contents(dir);
    expect(await refusal(train, [...trainArgs(dir, 3), '--resume'])).toBe(
      `cannot lock ${dir}: ${join(dir, 'run.lock')} is a directory, not a lock file; remove it if no run uses ${dir}`,
    );
    expect(contents(dir)).toEqual(before);
  });

  it('a run stopped before its first checkpoint: --resume says that --force starts it over', async () => {
    const dir = at('cut-short');
    mkdirSync(dir);
    writeFileSync(join(dir, 'metrics.jsonl'), '');
    expect(await refusal(train, [...trainArgs(dir, 3), '--resume'])).toBe(
      `--resume: ${dir} holds no checkpoint (its run stopped before its first one): --force starts the run over`,
    );
  });
});

describe('settings and paths', () => {
  it('--set of a value that rounds to 0 is refused like one out of range', async () => {
    for (const value of ['1e-400', '1e-320', '1e-46']) {
      expect(await refusal(train, [...trainArgs(at('never'), 1), '--set', `lr=${value}`])).toBe(
        `--set: setting lr is too small: it rounds to 0 in float32, got ${value}`,
      );
    }
  });

  it('warmstart --out in a folder it cannot write is refused before its corpus, training and evaluation', async () => {
    // /sys takes no new file, even from root (EACCES; EROFS where it is mounted read-only).
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    const args = ['--preset', 'micro', '--seed', '1', '--steps', '2', '--eval-episodes', '1', '--out', '/sys/w.ckpt'];
    const err = await warmstart(args).then(
      () => null,
      (e: unknown) => e,
    );
    spy.mockRestore();
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/^cannot write \/sys\/w\.ckpt: E[A-Z]+$/);
    expect(stderr).toBe('');
  });

  it('scenes --out under /proc returns with one line', async () => {
    expect(await refusal(scenes, ['--split', 'train', '--count', '1', '--seed', '1', '--out', '/proc/x'])).toBe(
      'cannot create /proc/x: ENOENT',
    );
  });
});

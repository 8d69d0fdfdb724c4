// The bad-input corpus, run against the real command line (a child process per invocation): malformed and
// hostile files, huge counts, lenient numbers, names that are object keys or hold line breaks and terminal
// escapes, busy or non-empty run directories. Each must exit non-zero with exactly one line on stderr
// ("error: ..."), no stack trace and no raw control character, and leave no file behind in its output
// directory. A case still running after HANG_MS is killed and counts as a hang.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateScene } from '../worlds/household/env/splits.ts';
import { sceneToJson } from '../worlds/household/env/scene.ts';
import { shopSceneToJson } from '../worlds/shop/env/scene.ts';
import { generateShopScene } from '../worlds/shop/env/splits.ts';
import { readCheckpoint, writeCheckpoint } from '../model/checkpoint.ts';
import { headerJson, sealedCheckpoint } from '../model/checkpoint_testing.ts';
import { presetConfig } from '../model/config.ts';
import { parameterLayout } from '../model/layout.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { run as ckpt } from './commands/ckpt.ts';
import { run as train } from './commands/train.ts';
import { runCaptured } from './testing.ts';

const root = mkdtempSync(join(tmpdir(), 'seed-bad-input-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const at = (...parts: string[]) => join(root, ...parts);

/**
 * Far above the seconds a case takes (most of it the start of Node and tsx), on a machine twice as slow and
 * busy with other work too: only a command that never returns reaches it.
 */
const HANG_MS = 120_000;

interface Outcome {
  /** null when the command was killed as a hang. */
  code: number | null;
  stderr: string;
}

/** One invocation of `npm run seed -- ...args` (without npm), killed after HANG_MS. */
function cli(args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './scripts/register-raw.mjs', 'src/seed.ts', ...args],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: HANG_MS,
        killSignal: 'SIGKILL',
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Every file under `dir`, with its size. */
function files(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    // A file may vanish between the listing and its size (a temporary file being renamed).
    const size = entry.isFile() ? statSync(path, { throwIfNoEntry: false })?.size : undefined;
    if (size !== undefined) out.set(path, size);
  }
  return out;
}

const ESC = '\u001b';
const ckptFile = at('micro.ckpt');
const run = at('run');
const scenesDir = at('scenes');

beforeAll(async () => {
  await runCaptured(ckpt, ['init', '--preset', 'micro', '--seed', '1', '--out', ckptFile]);
  const small = ['--set', 'groupSize=2', '--set', 'tasksPerUpdate=1', '--set', 'maxSteps=2', '--set', 'history=2'];
  await runCaptured(train, [
    '--algo',
    'grpo',
    '--preset',
    'micro',
    '--updates',
    '1',
    '--seed',
    '1',
    '--init',
    ckptFile,
    '--out',
    run,
    ...small,
  ]);
  const config = presetConfig('micro', defaultTokenizer().vocabSize);
  // 424 bytes, a valid checksum, and a header declaring 2^20 layers.
  const huge = headerJson({ ...config, nLayer: 1 << 20 }, { n: '' }, 1 << 30);
  writeFileSync(
    at('huge.ckpt'),
    sealedCheckpoint(headerJson({ ...config, nLayer: 1 << 20 }, { n: 'x'.repeat(400 - huge.length) }, 1 << 30)),
  );
  const n = parameterLayout(config).totalFloats;
  const deep = `{"config":${JSON.stringify(config)},"vocabHash":"${defaultTokenizer().hash}","parameterFloats":${n},"optimizer":null,"metadata":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
  writeFileSync(at('deep.ckpt'), sealedCheckpoint(deep, 4 * n));
  const ck = readCheckpoint(new Uint8Array(readFileSync(ckptFile)));
  writeFileSync(
    at('bad-config.ckpt'),
    writeCheckpoint({ ...ck, metadata: { ...ck.metadata, config: { maxSteps: -3 } } }),
  );
  writeFileSync(
    at('slotted.ckpt'),
    writeCheckpoint({
      ...ck,
      metadata: { ...ck.metadata, stage: 'warmstart', config: { skillSlot: 1, maxSkillTokens: 48 } },
    }),
  );
  writeFileSync(at('unslotted.ckpt'), writeCheckpoint({ ...ck, metadata: { ...ck.metadata, stage: 'warmstart' } }));
  const scene = sceneToJson(generateScene('train', 1));
  writeFileSync(at('scene.json'), scene);
  writeFileSync(
    at('deep-scene.json'),
    scene.replace('"version": 1', `"version": ${'['.repeat(100_000)}${']'.repeat(100_000)}`),
  );
  writeFileSync(at('not-json.json'), '{"room": "kitchen"');
  mkdirSync(join(scenesDir, 'x.json'), { recursive: true });
  spawnSync('mkfifo', [at('pipe')]);
  mkdirSync(at('deep-scenes'));
  cpSync(at('deep-scene.json'), at('deep-scenes', 'a.json'));
  writeFileSync(at('deep-loss.json'), `{"lambda": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  cpSync(run, at('busy'), { recursive: true });
  writeFileSync(at('busy', 'run.lock'), `${process.pid}\n`);
  cpSync(run, at('damaged'), { recursive: true });
  appendFileSync(at('damaged', 'metrics.jsonl'), '{"upd\n{"update":3}\n');
  writeFileSync(
    at('huge-weights.ckpt'),
    writeCheckpoint({ ...ck, params: new Float32Array(ck.params.length).fill(3e38) }),
  );
  cpSync(run, at('minus5'), { recursive: true });
  const last = readCheckpoint(new Uint8Array(readFileSync(at('minus5', 'last.ckpt'))));
  writeFileSync(at('minus5', 'last.ckpt'), writeCheckpoint({ ...last, metadata: { ...last.metadata, updates: -5 } }));
  cpSync(run, at('lock-dir'), { recursive: true });
  mkdirSync(at('lock-dir', 'run.lock'));
  mkdirSync(at('cut-short'));
  writeFileSync(at('cut-short', 'metrics.jsonl'), '');
  // Shop scenes: an option named like a member of every object, a field the format lacks, a bound far too high.
  const shop = shopSceneToJson(generateShopScene('train', 0));
  writeFileSync(at('shop.json'), shop);
  mkdirSync(at('poisoned-shop'));
  for (const [i, name] of ['constructor', '__proto__'].entries())
    writeFileSync(at('poisoned-shop', `${i}.json`), shop.replace('"options":{', `"options":{"${name}":"x",`));
  writeFileSync(at('shop-instruction.json'), shop.replace('"goal":{', '"goal":{"instruction":"i need a mug",'));
  writeFileSync(at('shop-bound.json'), shop.replace(/"priceUpperCents":\d+/, '"priceUpperCents":1e300'));
  // Searches longer than a policy writes: 10,000 words, and a 4 MB line.
  writeFileSync(at('long-search.txt'), `search[${Array<string>(10_000).fill('shirt').join(' ')}]\n`);
  writeFileSync(at('huge-search.txt'), `search[${'a-'.repeat(2 << 20)}]\n`);
}, 60_000);

const micro = ['--preset', 'micro', '--seed', '1'];
const trainArgs = ['--algo', 'seed', ...micro, '--updates', '1'];

/** [label, args (OUT is the case's own empty output directory)]. */
const corpus: [string, string[]][] = [
  // Command and benchmark names: object keys, empty, control characters.
  ...['constructor', '__proto__', 'toString', 'hasOwnProperty', '', `x\n${ESC}[31mred`].map(
    (name): [string, string[]] => [`command ${JSON.stringify(name)}`, [name]],
  ),
  ...['constructor', '__proto__', 'toString'].map((name): [string, string[]] => [`bench ${name}`, ['bench', name]]),
  ['unknown option with an escape', ['scenes', `--${ESC}[2J`]],
  ['missing file named with a newline and an escape', ['ckpt', 'inspect', `a\nb${ESC}[31m.ckpt`]],
  // Lenient numbers.
  ['--count 0x10', ['scenes', '--split', 'train', '--count', '0x10', '--seed', '1', '--out', 'OUT']],
  ['--count " 5"', ['scenes', '--split', 'train', '--count', ' 5', '--seed', '1', '--out', 'OUT']],
  ["--updates ''", ['train', ...trainArgs.slice(0, -1), '', '--out', 'OUT']],
  ['--checkpoint-every=-1', ['train', ...trainArgs, '--checkpoint-every=-1', '--out', 'OUT']],
  ['--eval-episodes=-5', ['train', ...trainArgs, '--eval-episodes=-5', '--out', 'OUT']],
  ['--temperature 1e400', ['eval', '--ckpt', ckptFile, '--split', 'seen', '--temperature', '1e400']],
  ['--focus-share 1e-400', ['warmstart', ...micro, '--focus-share', '1e-400', '--out', 'OUT/w.ckpt']],
  ['teacher --games +2', ['teacher', '--ckpt', ckptFile, '--games', '+2']],
  ['scenes --seed abc', ['scenes', '--split', 'train', '--count', '2', '--seed', 'abc', '--out', 'OUT']],
  // Options and files of the other world.
  ['warmstart --focus option in the household', ['warmstart', ...micro, '--focus', 'option', '--out', 'OUT/w.ckpt']],
  ['expert on a shop scene without --env', ['expert', '--scene', at('shop.json')]],
  [
    'play --env shop on a household scene',
    ['play', '--env', 'shop', '--scene', at('scene.json'), '--actions', '/dev/null'],
  ],
  // Huge counts.
  ['scenes --count 1e12', ['scenes', '--split', 'train', '--count', '1e12', '--seed', '1', '--out', 'OUT']],
  ['warmstart --episodes 1e12', ['warmstart', ...micro, '--episodes', '1e12', '--out', 'OUT/w.ckpt']],
  ['warmstart --steps 1e12', ['warmstart', ...micro, '--steps', '1e12', '--out', 'OUT/w.ckpt']],
  ['export-onnx --episodes 1e12', ['export-onnx', '--ckpt', ckptFile, '--episodes', '1e12', '--out', 'OUT/p.onnx']],
  ['teacher --games 1e12', ['teacher', '--ckpt', ckptFile, '--games', '1e12']],
  ['eval --episodes 1e12', ['eval', '--ckpt', ckptFile, '--split', 'seen', '--episodes', '1e12']],
  ['train --updates 1e12', ['train', '--algo', 'seed', ...micro, '--updates', '1e12', '--out', 'OUT']],
  ['--set groupSize=100000000', ['train', ...trainArgs, '--set', 'groupSize=100000000', '--out', 'OUT']],
  ['--set maxSkillTokens=1e9', ['train', ...trainArgs, '--set', 'maxSkillTokens=1e9', '--out', 'OUT']],
  ['bench env --games 1e12', ['bench', 'env', '--games', '1e12', '--out', 'OUT']],
  ['bench soak --streams 1e9', ['bench', 'soak', '--streams', '1e9', '--out', 'OUT']],
  // Checkpoints: a header declaring 2^20 layers, metadata nested 100,000 deep, an out-of-range run config.
  ...[
    ['ckpt', 'inspect', at('huge.ckpt')],
    ['eval', '--ckpt', at('huge.ckpt'), '--split', 'seen'],
    ['export-onnx', '--ckpt', at('huge.ckpt'), '--out', 'OUT/p.onnx'],
    ['train', ...trainArgs, '--init', at('huge.ckpt'), '--out', 'OUT'],
  ].map((args): [string, string[]] => [`2^20 layers: ${args[0]}`, args]),
  ['deep metadata: ckpt inspect', ['ckpt', 'inspect', at('deep.ckpt'), '--any-vocab']],
  ['metadata.config maxSteps -3: eval', ['eval', '--ckpt', at('bad-config.ckpt'), '--split', 'seen']],
  ['metadata.config maxSteps -3: teacher', ['teacher', '--ckpt', at('bad-config.ckpt'), '--games', '2']],
  ['ckpt inspect /dev/zero', ['ckpt', 'inspect', '/dev/zero']],
  ['ckpt inspect a directory', ['ckpt', 'inspect', root]],
  // Scenes and loss files.
  ['deep scene: expert', ['expert', '--scene', at('deep-scene.json')]],
  ['deep scene: play', ['play', '--scene', at('deep-scene.json'), '--actions', '/dev/null']],
  ['deep scene: eval --scenes', ['eval', '--ckpt', ckptFile, '--scenes', at('deep-scenes')]],
  ['eval --scenes with only a directory x.json', ['eval', '--ckpt', ckptFile, '--scenes', scenesDir]],
  ['scene not JSON', ['expert', '--scene', at('not-json.json')]],
  ['scene /dev/zero', ['expert', '--scene', '/dev/zero']],
  ['play --actions /dev/zero', ['play', '--scene', at('scene.json'), '--actions', '/dev/zero']],
  ['deep loss input', ['loss', '--in', at('deep-loss.json')]],
  // Shop scenes and searches.
  ['shop option "constructor": expert', ['expert', '--env', 'shop', '--scene', at('poisoned-shop', '0.json')]],
  ['shop option "__proto__": play', ['play', '--env', 'shop', '--scene', at('poisoned-shop', '1.json')]],
  [
    'shop options named like object members: eval --scenes',
    ['eval', '--ckpt', ckptFile, '--env', 'shop', '--scenes', at('poisoned-shop')],
  ],
  [
    'shop options named like object members: teacher --scenes',
    ['teacher', '--ckpt', ckptFile, '--env', 'shop', '--scenes', at('poisoned-shop')],
  ],
  ['shop goal.instruction', ['expert', '--env', 'shop', '--scene', at('shop-instruction.json')]],
  ['shop priceUpperCents 1e300', ['expert', '--env', 'shop', '--scene', at('shop-bound.json')]],
  [
    'play a 10,000-word search',
    ['play', '--env', 'shop', '--scene', at('shop.json'), '--actions', at('long-search.txt')],
  ],
  ['play a 4 MB search', ['play', '--env', 'shop', '--scene', at('shop.json'), '--actions', at('huge-search.txt')]],
  ['loss --in a directory', ['loss', '--in', root]],
  // Writes that cannot happen: nothing partial, no temporary file.
  ['ckpt init --out a directory', ['ckpt', 'init', ...micro, '--out', 'OUT']],
  ['ckpt init --out a pipe (as a device would be)', ['ckpt', 'init', ...micro, '--out', at('pipe')]],
  [
    'scenes --out under a file',
    ['scenes', '--split', 'train', '--count', '2', '--seed', '1', '--out', `${ckptFile}/x`],
  ],
  // Run directories: one that holds a run, one in use, one with a damaged metrics line.
  ['train into a run directory without --resume', ['train', ...trainArgs, '--init', ckptFile, '--out', run]],
  [
    'train into a directory in use',
    ['train', '--algo', 'grpo', ...micro, '--updates', '2', '--out', at('busy'), '--resume'],
  ],
  [
    'train --resume with a damaged metrics line',
    ['train', '--algo', 'grpo', ...micro, '--updates', '2', '--out', at('damaged'), '--resume'],
  ],
  ['train --resume --force', ['train', ...trainArgs, '--out', 'OUT', '--resume', '--force']],
  // Inputs checked before a run directory changes, and outputs that are inputs.
  [
    'train into a run directory with --force and a missing --init',
    ['train', ...trainArgs, '--force', '--init', at('typo.ckpt'), '--out', run],
  ],
  [
    'train into a run directory with --force and weights that overflow',
    ['train', ...trainArgs, '--force', '--init', at('huge-weights.ckpt'), '--out', run],
  ],
  [
    'train into a directory whose run.lock is a directory',
    ['train', '--algo', 'grpo', ...micro, '--updates', '2', '--out', at('lock-dir'), '--resume'],
  ],
  [
    'train --resume of a checkpoint at update -5',
    ['train', '--algo', 'grpo', ...micro, '--updates', '2', '--out', at('minus5'), '--resume'],
  ],
  [
    'train --resume of a run stopped before its first checkpoint',
    ['train', '--algo', 'grpo', ...micro, '--updates', '2', '--out', at('cut-short'), '--resume'],
  ],
  ['export-onnx --out its own --ckpt', ['export-onnx', '--ckpt', ckptFile, '--out', ckptFile]],
  ['--set lr=1e-400', ['train', ...trainArgs, '--set', 'lr=1e-400', '--out', 'OUT']],
  // A skill slot the start's contexts did not hold, or a start's slot the run leaves out.
  [
    'train --set skillSlot=1 from a start without one',
    ['train', ...trainArgs, '--init', at('unslotted.ckpt'), '--set', 'skillSlot=1', '--out', 'OUT'],
  ],
  [
    'train from a start with a skill slot, without one',
    ['train', ...trainArgs, '--init', at('slotted.ckpt'), '--out', 'OUT'],
  ],
  [
    'train from a start with a skill slot of another length',
    [
      'train',
      ...trainArgs,
      '--init',
      at('slotted.ckpt'),
      '--set',
      'skillSlot=1',
      '--set',
      'maxSkillTokens=40',
      '--out',
      'OUT',
    ],
  ],
  ['scenes --out /proc/x', ['scenes', '--split', 'train', '--count', '2', '--seed', '1', '--out', '/proc/x']],
];

describe('the bad-input corpus against the command line', () => {
  it(
    `${corpus.length} invocations: each one line on stderr, a non-zero exit, no hang and no file left`,
    async () => {
      const failures: string[] = [];
      const check = async ([label, template]: [string, string[]], i: number) => {
        const out = at('out', String(i));
        mkdirSync(out, { recursive: true });
        const before = files(root);
        const args = template.map((a) => a.replace(/^OUT/, out));
        const { code, stderr } = await cli(args);
        const problems: string[] = [];
        if (code === null) problems.push(`no exit within ${HANG_MS / 1000} s`);
        else if (code === 0 || code === 70) problems.push(`exit code ${code}`);
        if (!/^error: [^\n]*\n$/.test(stderr))
          problems.push(`stderr is not one "error:" line: ${JSON.stringify(stderr.slice(0, 300))}`);
        if (stderr.includes('    at ')) problems.push('a stack trace');
        // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for raw control characters
        if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(stderr)) problems.push('a raw control character');
        const after = files(root);
        for (const [path, size] of after) if (before.get(path) !== size) problems.push(`left ${path} (${size} bytes)`);
        if (problems.length) failures.push(`${label}: ${problems.join('; ')}`);
      };
      // Two at a time: the machine running the tests may have two cores. A run directory's case runs alone: while a
      // train holds its directory's run.lock, a case running beside it would see that lock as a file left behind.
      const alone = (label: string) => label.startsWith('train into') || label.startsWith('train --resume');
      const pairs = corpus.map((c, i) => ({ c, i })).filter(({ c }) => !alone(c[0]));
      for (let k = 0; k < pairs.length; k += 2) await Promise.all(pairs.slice(k, k + 2).map(({ c, i }) => check(c, i)));
      for (const [i, c] of corpus.entries()) if (alone(c[0])) await check(c, i);
      expect(failures).toEqual([]);
      // Each case is bounded by HANG_MS: the test's own limit is only there as a last resort.
    },
    corpus.length * HANG_MS,
  );
});

// `seed probe`: each probe on a tiny input prints its lines and tables, with numbers that mean what they say.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHOP } from '../env/environment.ts';
import { writeCheckpoint } from '../../../model/checkpoint.ts';
import { presetConfig, warmStartPath } from '../../../model/config.ts';
import { initParameters } from '../../../model/init.ts';
import { AWAITS_REBUILD, shippedShopWarmStart } from '../rl/checkpoint_testing.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { runCli } from '../../../cli/cli.ts';
import { SEED_COMMANDS } from '../../../lab/commands.ts';
import { runCaptured } from '../../../cli/testing.ts';
import { run as probeRun } from './probe.ts';
import { run as teacherRun } from '../../../cli/commands/teacher.ts';

const SHOP_FILE = warmStartPath('tiny', 'shop');
const dir = mkdtempSync(join(tmpdir(), 'seed-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A tiny shop policy at its seeded initial weights: what the probes measure of any policy holds for it too. */
const INIT_FILE = join(dir, 'shop-init.ckpt');
const tok = tokenizerOf(SHOP);
const config = presetConfig('tiny', tok.vocabSize);
writeFileSync(
  INIT_FILE,
  writeCheckpoint({
    config,
    vocabHash: tok.hash,
    params: initParameters(config, 5),
    optimizer: null,
    metadata: { preset: 'tiny', seed: 5, stage: 'init', updates: 0 },
  }),
);
const lines = (text: string) => text.trimEnd().split('\n');
/** The numbers of a table cell or line, in order. */
const numbers = (text: string) => [...text.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));

describe('seed probe option-copy', () => {
  it('trains in five parts on synthetic choices, starting from a uniform choice among the 5 listed values', async () => {
    const args = ['option-copy', '--choices', 'synthetic', '--steps', '5', '--train-examples', '40'];
    const { code, stdout } = await runCaptured(probeRun, [...args, '--held-out', '50', '--task-words', '6']);
    expect(code).toBe(0);
    const out = lines(stdout);
    expect(out[0]).toBe(
      'synthetic, 6 task words, 0 filler words, the naming words before the list: 40 training choices, 50 held out, chance 20.0%',
    );
    expect(out.slice(1).map((l) => l.replace(/:.*/, ''))).toEqual([0, 1, 2, 3, 4, 5].map((n) => `steps ${n}`));
    for (const line of out.slice(1)) expect(line).toMatch(/^steps \d+: accuracy \d+\.\d%, NLL \d+\.\d{3}$/);
    // Freshly initialised, the model spreads the mask's probability about evenly: the NLL is near ln 5 (over
    // the whole vocabulary it would be near ln 702).
    const [, , nll] = numbers(out[1]);
    expect(Math.abs(nll - Math.log(5))).toBeLessThan(0.2);
  });

  it("trains on the shop corpus's first choices", async () => {
    const args = ['option-copy', '--choices', 'first', '--train-games', '15', '--held-out', '15', '--steps', '5'];
    const { code, stdout } = await runCaptured(probeRun, args);
    expect(code).toBe(0);
    const out = lines(stdout);
    expect(out[0]).toMatch(/^first choices of 15 shop games: \d+ training choices, \d+ held out, chance \d+\.\d%$/);
    expect(out).toHaveLength(7);
  });

  // A trained policy's copy: the shipped file, when it is of the shop's vocabulary.
  it.runIf(shippedShopWarmStart() !== null)(
    `scores the shipped shop warm start, which copies the value far above chance ${AWAITS_REBUILD}`,
    async () => {
      const { code, stdout } = await runCaptured(probeRun, ['option-copy', '--ckpt', SHOP_FILE, '--held-out', '40']);
      expect(code).toBe(0);
      const out = lines(stdout);
      expect(out.map((l) => l.split(' ')[0])).toEqual(['first', 'later']);
      for (const line of out)
        expect(line).toMatch(/^\w+ choices \(\d+, chance \d+\.\d%\): accuracy \d+\.\d%, NLL \d+\.\d{3}$/);
      const [count, chance, accuracy] = numbers(out[0]);
      expect(count).toBeGreaterThan(10);
      expect(accuracy).toBeGreaterThan(3 * chance);
    },
  );

  it('refuses options that do not apply, in one line each', async () => {
    await expect(probeRun(['option-copy', '--ckpt', SHOP_FILE, '--steps', '5'])).rejects.toThrow(
      /^--ckpt trains nothing: --steps does not apply$/,
    );
    await expect(probeRun(['option-copy', '--choices', 'first', '--after'])).rejects.toThrow(
      /^--after does not apply to --choices first$/,
    );
    await expect(probeRun(['option-copy', '--choices', 'synthetic', '--train-games', '9'])).rejects.toThrow(
      /^--train-games does not apply to --choices synthetic$/,
    );
    await expect(probeRun(['option-copy', '--choices', 'later'])).rejects.toThrow(
      /--choices must be one of synthetic, first, all/,
    );
    await expect(
      probeRun(['option-copy', '--choices', 'synthetic', '--filler', '600', '--train-examples', '2']),
    ).rejects.toThrow(/outgrows the tiny model's 512/);
    await expect(probeRun(['option-copy', '--ckpt', 'public/warmstart-tiny.ckpt'])).rejects.toThrow(/vocabulary/);
  });
});

describe('seed probe reading-ceiling', () => {
  it("plays the teacher check's games: its none and own columns are the check's, its gain is own - none", async () => {
    const { code, stdout } = await runCaptured(probeRun, ['reading-ceiling', '--ckpt', INIT_FILE, '--games', '4']);
    expect(code).toBe(0);
    const out = lines(stdout);
    expect(out[0]).toMatch(
      new RegExp(`^${INIT_FILE}, own skills \\(\\d usable\\), 4 teacher-check games; first episodes won \\d$`),
    );
    expect(out[1]).toBe(
      "| games | n | none / own / own, read perfectly / another game's, read perfectly / none, options right / own, read perfectly, options right |",
    );
    const rows = out.slice(3, 6).map((l) => l.split('|').map((c) => c.trim()));
    expect(rows.map((r) => r[1])).toEqual(['all', 'after a won first episode', 'after a failed one']);
    const [all, won, failed] = rows.map((r) => ({ n: Number(r[2]), success: numbers(r[3]) }));
    expect(all.n).toBe(4);
    expect(won.n + failed.n).toBe(4);
    expect(won.n).toBe(numbers(out[0]).at(-1));
    for (const row of [all, won, failed]) expect(row.success).toHaveLength(6);
    const check = JSON.parse(
      (await runCaptured(teacherRun, ['--env', 'shop', '--ckpt', INIT_FILE, '--games', '4'])).stdout,
    );
    expect(all.success[0]).toBeCloseTo(100 * check.no_skill, 1);
    expect(all.success[1]).toBeCloseTo(100 * check.own_skill, 1);
    const gain = /^own - none: (-?\d+\.\d) points, 95% interval \[(-?\d+\.\d), (-?\d+\.\d)\] \(paired by game\)$/.exec(
      out[6],
    );
    expect(gain, out[6]).not.toBeNull();
    const [mean, low, high] = gain!.slice(1).map(Number);
    expect(mean).toBeCloseTo(all.success[1] - all.success[0], 1);
    expect(low).toBeLessThanOrEqual(mean);
    expect(high).toBeGreaterThanOrEqual(mean);
  });
});

describe('seed probe skill', () => {
  it('tallies every decided step once, with shares and probabilities per context', async () => {
    const { code, stdout } = await runCaptured(probeRun, ['skill', '--ckpt', INIT_FILE, '--games', '12']);
    expect(code).toBe(0);
    const out = lines(stdout);
    const [total] = numbers(out[0].slice(INIT_FILE.length));
    expect(out[0]).toBe(`${INIT_FILE}: ${total} steps a skill decided in 12 held-out games`);
    expect(out[1]).toBe('| step | steps | most probable, own / none / swapped | probability, own / none / swapped |');
    const rows = out.slice(3).map((l) => l.split('|').map((c) => c.trim()));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.reduce((s, r) => s + Number(r[2]), 0)).toBe(total);
    const steps = rows.map((r) => Number(r[2]));
    expect(steps).toEqual([...steps].sort((a, b) => b - a));
    for (const r of rows) {
      expect(r[1]).toMatch(/, after a (won|failed) episode$/);
      expect(r[3]).toMatch(/^\d+% \/ \d+% \/ \d+%$/);
      expect(numbers(r[3]).every((p) => p >= 0 && p <= 100)).toBe(true);
      expect(r[4]).toMatch(/^\d\.\d\d \/ \d\.\d\d \/ \d\.\d\d$/);
      expect(numbers(r[4]).every((p) => p >= 0 && p <= 1)).toBe(true);
    }
  });

  it('is a group: its help lists the three probes', async () => {
    const { code, stdout } = await runCaptured((a) => runCli(a, SEED_COMMANDS), ['probe', '--help']);
    expect(code).toBe(0);
    for (const name of ['option-copy', 'reading-ceiling', 'skill'])
      expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    await expect(probeRun(['ceiling'])).rejects.toThrow(/unknown probe "ceiling"/);
  });
});

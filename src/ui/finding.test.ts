// The finding sentence is written from the record the page ships: its numbers are the record's paired
// difference and interval, read back from the sentence itself. It names the record's world, and the distilling
// arm the record compares with GRPO, whichever that is (a benchmark may pick it on validation).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Algo } from '../rl/arms.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun } from '../rl/recorded_run_check.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';
import { record } from './curves_testing.ts';
import { findingOf, headlineArms, signedPoints } from './finding.ts';
import { armName } from './setting_labels.ts';
import { ofAlgo } from '../rl/arms.ts';

/** The record the page shows of a world (the household's by default): the newest that public/runs/index.json lists. */
function shippedRecord(world: 'household' | 'searchqa' = 'household'): RecordedRun {
  const index = checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8')));
  const newest = newestRecord(index, world)!;
  return parseRecordedRun(readFileSync(`public/runs/${newest.file}`, 'utf8'));
}

/** A record whose main arms are GRPO and `arm`, with a control beside them, and the differences of both to GRPO. */
function recordOf(arm: Algo, env?: 'shop'): RecordedRun {
  const base = record();
  const [grpo, distilling] = base.arms;
  const interval = (value: number) => ({ value, ci: [value - 0.05, value + 0.05] as [number, number] });
  return {
    ...base,
    ...(env ? { env } : {}),
    arms: [grpo, { ...distilling, algo: arm }, { ...distilling, algo: 'seed-crossgame', role: 'control' }],
    differences: [
      { a: 'seed-crossgame', b: 'grpo', seeds: [1], seen: interval(0.2), unseen: interval(0.2) },
      { a: arm, b: 'grpo', seeds: [1, 2, 3], seen: interval(0.1), unseen: interval(0.125) },
      { a: arm, b: 'warm start', seeds: [1, 2, 3], seen: interval(0.3), unseen: interval(0.3) },
    ],
  };
}

/** The numbers a sentence states, in order, as percentage points. */
function numbersIn(text: string): number[] {
  return [...text.replaceAll('−', '-').matchAll(/[-+]?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

describe('findingOf', () => {
  it("states the shipped record's main arm − GRPO on eval-unseen with its interval and seed count", () => {
    const run = shippedRecord();
    const finding = findingOf(run)!;
    const diff = run.differences.find((d) => d.a === finding.arm && d.b === 'grpo')!;
    expect(run.arms.find(ofAlgo(finding.arm))?.role).toBe('main');
    const [seeds, value, lo, hi] = numbersIn(finding.text);
    expect(seeds).toBe(diff.seeds.length);
    expect(value).toBeCloseTo(100 * diff.unseen.value, 1);
    expect(lo).toBeCloseTo(100 * diff.unseen.ci[0], 1);
    expect(hi).toBeCloseTo(100 * diff.unseen.ci[1], 1);
    expect(finding.text).toContain(run.preset);
    const straddles = diff.unseen.ci[0] <= 0 && diff.unseen.ci[1] >= 0;
    if (straddles) expect(finding.text).toMatch(/not (clearly )?ahead at this scale/);
  });

  it("names the record's distilling main arm, seed or seed-exact, and its world", () => {
    for (const arm of ['seed', 'seed-exact'] as const) {
      const finding = findingOf(recordOf(arm))!;
      expect(finding).toMatchObject({ arm, world: 'household', seeds: 3, value: 0.125, verdict: 'ahead' });
      expect(finding.text).toBe(
        `In the household’s recorded benchmark (3 seeds, tiny), ${armName(arm)} − GRPO on eval-unseen is +12.5 points [+7.5, +17.5]: ahead at this scale.`,
      );
    }
    const shop = findingOf(recordOf('seed-exact', 'shop'))!;
    expect(shop.world).toBe('shop');
    expect(shop.text).toMatch(/^In the shop’s recorded benchmark \(3 seeds, tiny\), SEED-exact − GRPO/);
  });

  it('writes every arm in one case: the method in capitals, as GRPO is', () => {
    expect(['grpo', 'seed', 'seed-exact', 'seed-exact-crossgame', 'opid'].map(armName)).toEqual([
      'GRPO',
      'SEED',
      'SEED-exact',
      'SEED-exact-crossgame',
      'OPID',
    ]);
    const text = findingOf(recordOf('seed'))!.text;
    expect(text).toContain('SEED − GRPO');
    expect(text).not.toMatch(/\b(seed|grpo)\b/);
  });

  it("says where both recorded arms went from the warm start, apart from the live run's course", () => {
    const run = shippedRecord('searchqa');
    const finding = findingOf(run)!;
    const moved = (algo: string) => run.differences.find((d) => d.a === algo && d.b === 'warm start')!.unseen.value;
    expect(finding.text).toContain(
      `; GRPO moved ${signedPoints(moved('grpo'))} and ${armName(finding.arm)} ${signedPoints(moved(finding.arm))} points from the warm start.`,
    );
    // Without the arms' differences to the warm start the sentence ends at the verdict.
    const bare = findingOf({ ...run, differences: run.differences.filter((d) => d.b !== 'warm start') })!;
    expect(bare.text).toMatch(/at this scale\.$/);
  });

  it("names the record's headline arm when two main arms distil, else the first of them", () => {
    const base = recordOf('seed-exact');
    const seed = { ...base.arms[1], algo: 'seed' as const };
    const run: RecordedRun = {
      ...base,
      arms: [...base.arms, seed],
      differences: [
        ...base.differences,
        {
          a: 'seed',
          b: 'grpo',
          seeds: [1, 2, 3],
          seen: { value: 0, ci: [-0.1, 0.1] },
          unseen: { value: 0, ci: [-0.1, 0.1] },
        },
      ],
    };
    expect(findingOf(run)?.arm).toBe('seed-exact');
    expect(findingOf({ ...run, headline: 'seed' })).toMatchObject({ arm: 'seed', value: 0, verdict: 'not ahead' });
    expect(findingOf({ ...run, headline: 'seed-exact' })?.arm).toBe('seed-exact');
    // The first screen's chart draws GRPO and the arm asked about; the control never, the other main arm only
    // when the record names no headline arm.
    const drawn = (r: RecordedRun) => headlineArms(r).arms.map((a) => a.algo);
    expect(drawn(run)).toEqual(['grpo', 'seed-exact', 'seed']);
    expect(drawn({ ...run, headline: 'seed' })).toEqual(['grpo', 'seed']);
  });

  it('says ahead or behind only when the interval leaves out zero', () => {
    const run = shippedRecord();
    const shifted = (value: number, ci: [number, number]): RecordedRun => ({
      ...run,
      differences: run.differences.map((d) => (d.b === 'grpo' ? { ...d, unseen: { value, ci } } : d)),
    });
    expect(findingOf(shifted(0.05, [0.01, 0.09]))!.verdict).toBe('ahead');
    expect(findingOf(shifted(-0.05, [-0.09, -0.01]))!.text).toContain('behind GRPO');
    expect(findingOf(shifted(0.02, [-0.01, 0.05]))!.verdict).toBe('not clearly ahead');
    expect(findingOf({ ...run, differences: [] })).toBeNull();
  });

  it('writes points with a sign and a true minus', () => {
    expect(signedPoints(-0.0373)).toBe('−3.7');
    expect(signedPoints(0.0065)).toBe('+0.7');
    expect(signedPoints(-0.0001)).toBe('+0.0');
  });
});

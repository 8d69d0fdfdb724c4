// The report of the data-fraction runs: per fraction each arm's final success and area, and the paired
// differences against grpo at the same fraction and at the largest one.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import type { Algo } from '../../../rl/arms.ts';
import type { FractionRuns } from './fractions.ts';
import { renderFractions, type FractionsOutcome } from '../report/fractions_report.ts';
import { fractionDifferences } from './fractions.ts';
import { fakeOutcome, fakeResult, givenSettings } from '../learn_testing.ts';

const GAMES = [
  { layout: 'kitchen/train/0', type: 'pick_and_place_simple' },
  { layout: 'bathroom/train/3', type: 'pick_and_place_simple' },
];
const at = (fraction: number, runs: [Algo, number, number[]][]): FractionRuns => ({
  fraction,
  trainGames: fraction * 64,
  runs: runs.map(([a, s, won]) => fakeResult(a, s, won)),
});
const fractions = [
  at(0.25, [
    ['grpo', 1, [0, 0.5]],
    ['seed-exact', 1, [0.5, 0.5]],
    ['grpo', 2, [0, 0]],
    ['seed-exact', 2, [0.5, 0]],
  ]),
  at(0.5, [
    ['grpo', 1, [0.5, 0.5]],
    ['seed-exact', 1, [1, 0.5]],
    ['grpo', 2, [0, 0.5]],
  ]),
];

describe('bench learn --fractions', () => {
  it('pairs each distilling arm with grpo at its fraction and, with less data, with grpo at the largest fraction', () => {
    const diffs = fractionDifferences(fractions, [[0], [1]], new Rng(1));
    expect(
      diffs.map((d) => [`${d.a} at ${d.aFraction} - ${d.b} at ${d.bFraction}`, d.unseen.seeds, d.unseen.value]),
    ).toEqual([
      ['seed-exact at 0.25 - grpo at 0.25', [1, 2], 0.25],
      ['seed-exact at 0.5 - grpo at 0.5', [1], 0.25],
      // Seeds 1 and 2: (0.5 + 0.5 - 0.5 - 0.5) / 2 and (0.5 + 0 - 0 - 0.5) / 2.
      ['seed-exact at 0.25 - grpo at 0.5', [1, 2], 0],
    ]);
    // Every curve rises from 0.25 per game to the final outcomes: the areas differ by half the final difference.
    expect(diffs[0].auc.value).toBeCloseTo(0.125, 12);
  });

  it('writes a table per fraction and arm, the differences and a headline from the numbers', () => {
    const base = fakeOutcome([], GAMES, {
      algos: ['grpo', 'seed-exact'],
      settings: givenSettings(['grpo', 'seed-exact']),
    });
    const o: FractionsOutcome = { ...base, fractions };
    const r = renderFractions(o);
    expect(r.table).toContain('| 0.25 | 16 | seed-exact | 2 | 0.1 | 37.5 [');
    expect(r.table).toContain('| 0.5 | 32 | grpo | 2 | - | 37.5 [');
    expect(r.markdown).toContain('| seed-exact at 0.25 - grpo at 0.5 | 1, 2 | +0.0 [');
    expect(r.headline).toMatch(
      /^Best distilling arm: seed-exact, the only distilling main arm\. On eval-unseen, paired by seed: seed-exact at 0\.25 - grpo at 0\.25: final success \+25\.0 \[/,
    );
    expect(r.markdown).toContain('wall time 1.5 min');
    const json = r.json as { fractions: { runs: { won_unseen: string; curve_won_unseen: string[] }[] }[] };
    expect(json.fractions[0].runs[1]).toMatchObject({ won_unseen: '11', curve_won_unseen: ['11', '11'] });
  });
});

// Which controls lead GRPO, paired by seed, and what the report says of them.
import { describe, expect, it } from 'vitest';
import { fakeResult } from '../learn_testing.ts';
import { promotedText } from '../report/learn_prose.ts';
import { controlsLeadingGrpo } from './promote.ts';

const run = (algo: Parameters<typeof fakeResult>[0], seed: number, unseen: number) =>
  fakeResult(algo, seed, [1, 0], { success_unseen: unseen });

describe('a control that leads grpo', () => {
  it('is one whose mean paired difference on eval-unseen is above zero, over the seeds both ran', () => {
    const runs = [
      run('grpo', 1, 0.5),
      run('grpo', 2, 0.4),
      run('grpo', 3, 0.9),
      // +0.1 and -0.05: a mean lead of 0.025; grpo's seed 3 has no partner and is left out.
      run('seed-procedure', 1, 0.6),
      run('seed-procedure', 2, 0.35),
      // Level: not a lead.
      run('seed-facts', 1, 0.5),
      run('seed-facts', 2, 0.4),
      // Behind.
      run('seed-empty', 1, 0.3),
      // A seed grpo did not run (its run failed) pairs with nothing.
      run('seed-shuffled', 4, 0.99),
    ];
    const promoted = controlsLeadingGrpo(['seed-procedure', 'seed-facts', 'seed-empty', 'seed-shuffled'], runs);
    expect(promoted.map((p) => [p.algo, p.seeds])).toEqual([['seed-procedure', [1, 2]]]);
    expect(promoted[0].lead).toBeCloseTo(0.025, 12);
  });

  it('needs grpo runs to lead: without them no control is promoted', () => {
    expect(controlsLeadingGrpo(['seed-crossgame'], [run('seed-crossgame', 1, 0.9), run('seed', 1, 0.1)])).toEqual([]);
  });

  it('is named in the report with its lead, its seeds and the seeds it ran', () => {
    expect(promotedText([{ algo: 'seed-procedure', lead: 0.025, seeds: [1, 2] }], 10)).toBe(
      'seed-procedure led grpo on eval-unseen over seeds 1, 2 (+2.5 points, mean of the paired differences), so it ran 10 seeds, as a main arm. ',
    );
    expect(promotedText([], 10)).toBe('');
  });
});

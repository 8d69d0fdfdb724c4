// Race mode in a real Chromium, micro preset: one button trains GRPO and seed-exact side by side, each in its
// own worker, and the page shows both arms live, their paired difference so far (checked against the CSV's
// own numbers), and exports both arms to the curves CSV, from its own button and from the curves panel's.
// The page's own run stays paused meanwhile.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, SCREENSHOTS, downloadText, engineReady, foreignRequests, openPlayground } from './page.ts';

async function numberOf(page: Page, testId: string, attribute: string): Promise<number> {
  return Number(await page.getByTestId(testId).getAttribute(attribute));
}

/** The race's rows of the curves CSV, by arm: update -> eval-unseen (null where it has none). */
function raceRows(csv: string): { arms: Map<string, Map<number, number | null>>; seeds: Set<string> } {
  const [head, ...rows] = csv
    .trimEnd()
    .split('\n')
    .map((line) => line.split(','));
  const at = (name: string) => head.indexOf(name);
  const arms = new Map<string, Map<number, number | null>>();
  const seeds = new Set<string>();
  for (const row of rows.filter((r) => r[at('source')] === 'race')) {
    const arm = arms.get(row[at('run')]) ?? new Map<number, number | null>();
    const unseen = row[at('evalUnseen')];
    arm.set(Number(row[at('update')]), unseen === '' ? null : Number(unseen));
    arms.set(row[at('run')], arm);
    seeds.add(row[at('seed')]);
  }
  return { arms, seeds };
}

describe('race mode', () => {
  const chromium = chromiumForSuite();

  it('races GRPO against seed-exact: both arms live, the paired difference so far, both arms in the CSV', async () => {
    const opened = await openPlayground(chromium.browser, formatHash({ ...FAST, algo: 'grpo', seed: 3 }));
    const { page } = opened;
    await engineReady(page);
    await page.getByTestId('race-start').click();
    for (const arm of [0, 1])
      await expect.poll(() => numberOf(page, `race-arm-${arm}`, 'data-evaluations')).toBeGreaterThanOrEqual(2);
    await expect.poll(() => numberOf(page, 'race-difference', 'data-pairs')).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('race-arm-0').getAttribute('data-algo')).toBe('grpo');
    expect(await page.getByTestId('race-arm-1').getAttribute('data-algo')).toBe('seed-exact');
    expect(await page.getByTestId('race-difference').textContent()).toMatch(
      /eval-unseen: [+−]\d+\.\d points at update \d+, mean [+−]\d+\.\d points over \d+ paired evaluations/,
    );
    expect(await page.getByTestId('chart-race-success').getAttribute('data-live-series')).toBe('4');
    expect(await page.getByTestId('chart-race-difference').getAttribute('data-series')).toContain(
      'eval-unseen difference',
    );
    // The page's own run did not train during the race.
    expect(await page.getByTestId('engine-state').getAttribute('data-state')).not.toBe('playing');

    await page.getByTestId('race-pause').click();
    await page.locator('[data-testid="race"][data-phase="paused"]').waitFor();
    await page.getByTestId('race').screenshot({ path: `${SCREENSHOTS}/e2e-race.png` });
    // The difference shown is the mean of SEED − GRPO over the updates both arms evaluated, from the CSV's
    // numbers. An arm's last update may still be on its way when Pause returns: read both until they agree.
    let exported = raceRows('');
    let differences: number[] = [];
    await expect
      .poll(async () => {
        const { name, text } = await downloadText(page, 'race-export-csv');
        expect(name).toBe('seed-curves.csv');
        exported = raceRows(text);
        const grpo = exported.arms.get('grpo') ?? new Map<number, number | null>();
        const seed = exported.arms.get('seed-exact') ?? new Map<number, number | null>();
        differences = [...grpo].flatMap(([update, g]) =>
          update >= 1 && g !== null && seed.get(update) != null ? [seed.get(update)! - g] : [],
        );
        const mean = differences.reduce((a, b) => a + b, 0) / differences.length;
        const shownMean = await numberOf(page, 'race-difference', 'data-mean');
        return (
          (await numberOf(page, 'race-difference', 'data-pairs')) === differences.length &&
          Math.abs(shownMean - mean) < 1e-9
        );
      })
      .toBe(true);
    expect([...exported.arms.keys()].sort()).toEqual(['grpo', 'seed-exact']);
    expect([...exported.seeds]).toEqual(['3']);
    expect(differences.length).toBeGreaterThanOrEqual(2);

    // The page's own CSV holds the same race rows beside its own run's.
    const inPageCsv = raceRows((await downloadText(page, 'export-csv')).text).arms;
    for (const [arm, rows] of exported.arms)
      for (const [update, unseen] of rows) expect(inPageCsv.get(arm)?.get(update), `${arm} ${update}`).toBe(unseen);

    // A setting edited mid-race applies to the next race, and the race says so.
    await page.evaluate(
      (hash) => {
        location.hash = hash;
      },
      formatHash({ ...FAST, algo: 'grpo', seed: 3, lr: 0.002 }),
    );
    await expect.poll(() => page.getByTestId('race-settings-changed').textContent()).toContain('Learning rate');

    await page.getByTestId('race-stop').click();
    await page.locator('[data-testid="race"][data-phase="stopped"]').waitFor();
    expect(await numberOf(page, 'race-difference', 'data-pairs')).toBeGreaterThanOrEqual(differences.length);
    expect(opened.problems).toEqual([]);
    expect(foreignRequests(opened)).toEqual([]);
    await opened.context.close();
  });
});

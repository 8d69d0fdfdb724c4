// The first screen at a laptop's and a phone's viewport: without scrolling, Play, the eval-unseen chart with
// the recorded benchmark's bands and the live run's points, the "Now" numbers with their change since the warm
// start, and the sentence of the recorded finding, whose numbers are the record's. The header names the
// backend that trains. In the shop at a laptop's viewport, every chart's y tick labels lie inside the chart; with
// an index that lists a shop record, the first screen draws the shop's bands and states the shop's finding, and
// the household's once the World goes back to the household.
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_PARTS, SHOT_VIEWPORTS, partBottoms } from '../src/lab/page/page_shots.ts';
import type { RecordedRun } from '../src/rl/recorded_run.ts';
import { defaultSettings, formatHash } from '../src/rl/page_settings.ts';
import { armName } from '../src/ui/setting_labels.ts';
import { FAST, SCREENSHOTS, curvePoints, downloadText, engineReady, openPlayground } from './page.ts';
import { indexWithShop, openWithIndex, shippedRecord, shopRecord } from './recorded_index.ts';
import { chromiumForSuite } from './suite_browser.ts';

const HEADLINE = '[data-testid="chart-headline-unseen"]';

/** The shop's micro defaults (its episode layout), cut to FAST's short games and quick evaluations. */
function shopSettings() {
  const { groupSize, tasksPerUpdate, maxSteps, evalEvery, evalEpisodes } = FAST;
  return { ...defaultSettings('micro', 'shop'), groupSize, tasksPerUpdate, maxSteps, evalEvery, evalEpisodes };
}

/** The distilling arm a record compares with GRPO (its headline arm, else its first distilling main arm). */
function headlineArm(run: RecordedRun) {
  return run.headline ?? run.arms.find((a) => a.role === 'main' && a.algo !== 'grpo')!.algo;
}

/** The difference of a record's headline arm to GRPO. */
function headlineDifference(run: RecordedRun) {
  const arm = headlineArm(run);
  return run.differences.find((d) => d.a === arm && d.b === 'grpo')!;
}

/**
 * Per drawn chart, the leftmost column of its canvas that holds ink, in CSS pixels: the y tick labels are the
 * leftmost things drawn, right-aligned against the plot, so a label cut at the chart's edge inks column 0.
 */
function leftmostInk(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const figure of document.querySelectorAll('figure.chart')) {
    const canvas = figure.querySelector('canvas');
    if (!canvas) continue;
    const width = Math.min(canvas.width, 100);
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, width, canvas.height);
    let left = Infinity;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) left = Math.min(left, ((i - 3) / 4) % width);
    out[figure.getAttribute('data-testid')!] = left / devicePixelRatio;
  }
  return out;
}

describe('first screen', () => {
  const chromium = chromiumForSuite();

  for (const viewport of SHOT_VIEWPORTS) {
    it(`holds Play, the chart with recorded bands and live points, Now with its change and the finding at ${viewport.width}x${viewport.height}`, async () => {
      const record = shippedRecord().run;
      const mainArms = record.arms.filter(
        (a) => a.role === 'main' && (!record.headline || a.algo === 'grpo' || a.algo === record.headline),
      );
      const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST), viewport);
      await engineReady(page);
      // The warm start's evaluation (update 0) is shown with a change of zero before any update.
      await page.getByTestId('live-eval-unseen-change').waitFor();
      expect(Number(await page.getByTestId('live-eval-unseen-change').getAttribute('data-value'))).toBe(0);
      expect(await curvePoints(page)).toBe(0);

      await page.getByTestId('step-update').click();
      await engineReady(page);
      await expect.poll(() => curvePoints(page)).toBe(1);
      await page.locator(`${HEADLINE}[data-drawn-recorded="${mainArms.length}"]`).waitFor();
      // Two live evaluations (update 0 and update 1) over the bands of the benchmark's main arms.
      await expect.poll(async () => Number(await page.locator(HEADLINE).getAttribute('data-live-points'))).toBe(2);
      expect(Number(await page.locator(HEADLINE).getAttribute('data-recorded-series'))).toBe(mainArms.length);

      await page.evaluate(() => window.scrollTo(0, 0));
      const bottoms = await partBottoms(page);
      for (const part of FIRST_SCREEN_PARTS) {
        expect(bottoms[part], `${part} is shown`).not.toBeNull();
        expect(bottoms[part]!, `${part} ends within the first screen`).toBeLessThanOrEqual(viewport.height);
      }
      await page.screenshot({ path: `${SCREENSHOTS}/e2e-first-screen-${viewport.width}x${viewport.height}.png` });

      // The finding's numbers are the record's paired difference of its main arm against GRPO on eval-unseen.
      const finding = page.getByTestId('finding');
      const arm = (await finding.getAttribute('data-arm'))!;
      const difference = record.differences.find((d) => d.a === arm && d.b === 'grpo')!;
      expect(mainArms.map((a) => a.algo)).toContain(arm);
      expect(Number(await finding.getAttribute('data-value'))).toBe(difference.unseen.value);
      expect((await finding.getAttribute('data-ci'))!.split(',').map(Number)).toEqual(difference.unseen.ci);
      expect(await finding.textContent()).toContain(`${difference.seeds.length} seeds`);

      // The change is the last evaluation less the warm start's, both in the curves' CSV.
      const rows = (await downloadText(page, 'export-csv')).text
        .trimEnd()
        .split('\n')
        .map((line) => line.split(','));
      const column = rows[0].indexOf('evalUnseen');
      const live = rows.filter((r) => r[0] === 'live');
      expect(live.map((r) => r[3])).toEqual(['0', '1']);
      const change = Number(await page.getByTestId('live-eval-unseen-change').getAttribute('data-value'));
      expect(change).toBeCloseTo(Number(live[1][column]) - Number(live[0][column]), 12);

      const backend = page.getByTestId('header-backend');
      expect(await backend.getAttribute('data-kind')).toBe('cpu');
      expect(await backend.textContent()).toMatch(/^trains on the CPU \(\d+ threads?\)$/);
      expect(problems).toEqual([]);
    });
  }

  it("keeps every chart's y tick labels inside the chart in the shop at 1440x900", async () => {
    const shop = shopSettings();
    const { page, problems } = await openPlayground(chromium.browser, formatHash(shop), { width: 1440, height: 900 });
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    // The warm start's evaluation and update 1's, and the update's loss, drawn.
    await expect.poll(async () => Number(await page.locator(HEADLINE).getAttribute('data-live-points'))).toBe(2);
    await expect
      .poll(async () => Number(await page.getByTestId('chart-loss').getAttribute('data-live-points')))
      .toBeGreaterThan(0);
    const left = await page.evaluate(leftmostInk);
    expect(Object.keys(left)).toContain('chart-headline-unseen');
    expect(Object.keys(left)).toContain('chart-loss');
    for (const [chart, x] of Object.entries(left)) expect(x, `${chart}'s leftmost ink`).toBeGreaterThanOrEqual(2);
    await page.locator(HEADLINE).screenshot({ path: `${SCREENSHOTS}/e2e-first-screen-shop-chart.png` });
    expect(problems).toEqual([]);
  });
  it("draws the shop's recorded benchmark and states its finding in the shop, and the household's after a switch", async () => {
    const shop = shopRecord().run;
    const household = shippedRecord().run;
    const { page, problems } = await openWithIndex(chromium.browser, formatHash(shopSettings()), indexWithShop(), {
      width: 1440,
      height: 900,
    });
    // The shop's main arms are drawn from its record alone, before any update here.
    const shopMain = shop.arms.filter((a) => a.role === 'main');
    await page.locator(`${HEADLINE}[data-drawn-recorded="${shopMain.length}"]`).waitFor();
    const finding = page.getByTestId('finding');
    await expect.poll(() => finding.getAttribute('data-state')).toBe('ready');
    const shopDifference = headlineDifference(shop);
    expect(await finding.getAttribute('data-world')).toBe('shop');
    expect(await finding.getAttribute('data-arm')).toBe(shopDifference.a);
    expect(Number(await finding.getAttribute('data-value'))).toBe(shopDifference.unseen.value);
    expect((await finding.getAttribute('data-ci'))!.split(',').map(Number)).toEqual(shopDifference.unseen.ci);
    expect(await finding.textContent()).toContain(
      `In the shop’s recorded benchmark (${shopDifference.seeds.length} seeds`,
    );
    expect(await finding.textContent()).toContain(`${armName(shopDifference.a)} − GRPO on eval-unseen`);
    expect(await page.getByTestId('recorded-run').getAttribute('data-world')).toBe('shop');
    expect(await page.getByTestId('recorded-command').textContent()).toBe(shop.command);
    await page.locator(HEADLINE).screenshot({ path: `${SCREENSHOTS}/e2e-first-screen-shop-recorded.png` });

    // The World control: the household's record, loaded now, takes the first screen.
    await engineReady(page);
    await page.locator('select[data-setting="env"]').selectOption('household');
    await expect.poll(() => finding.getAttribute('data-world')).toBe('household');
    await expect.poll(() => finding.getAttribute('data-state')).toBe('ready');
    const householdDifference = headlineDifference(household);
    expect(await finding.getAttribute('data-arm')).toBe(householdDifference.a);
    expect(Number(await finding.getAttribute('data-value'))).toBe(householdDifference.unseen.value);
    expect(await page.getByTestId('recorded-command').textContent()).toBe(household.command);
    const householdMain = household.arms.filter((a) => a.role === 'main');
    await page.locator(`${HEADLINE}[data-drawn-recorded="${householdMain.length}"]`).waitFor();
    expect(problems).toEqual([]);
  });
});

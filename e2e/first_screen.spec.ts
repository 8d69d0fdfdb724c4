// The first screen at a laptop's and a phone's viewport: without scrolling, Play, the eval-unseen chart with
// the recorded benchmark's bands and the live run's points, the "Now" numbers with their change since the warm
// start, and the sentence of the recorded finding, whose numbers are the record's. The header names the
// backend that trains. In the shop at a laptop's viewport, every chart's y tick labels lie inside the chart.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_PARTS, SHOT_VIEWPORTS, partBottoms } from '../src/cli/bench/page_shots.ts';
import { checkRecordIndex, newestRecord, parseRecordedRun } from '../src/rl/recorded_run_check.ts';
import { defaultSettings, formatHash } from '../src/rl/page_settings.ts';
import { FAST, SCREENSHOTS, curvePoints, downloadText, engineReady, openPlayground } from './page.ts';
import { chromiumForSuite } from './suite_browser.ts';

function shippedRecord() {
  const entry = newestRecord(checkRecordIndex(JSON.parse(readFileSync('public/runs/index.json', 'utf8'))), 'household');
  if (!entry) throw new Error('public/runs/index.json lists no record');
  return parseRecordedRun(readFileSync(`public/runs/${entry.file}`, 'utf8'));
}

const HEADLINE = '[data-testid="chart-headline-unseen"]';

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
      const record = shippedRecord();
      const mainArms = record.arms.filter((a) => a.role === 'main');
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
    // The shop's micro defaults (its episode layout), cut to FAST's short games and quick evaluations.
    const { groupSize, tasksPerUpdate, maxSteps, evalEvery, evalEpisodes } = FAST;
    const shop = { ...defaultSettings('micro', 'shop'), groupSize, tasksPerUpdate, maxSteps, evalEvery, evalEpisodes };
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
});

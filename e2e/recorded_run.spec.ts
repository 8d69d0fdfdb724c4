// The recorded run on load: the newest household record of public/runs/ is drawn in the household (the world of
// the links here) while the live run is still starting (its warm start held back), marked as recorded with its
// world, command and commit; scrubbing its updates moves the shown update and its episodes; a live run then grows
// on the same axes, and the curves' CSV holds rows of both sources. A record that is missing or damaged gives one
// line, and the page trains as before. A record with teacher checks (the shop fixture) is drawn in the teacher
// panel as two small charts, the block and the content effect of each checked arm over updates; one without draws
// none.
import { describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { defaultSettings, formatHash } from '../src/rl/page_settings.ts';
import { armName } from '../src/ui/setting_labels.ts';
import {
  FAST,
  SCREENSHOTS,
  curvePoints,
  downloadBytes,
  downloadText,
  engineReady,
  foreignRequests,
  newContext,
  openTab,
} from './page.ts';
import { indexWithShop, openWithIndex, shippedRecord, shopRecord } from './recorded_index.ts';
import { chromiumForSuite } from './suite_browser.ts';

const SUCCESS = '[data-testid="chart-success-unseen"]';

async function seriesCount(page: Page, source: 'recorded' | 'live'): Promise<number> {
  return Number(await page.locator(SUCCESS).getAttribute(`data-${source}-series`));
}

/**
 * The playground with its warm start held back until `release` is called: the live run cannot start before,
 * so whatever is drawn until then was drawn without waiting for it (service workers blocked, so that the route
 * sees the training worker's request).
 */
async function openWarmStartHeld(browser: Browser) {
  const context = await newContext(browser, { serviceWorkers: 'block' });
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  let asked = false;
  await context.route(/warmstart-micro\.ckpt$/, async (route: Route) => {
    asked = true;
    await held;
    await route.continue();
  });
  return { opened: await openTab(context, formatHash(FAST)), asked: () => asked, release };
}

/** A page whose requests for `path` under runs/ are answered by `answer` (service workers blocked, so the route sees them). */
async function openWithRuns(browser: Browser, path: string, answer: { status: number; body: string }) {
  const context = await newContext(browser, { serviceWorkers: 'block' });
  await context.route(`**/runs/${path}`, (route) =>
    route.fulfill({ status: answer.status, contentType: 'application/json', body: answer.body }),
  );
  return openTab(context, formatHash(FAST));
}

describe('recorded run', () => {
  const chromium = chromiumForSuite();

  it('is drawn before the live run has started, marked recorded with its command and commit; scrubbing moves its update; a live run grows on the same axes', async () => {
    const { file, run } = shippedRecord();
    const { opened, asked, release } = await openWarmStartHeld(chromium.browser);
    const { page, problems } = opened;
    await page.locator(`${SUCCESS}[data-drawn-recorded="${run.arms.length}"]`).waitFor();
    // Drawn while the engine still waits for its warm start.
    expect(await page.getByTestId('engine-state').getAttribute('data-state')).toBe('starting');

    const panel = page.getByTestId('recorded-run');
    expect(await panel.getAttribute('data-state')).toBe('ready');
    expect(await page.getByTestId('recorded-badge').textContent()).toBe('recorded');
    expect(await page.getByTestId('recorded-command').textContent()).toBe(run.command);
    expect(await page.getByTestId('recorded-commit').textContent()).toBe(run.commit);
    expect(await page.getByTestId('recorded-world').getAttribute('data-world')).toBe('household');
    expect(await page.getByTestId('recorded-world').textContent()).toBe('the household');
    expect(await panel.textContent()).toContain(`runs/${file}`);
    const series = (await page.locator(SUCCESS).getAttribute('data-series'))!.split('|');
    expect(series.filter((s) => s.startsWith('recorded '))).toEqual(
      run.arms.map(
        (a) =>
          `recorded ${armName(a.algo)} eval-unseen (mean of ${a.seeds.length} seed${a.seeds.length === 1 ? '' : 's'})`,
      ),
    );
    await page.getByTestId('curves').screenshot({ path: `${SCREENSHOTS}/e2e-recorded-curves.png` });

    // Scrubbing with the keyboard: the last recorded update first, the first after Home.
    const updates = [...new Set(run.episodes.map((e) => e.update))].sort((a, b) => a - b);
    expect(updates.length).toBeGreaterThan(1);
    expect(await panel.getAttribute('data-update')).toBe(String(updates[updates.length - 1]));
    await page.getByTestId('recorded-scrub').focus();
    await page.keyboard.press('Home');
    await expect.poll(() => panel.getAttribute('data-update')).toBe(String(updates[0]));
    expect(await page.getByTestId('recorded-update').textContent()).toBe(`update ${updates[0]} of ${run.updates}`);
    const shown = await page
      .getByTestId('recorded-episode')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-update')));
    expect(shown).toEqual(run.episodes.filter((e) => e.update === updates[0]).map(() => String(updates[0])));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => panel.getAttribute('data-update')).toBe(String(updates[1]));
    await panel.screenshot({ path: `${SCREENSHOTS}/e2e-recorded-run.png` });

    // A live run: its points, from the warm start's evaluation on, join the recorded ones in the same chart.
    await expect.poll(asked).toBe(true);
    expect(await page.getByTestId('engine-state').getAttribute('data-state')).toBe('starting');
    release();
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    await expect.poll(() => seriesCount(page, 'live')).toBeGreaterThan(0);
    expect(await seriesCount(page, 'recorded')).toBe(run.arms.length);

    const csv = await downloadText(page, 'export-csv');
    const rows = csv.text
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));
    expect(rows[0].slice(0, 4)).toEqual(['source', 'run', 'seed', 'update']);
    const sources = new Set(rows.slice(1).map((r) => r[0]));
    expect([...sources].sort()).toEqual(['live', 'recorded']);
    expect(rows.filter((r) => r[0] === 'recorded')).toHaveLength(
      run.arms.reduce((n, a) => n + a.seeds.reduce((m, s) => m + s.curve.length, 0), 0),
    );
    // The warm start's evaluation (update 0), then update 1.
    expect(rows.filter((r) => r[0] === 'live').map((r) => r[3])).toEqual(['0', '1']);
    const png = await downloadBytes(page, 'export-png');
    expect(Array.from(png.bytes.subarray(1, 4), (b) => String.fromCharCode(b)).join('')).toBe('PNG');

    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("draws the teacher checks of a record's arms in the teacher panel: the block and the content effect over updates", async () => {
    const shop = shopRecord().run;
    const checked = shop.arms.filter((a) => a.teacher?.length);
    const { groupSize, tasksPerUpdate, maxSteps, evalEvery, evalEpisodes } = FAST;
    const settings = {
      ...defaultSettings('micro', 'shop'),
      groupSize,
      tasksPerUpdate,
      maxSteps,
      evalEvery,
      evalEpisodes,
    };
    const { page, problems } = await openWithIndex(chromium.browser, formatHash(settings), indexWithShop());
    const effects = page.getByTestId('teacher-effects');
    await effects.waitFor();
    expect(await page.getByTestId('recorded-world').getAttribute('data-world')).toBe('shop');
    for (const kind of ['block', 'content'] as const) {
      const chart = page.getByTestId(`teacher-effect-${kind}`);
      expect(await chart.getAttribute('data-lines')).toBe(String(checked.length));
      const lines = chart.locator('g[data-algo]');
      expect(await lines.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-algo')))).toEqual(
        checked.map((a) => a.algo),
      );
      const values = await chart
        .locator('polyline')
        .evaluateAll((ps) => ps.map((p) => p.getAttribute('data-values')!.split(',').map(Number)));
      expect(values).toEqual(checked.map((a) => a.teacher!.map((c) => c[kind].value)));
      // Each line drawn: a point per check, with ink inside the chart.
      expect(await chart.locator('circle').count()).toBe(checked.length * 3);
      const box = (await chart.locator('svg').boundingBox())!;
      expect(box.width).toBeGreaterThan(100);
      expect(box.height).toBeGreaterThan(30);
    }
    await effects.scrollIntoViewIfNeeded();
    await effects.screenshot({ path: `${SCREENSHOTS}/e2e-teacher-effects.png` });
    expect(problems).toEqual([]);
    await page.close();

    // The household's shipped record: its panel draws the checks it keeps, and none where it keeps none.
    const householdChecked = shippedRecord().run.arms.filter((a) => a.teacher?.length);
    const household = await openWithIndex(chromium.browser, formatHash(FAST), indexWithShop());
    await expect.poll(() => household.page.getByTestId('recorded-run').getAttribute('data-state')).toBe('ready');
    expect(await household.page.getByTestId('recorded-world').getAttribute('data-world')).toBe('household');
    expect(await household.page.getByTestId('teacher-effects').count()).toBe(householdChecked.length ? 1 : 0);
    if (householdChecked.length) {
      const lines = household.page.getByTestId('teacher-effect-block').locator('g[data-algo]');
      expect(await lines.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-algo')))).toEqual(
        householdChecked.map((a) => a.algo),
      );
    }
    expect(household.problems).toEqual([]);
  });

  it('says in one line why a missing or damaged record is not shown, and the page trains as before', async () => {
    const { file, run } = shippedRecord();
    const missing = await openWithRuns(chromium.browser, 'index.json', { status: 404, body: 'not found' });
    await expect
      .poll(() => missing.page.getByTestId('recorded-message').textContent())
      .toBe('No recorded run: runs/index.json was not read (HTTP 404).');
    expect(await missing.page.getByTestId('recorded-run').getAttribute('data-state')).toBe('failed');
    // The 404 itself is the case under test: its response and the console line the browser writes for it.
    expect(missing.problems.filter((p) => !p.includes('runs/index.json') && !p.includes('status of 404'))).toEqual([]);
    await missing.page.close();

    const damaged = await openWithRuns(chromium.browser, file, {
      status: 200,
      body: JSON.stringify({ ...run, command: 3 }),
    });
    const { page, problems } = damaged;
    await expect
      .poll(() => page.getByTestId('recorded-message').textContent())
      .toBe(`The recorded run runs/${file} was not shown: command is 3, not text.`);
    expect(await page.locator(SUCCESS).getAttribute('data-recorded-series')).toBe('0');
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    await expect.poll(() => seriesCount(page, 'live')).toBeGreaterThan(0);
    await page.getByTestId('recorded-run').screenshot({ path: `${SCREENSHOTS}/e2e-recorded-refused.png` });
    expect(problems).toEqual([]);
  });
});

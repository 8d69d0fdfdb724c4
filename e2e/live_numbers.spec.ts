// What the live run's numbers stand beside, micro preset: a World switch while the household's warm start is being
// evaluated shows the shop run's "Now" as evaluating until the shop's own evaluation arrives, and the household's
// late numbers never reach the shop's record or its chart. The headline chart says in one line how the live run's
// settings differ from the recorded run's, and follows an edit; a tiny run takes the recorded run's settings where
// its link names none, and Run it at scale reads them as the page's defaults.
import { describe, expect, it } from 'vitest';
import { formatHash, parseHash } from '../src/rl/page_settings.ts';
import { numberText } from '../src/rl/verl/mapping.ts';
import { SETTING_LABELS } from '../src/ui/setting_labels.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, SCREENSHOTS, engineReady, firstRollout, openPlayground } from './page.ts';
import { indexWithShop, openWithIndex, shippedRecord } from './recorded_index.ts';

const HEADLINE = '[data-testid="chart-headline-unseen"]';
const LIVE_NUMBERS = '[data-testid="live"] .big-numbers';

/** What "Now" read at the first render of the shop run's ready state after the switch, kept by the page itself. */
interface NowAtReady {
  evalUpdate: string | null;
  seen: string | null;
  detail: string;
}

describe('the live numbers', () => {
  const chromium = chromiumForSuite();

  it("start the shop's Now from nothing when the World switches while the household's warm start is evaluated", async () => {
    // Every eval game of the household, so that its warm start's evaluation is still playing at the switch.
    const { page, problems } = await openWithIndex(
      chromium.browser,
      formatHash({ ...FAST, evalEpisodes: 134 }),
      indexWithShop(),
    );
    // The household's warm-start evaluation follows the first rollout; the page's renderer runs at a quarter of the
    // machine's speed until the switch, so that the evaluation is still playing when the World switches on a
    // machine of any speed. Where it has already arrived, the switch must still show the shop's Now as evaluating.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await firstRollout(page);
    await engineReady(page);
    // The page notes what "Now" shows when the shop run first reads ready (a state the user sees, not a guess).
    await page.evaluate(() => {
      const w = window as unknown as { nowAtReady?: NowAtReady | null };
      w.nowAtReady = null;
      let starting = false;
      const observer = new MutationObserver(() => {
        const state = document.querySelector<HTMLElement>('[data-testid="engine-state"]')?.dataset.state;
        if (state === 'starting') starting = true;
        if (!starting || state !== 'ready') return;
        const seen = document.querySelector('[data-testid="live-eval-seen"]');
        w.nowAtReady = {
          evalUpdate:
            document.querySelector('[data-testid="live"] .big-numbers')?.getAttribute('data-eval-update') ?? null,
          seen: seen?.getAttribute('data-value') ?? null,
          detail: seen?.closest('.big-number')?.querySelector('.big-detail')?.textContent ?? '',
        };
        observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.locator('select[data-setting="env"]').selectOption('shop');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await expect
      .poll(() => page.evaluate(() => (window as { nowAtReady?: unknown }).nowAtReady ?? null))
      .not.toBeNull();
    const now = (await page.evaluate(() => (window as { nowAtReady?: unknown }).nowAtReady)) as NowAtReady;
    expect(now.evalUpdate).toBe('');
    expect(now.seen).toBe('');
    expect(now.detail).toContain('evaluating');
    await engineReady(page);

    // The shop's own warm start then arrives: the one point of update 0 on the chart, its own, with no change.
    await page.locator(`${LIVE_NUMBERS}[data-eval-update="0"]`).waitFor();
    await expect.poll(async () => page.locator(HEADLINE).getAttribute('data-live-points')).toBe('1');
    expect(await page.getByTestId('live-eval-seen-change').getAttribute('data-value')).toBe('0');
    expect(problems).toEqual([]);
  });

  it("are drawn with a line on how the run's settings differ from the recorded run's, which follows an edit", async () => {
    const record = shippedRecord().run;
    const seed = record.arms.find((a) => a.role === 'main' && a.algo === 'seed')!;
    const lr = seed.lr === 0.002 ? 0.003 : 0.002;
    const { page, problems, context } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    const line = page.getByTestId('settings-difference');
    // A micro run over the tiny benchmark: the model is the first thing the line says.
    await expect.poll(() => line.getAttribute('data-keys')).toMatch(/^preset evalEpisodes /);
    expect(await line.textContent()).toMatch(
      /^This run’s settings differ from the recorded run’s: Model preset micro \(recorded: tiny\), /,
    );
    expect((await line.getAttribute('data-keys'))!.split(' ')).not.toContain('lr');
    const input = page.locator('input[data-setting="lr"]');
    await input.fill(String(lr));
    await input.press('Enter');
    await expect.poll(() => line.textContent()).toContain(`Learning rate ${lr} (recorded: ${seed.lr})`);
    expect(await page.locator('[data-testid="settings-difference"]').count()).toBe(1);
    await page.getByTestId('headline').screenshot({ path: `${SCREENSHOTS}/e2e-headline-settings.png` });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("start a tiny run at the recorded run's settings, a link's own settings kept", async () => {
    const record = shippedRecord().run;
    const seed = record.arms.find((a) => a.role === 'main' && a.algo === 'seed')!;
    const lambda = seed.lambda === 0.05 ? 0.07 : 0.05;
    const { page, context } = await openPlayground(chromium.browser, `#preset=tiny&lambda=${lambda}`);
    // The page writes the settings of the run it starts into the link.
    await expect.poll(async () => parseHash(await page.evaluate(() => location.hash)).settings.lr).toBe(seed.lr);
    const settings = parseHash(await page.evaluate(() => location.hash)).settings;
    expect(settings).toMatchObject({
      preset: 'tiny',
      lambda,
      evalEpisodes: Math.min(record.evalGames.seen, record.evalGames.unseen),
    });
    expect(settings.rewardDirected).toBe(record.config!.rewardDirected);
    // Run it at scale reads the recorded run's learning rate as the page's default, so the paper's takes its place,
    // and carries the link's own lambda.
    const scale = page.getByTestId('run-at-scale');
    await scale.scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.getByTestId('scale-from-paper').textContent())
      .toContain(`${SETTING_LABELS.lr.label} 1e-6 (here ${numberText(seed.lr)})`);
    expect(await page.getByTestId('scale-carried').textContent()).toContain(`${SETTING_LABELS.lambda.label} ${lambda}`);
    await context.close();
  });
});

// The shop on the page, micro preset: a link that names the shop opens a shop run, which says it starts from
// seeded random weights; its episodes show the shop's pages read into their parts (no raw " [SEP] " text) and
// its actions as WebShop writes them; one update trains; with an index that lists no shop record, the first
// screen and the recorded panel say the shop has none and draw none (the household's is not shown as the shop's);
// the world survives a reload (the URL), and the World control goes back to the household, whose recorded
// benchmark then loads. A race runs in the shop as it does in the household.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { defaultSettings, formatHash, parseHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import {
  FAST,
  SCREENSHOTS,
  commandTexts,
  engineReady,
  foreignRequests,
  openPlayground,
  readTranscripts,
} from './page.ts';
import { openUnrecordedWorld, quickSettings, reloadKeepsWorld, trainOneUnrecordedUpdate } from './unrecorded_world.ts';

/** The shop's micro defaults (its episode layout: a window of the last steps), cut to FAST's short games and quick evaluations. */
const SHOP = quickSettings('shop', { maxSteps: FAST.maxSteps });

/** What the page's transcripts show of the shop, over every trajectory of the update on screen. */
function readShopEpisodes(page: Page) {
  return readTranscripts(page, async (transcript) => ({
    pages: await transcript
      .getByTestId('shop-page')
      .evaluateAll((els) => els.map((el) => ({ kind: el.getAttribute('data-kind'), text: el.textContent ?? '' }))),
    results: await transcript.getByTestId('shop-result').allTextContents(),
    actions: await commandTexts(transcript),
  }));
}

describe('the shop', () => {
  const chromium = chromiumForSuite();

  it('opens from a link, plays a shop episode shown readably, trains an update, and keeps the world over a reload', async () => {
    const opened = await openUnrecordedWorld(chromium.browser, SHOP);
    const { page, problems } = opened;

    const episodes = await readShopEpisodes(page);
    expect(episodes.length).toBe(SHOP.groupSize * SHOP.tasksPerUpdate);
    for (const e of episodes) {
      // Every game opens on the search page, whose first action is a search, written as WebShop writes it.
      expect(e.pages[0].kind).toBe('search');
      expect(e.actions[0]).toMatch(/^search\[[^\]]+\]$/);
      for (const a of e.actions) expect(a).toMatch(/^(search|click)\[[^\]]+\]$/);
      // A page read into its parts shows none of the text form's separators; only text that is no page stays text.
      for (const p of e.pages) if (p.kind !== 'text') expect(p.text).not.toContain('[SEP]');
    }
    const results = episodes.flatMap((e) => e.results);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r).toMatch(/^B0[0-9A-Z]{8} .+ \$\d+\.\d\d$/);
    await page.getByTestId('episodes').screenshot({ path: `${SCREENSHOTS}/e2e-shop-episode.png` });

    // No shop benchmark is recorded: the page says so plainly, and the household's is not drawn or stated as the
    // shop's; WebShop's mean score stands beside success.
    await trainOneUnrecordedUpdate(page, 'shop');
    const finding = page.getByTestId('finding');
    expect(await finding.textContent()).toBe('No benchmark of the shop is recorded yet, so this run is shown alone.');
    expect(await page.getByTestId('chart-success-unseen').getAttribute('data-recorded-series')).toBe('0');
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-shop-trained.png`, fullPage: true });

    await reloadKeepsWorld(page, SHOP);
    expect(
      await page.locator('[data-testid="transcript"] [data-testid="shop-page"]').first().getAttribute('data-kind'),
    ).toBe('search');

    // The World control starts a household run with the household's defaults, from its warm start, and the link says so.
    await page.locator('select[data-setting="env"]').selectOption('household');
    await page.locator('[data-testid="backend"]:has-text("warmstart-micro.ckpt")').waitFor();
    await engineReady(page);
    expect(parseHash(await page.evaluate(() => location.hash)).settings).toEqual({
      ...defaultSettings('micro'),
      algo: SHOP.algo,
      seed: SHOP.seed,
      backend: SHOP.backend,
    });
    expect(await page.getByTestId('tagline-world').textContent()).toBe('household tasks');
    expect(await page.getByTestId('random-start').count()).toBe(0);
    // The household's recorded benchmark comes with the household: its finding, its panel.
    await expect.poll(() => finding.getAttribute('data-world')).toBe('household');
    await expect.poll(() => finding.getAttribute('data-state')).toBe('ready');
    expect(await page.getByTestId('recorded-run').getAttribute('data-world')).toBe('household');
    // The household has no score: no score chart, no score number.
    expect(await page.getByTestId('chart-score').count()).toBe(0);
    expect(await page.getByTestId('live-score-seen').count()).toBe(0);

    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('races GRPO against seed-exact in the shop, from seeded weights (no warm start is fetched)', async () => {
    const opened = await openPlayground(chromium.browser, formatHash({ ...SHOP, algo: 'grpo' }));
    const { page, problems } = opened;
    await engineReady(page);
    expect(await page.getByTestId('race').textContent()).toContain('side by side in the shop');
    await page.getByTestId('race-start').click();
    // Each arm evaluates its starting weights (update 0) and its first update.
    for (const arm of [0, 1])
      await expect
        .poll(async () => Number(await page.getByTestId(`race-arm-${arm}`).getAttribute('data-evaluations')))
        .toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('race-arm-1').getAttribute('data-algo')).toBe('seed-exact');
    await page.getByTestId('race-pause').click();
    await page.locator('[data-testid="race"][data-phase="paused"]').waitFor();
    expect(await page.getByTestId('race-message').count()).toBe(0);
    expect(opened.requests.some((url) => url.includes('warmstart-'))).toBe(false);
    expect(problems).toEqual([]);
  });
});

// What the page says it is waiting for, micro preset: each evaluation's games as they are played ("evaluating the
// warm start: 57 of 268 games"), the run's updates per second while it trains, and a race's next paired evaluation
// with when it is due. Every text the line shows is kept by the page itself from its first script on, so the
// evaluation's progress is seen however quickly the machine plays it.
import { describe, expect, it } from 'vitest';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, engineReady, newContext, openPlayground, openTab } from './page.ts';

/** Keeps every text the element of `testId` shows, in window.shownTexts, from the page's first script on. */
function keepTexts(testId: string): string {
  return `(() => {
    const shown = [];
    window.shownTexts = shown;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="${testId}"]')?.textContent ?? '';
      if (text.trim() !== '' && shown.at(-1) !== text) shown.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  })()`;
}

const shownTexts = () => (window as unknown as { shownTexts: string[] }).shownTexts;

describe('what the page is waiting for', () => {
  const chromium = chromiumForSuite();

  it("counts each evaluation's games as they are played, then shows the updates per second while training", async () => {
    // Every eval game the household's splits share (134 of each), evaluated after every update.
    const hash = formatHash({ ...FAST, evalEpisodes: 134, evalEvery: 1 });
    const context = await newContext(chromium.browser);
    await context.addInitScript(keepTexts('live-waiting'));
    const { page, problems } = await openTab(context, hash);
    // The page's renderer at a quarter of the machine's speed, so that an evaluation spans many of the page's redraws.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await engineReady(page);
    await page.getByTestId('play').click();
    const progress = /^Evaluating (the warm start|seed after update \d+): (\d+) of (\d+) games/;
    await expect.poll(async () => (await page.evaluate(shownTexts)).some((t) => progress.test(t))).toBe(true);
    for (const text of (await page.evaluate(shownTexts)).filter((t) => progress.test(t))) {
      const [, , played, games] = progress.exec(text)!;
      expect(Number(games)).toBe(268);
      expect(Number(played)).toBeLessThanOrEqual(268);
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // Once an update is timed, the line gives the pace: the number it shows is the one it carries.
    await expect.poll(async () => page.getByTestId('live-waiting').getAttribute('data-rate')).not.toBe('');
    const rate = Number(await page.getByTestId('live-waiting').getAttribute('data-rate'));
    expect(rate).toBeGreaterThan(0);
    const paced = (await page.evaluate(shownTexts)).find((t) => /[Tt]raining at \d/.test(t))!;
    expect(paced).toMatch(/[Tt]raining at \d+(\.\d+)? updates\/s \(the last updates, their evaluations included\)…$/);
    await page.getByTestId('pause').click();
    await page.getByTestId('play').waitFor();
    expect(problems).toEqual([]);
  });

  it("says when a race's next paired evaluation is due while the race plays", async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash({ ...FAST, algo: 'grpo', seed: 3 }));
    await engineReady(page);
    await page.getByTestId('race-start').click();
    const next = page.getByTestId('race-next');
    await expect
      .poll(async () => (await next.count()) > 0 && (await next.getAttribute('data-seconds')) !== '')
      .toBe(true);
    const text = (await next.textContent()) ?? '';
    const [, update] = /^Next paired evaluation: update (\d+), due in about \d+ (s|min|h)/.exec(text) ?? [];
    expect(Number(update)).toBeGreaterThanOrEqual(1);
    expect(Number(await next.getAttribute('data-seconds'))).toBeGreaterThanOrEqual(0);
    await page.getByTestId('race-pause').click();
    await page.locator('[data-testid="race"][data-phase="paused"]').waitFor();
    // Paused, nothing is due.
    expect(await next.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

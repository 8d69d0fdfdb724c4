// The playground on a phone, micro preset (390x844, touch): no keyboard hint, though a keyboard's keys still
// work, and the step-through's wide token table shows that it scrolls, its picture lit as on a wide screen.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, SCREENSHOTS, engineReady, newContext, openTab } from './page.ts';
import { expectPictureAt } from './stage_picture.ts';

async function stageTo(page: Page, stage: string, how: () => Promise<void>): Promise<void> {
  await how();
  await page.locator(`[data-testid="stages"][data-stage="${stage}"]`).waitFor();
  await engineReady(page);
}

describe('touch screen', () => {
  const chromium = chromiumForSuite();

  it('hides the keyboard hint, keeps the keys, and cues the scroll of a wide table', async () => {
    const context = await newContext(chromium.browser, {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const { page, problems } = await openTab(context, formatHash(FAST));
    await engineReady(page);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    expect(await page.getByTestId('shortcuts').count()).toBe(0);

    // The first rollout runs by itself; N (a keyboard plugged into the phone) runs the next stage.
    await page.locator('[data-testid="stages"][data-stage="rollout"]').waitFor();
    await stageTo(page, 'rewards', async () => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('n');
    });
    for (const stage of ['skills', 'rescore', 'loss'] as const)
      await stageTo(page, stage, () => page.getByTestId('stage-next').tap());
    await expectPictureAt(page, 'loss');

    // Eight columns of numbers do not fit 390 px: the box says it scrolls until scrolled to its end.
    const area = page.locator('[data-testid="stages"] [data-testid="scroll-area"]', {
      has: page.getByTestId('stage-table'),
    });
    await expect.poll(() => area.getAttribute('data-overflows')).toBe('true');
    expect(await area.getAttribute('data-at-end')).toBe('false');
    expect(await area.getByTestId('scroll-hint').isVisible()).toBe(true);
    expect(await area.getByTestId('scroll-hint').textContent()).toBe('scroll →');
    await area.getByTestId('scroll-hint').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-touch-stage-table.png` });
    await area.locator('.scroll-body').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => area.getAttribute('data-at-end')).toBe('true');
    expect(await area.getByTestId('scroll-hint').textContent()).toBe('← scroll');
    expect(problems).toEqual([]);
    await context.close();
  });
});

// Every preset the page lists starts, micro preset otherwise: a warm start that is missing or no checkpoint (a
// host's web page, a truncated file, another vocabulary) stops the start with a message that says why, and
// Reset or another preset starts a run without a reload; the small preset, which ships none, starts from
// seeded random weights and says so. The warm start's URL is answered by Playwright (service workers blocked,
// so that the route sees the training worker's request).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Route } from 'playwright-core';
import { readCheckpoint, writeCheckpoint } from '../src/model/checkpoint.ts';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, SCREENSHOTS, engineReady, firstRollout, foreignRequests, newContext, openTab } from './page.ts';

const MICRO = /warmstart-micro\.ckpt$/;
const shipped = new Uint8Array(readFileSync('public/warmstart-micro.ckpt'));

type Answer = (route: Route) => Promise<void>;

const BAD_WARM_STARTS: [what: string, answer: Answer, message: RegExp][] = [
  [
    'a web page',
    (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><html><head><title>SEED Playground</title></head><body></body></html>',
      }),
    /warmstart-micro\.ckpt\) cannot be used: the server sent a web page \(HTML\) instead of a checkpoint/,
  ],
  [
    'a truncated file',
    (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/octet-stream',
        body: Buffer.from(shipped.subarray(0, shipped.length >> 1)),
      }),
    /cannot be used: .*truncated/,
  ],
  [
    'another vocabulary',
    (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/octet-stream',
        body: Buffer.from(writeCheckpoint({ ...readCheckpoint(shipped), vocabHash: '0badc0de' })),
      }),
    /cannot be used: .*vocabulary/,
  ],
  [
    'a missing file',
    (route) => route.fulfill({ status: 404, body: 'not found' }),
    /could not load the warm start warmstart-micro\.ckpt: the server answered HTTP 404/,
  ],
];

async function isolatedContext(browser: import('playwright-core').Browser): Promise<BrowserContext> {
  return newContext(browser, { serviceWorkers: 'block' });
}

describe('warm starts', () => {
  const chromium = chromiumForSuite();

  it('says why a bad warm start stops the start, and Reset or another preset recovers without a reload', async () => {
    for (const [i, [what, answer, message]] of BAD_WARM_STARTS.entries()) {
      const context = await isolatedContext(chromium.browser);
      await context.route(MICRO, answer);
      const opened = await openTab(context, formatHash(FAST));
      const { page, problems } = opened;
      const banner = page.getByTestId('start-failed');
      await banner.waitFor();
      expect(await banner.textContent(), what).toMatch(message);
      expect(await page.getByTestId('engine-state').getAttribute('data-state')).toBe('failed');
      if (i === 0) await page.screenshot({ path: `${SCREENSHOTS}/e2e-warm-start-failed.png`, fullPage: true });
      if (i % 2 === 0) {
        // The file is back: Reset starts the run from it.
        await context.unroute(MICRO);
        await page.getByTestId('reset').click();
        await firstRollout(page);
        await engineReady(page);
        expect(await page.getByTestId('backend').textContent()).toContain('warmstart-micro.ckpt');
      } else {
        // Another preset starts at once.
        await page.locator('select[data-setting="preset"]').selectOption('tiny');
        await engineReady(page);
        expect(await page.getByTestId('backend').textContent()).toContain('warmstart-tiny.ckpt');
      }
      expect(await banner.count()).toBe(0);
      const reloads = opened.requests.filter((url) => new URL(url).pathname === '/seed/');
      expect(reloads, 'the page was not reloaded').toHaveLength(1);
      expect(foreignRequests(opened)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('starts the small preset, which ships no warm start, from seeded random weights and says so', async () => {
    const context = await isolatedContext(chromium.browser);
    const opened = await openTab(context, formatHash({ ...FAST, preset: 'small' }));
    const { page, problems } = opened;
    await engineReady(page);
    const notice = page.getByTestId('random-start');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      `No warm start ships for the small preset: this run starts from a seeded random initialisation, seed ${FAST.seed}`,
    );
    expect(await page.getByTestId('backend').textContent()).toContain('(no warm start ships for the small preset)');
    expect(await page.getByTestId('preset-note').getAttribute('data-preset')).toBe('small');
    expect(opened.requests.some((url) => url.includes('warmstart-small'))).toBe(false);
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-small-random-start.png`, fullPage: true });
    await page.locator('select[data-setting="preset"]').selectOption('micro');
    await page.locator('[data-testid="backend"]:has-text("warmstart-micro.ckpt")').waitFor();
    await engineReady(page);
    expect(await notice.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

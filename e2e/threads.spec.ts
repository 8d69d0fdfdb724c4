// Cross-origin isolation and the CPU backend's threads in a real Chromium, micro preset. The built site is
// served from a sub-path by a host that sends no COOP/COEP headers (static_server.ts): its service worker
// adds them, the page reloads once, isolated, and trains on more than one thread. With service workers
// blocked, the page stays as it is, trains on one thread and says why.
import { describe, expect, it } from 'vitest';
import { formatHash } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import {
  FAST,
  SCREENSHOTS,
  curvePoints,
  engineReady,
  foreignRequests,
  newContext,
  openPlayground,
  openTab,
} from './page.ts';

const CPU = formatHash({ ...FAST, backend: 'cpu' });

describe('threads', () => {
  const chromium = chromiumForSuite();

  it('becomes cross-origin isolated through the service worker, from a sub-path, and trains on more than one thread', async () => {
    const opened = await openPlayground(chromium.browser, CPU);
    const { page } = opened;
    expect(new URL(page.url()).pathname).not.toBe('/');
    await page.waitForFunction(() => globalThis.crossOriginIsolated === true);
    await engineReady(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      new URL('coi-serviceworker.js', page.url()).href,
    );
    const line = page.getByTestId('backend-threads');
    const threads = Number(await line.getAttribute('data-threads'));
    expect(threads).toBe(Math.min(16, await page.evaluate(() => navigator.hardwareConcurrency)));
    expect(threads).toBeGreaterThan(1);
    expect(await line.textContent()).toContain(`${threads} threads`);
    await page.getByTestId('step-update').click();
    await expect.poll(() => curvePoints(page)).toBeGreaterThanOrEqual(1);
    await page.getByTestId('backend').screenshot({ path: `${SCREENSHOTS}/e2e-threads-backend.png` });
    expect(opened.problems).toEqual([]);
    expect(foreignRequests(opened)).toEqual([]);
    await opened.context.close();
  });

  it('without a service worker stays unisolated, trains on one thread, and says why', async () => {
    const context = await newContext(chromium.browser, { serviceWorkers: 'block' });
    const opened = await openTab(context, CPU);
    const { page } = opened;
    await engineReady(page);
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(false);
    const line = page.getByTestId('backend-threads');
    expect(await line.getAttribute('data-threads')).toBe('1');
    expect(await line.textContent()).toContain('not cross-origin isolated');
    await page.getByTestId('step-update').click();
    await expect.poll(() => curvePoints(page)).toBeGreaterThanOrEqual(1);
    expect(opened.problems).toEqual([]);
    await context.close();
  });
});

// The page shell in a real Chromium: adapter report, the log-softmax kernel run in the page against the
// CPU reference, and the banner when WebGPU is missing.
import { describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SCREENSHOTS, newContext } from './page.ts';
import { chromiumForSuite } from './suite_browser.ts';

/** Opens the site, failing the test on any page error, console error or failed request. */
async function openSite(browser: Browser, hideWebGpu = false): Promise<{ page: Page; problems: string[] }> {
  const context = await newContext(browser, { viewport: { width: 1100, height: 800 } });
  if (hideWebGpu) {
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined, configurable: true });
    });
  }
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  const response = await page.goto(inject('siteUrl'));
  expect(response?.status()).toBe(200);
  return { page, problems };
}

describe('page shell', () => {
  const chromium = chromiumForSuite();

  it('is served from a sub-path and reports the SwiftShader adapter', async () => {
    const { page, problems } = await openSite(chromium.browser);
    expect(page.url()).toMatch(/^http:\/\/localhost:\d+\/seed\/$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('SEED Playground');
    const status = page.locator(
      '[data-testid="adapter-status"][data-state="ready"], [data-testid="webgpu-unavailable"]',
    );
    await status.first().waitFor();
    const banner = page.getByTestId('webgpu-unavailable');
    if (await banner.count()) throw new Error(`the page found no WebGPU: ${await banner.textContent()}`);
    const adapter = {
      vendor: await page.getByTestId('adapter-vendor').textContent(),
      architecture: await page.getByTestId('adapter-architecture').textContent(),
      description: await page.getByTestId('adapter-description').textContent(),
      fallback: await page.getByTestId('adapter-fallback').textContent(),
    };
    expect(`${adapter.vendor} ${adapter.architecture} ${adapter.description}`.toLowerCase()).toContain('swiftshader');
    expect(adapter.fallback).toMatch(/^(yes|no)/);
    expect(problems).toEqual([]);
  });

  it('runs the masked log-softmax kernel in the page and matches the CPU reference', async () => {
    const { page, problems } = await openSite(chromium.browser);
    const run = page.getByTestId('selftest-run');
    await page.locator('[data-testid="selftest-run"]:not([disabled])').waitFor();
    await run.click();
    await page
      .locator('[data-testid="selftest-status"][data-state="done"], [data-testid="selftest-error"]')
      .first()
      .waitFor();
    const error = page.getByTestId('selftest-error');
    if (await error.count()) throw new Error(`self-test failed in the page: ${await error.textContent()}`);
    const maxError = Number(await page.getByTestId('selftest-max-error').textContent());
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-shell-selftest.png`, fullPage: true });
    expect(await page.getByTestId('selftest-verdict').textContent()).toBe('PASS');
    // The kernel tests' tolerance, 2e-5 + 2e-6 |x|, at the self-test's largest |log p| (~161 for logits of +-80).
    expect(maxError).toBeGreaterThanOrEqual(0);
    expect(maxError).toBeLessThan(2e-5 + 2e-6 * 161);
    expect(problems).toEqual([]);
  });

  it('explains how to enable WebGPU when the browser has none', async () => {
    const { page, problems } = await openSite(chromium.browser, true);
    const banner = page.getByTestId('webgpu-unavailable');
    await banner.waitFor();
    expect(await banner.getAttribute('data-reason')).toBe('no-webgpu');
    expect(await page.getByTestId('webgpu-fix').textContent()).toContain('--enable-unsafe-webgpu');
    expect(await page.getByTestId('selftest-run').isDisabled()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/e2e-shell-no-webgpu.png`, fullPage: true });
    expect(problems).toEqual([]);
  });
});

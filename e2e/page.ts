// Shared helpers of the playground specs: open the built site with every problem recorded (page errors,
// console errors, failed responses, requests that leave the page's origin), wait for the engine, read
// downloads.
import { readFile } from 'node:fs/promises';
import { expect, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';

export const SCREENSHOTS = 'test-results';

export interface OpenedPage {
  page: Page;
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
  origin: string;
}

export async function openPlayground(browser: Browser, hash = '', viewport = { width: 1400, height: 1000 }): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  const site = inject('siteUrl');
  const origin = new URL(site).origin;
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400 && !/warmstart-[a-z]+\.ckpt$/.test(res.url())) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  // Requests of the page and of its workers.
  context.on('request', (req) => requests.push(req.url()));
  const response = await page.goto(site + hash);
  expect(response?.status()).toBe(200);
  return { page, problems, requests, origin };
}

/** Requests that went anywhere but the page's own origin (blob: and data: URLs stay in the page). */
export function foreignRequests(opened: OpenedPage): string[] {
  return opened.requests.filter((url) => !url.startsWith(`${opened.origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:'));
}

export async function engineReady(page: Page, timeout = 90_000): Promise<void> {
  await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor({ timeout });
}

export async function firstRollout(page: Page, timeout = 60_000): Promise<void> {
  await page.locator('[data-testid="trajectory-pick"]').first().waitFor({ timeout });
}

/** Clicks a button that downloads a file and returns the file's text. */
export async function downloadText(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId(testId).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

export async function downloadBytes(page: Page, testId: string): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId(testId).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(path)) };
}

export async function curvePoints(page: Page): Promise<number> {
  return Number(await page.getByTestId('curves').getAttribute('data-points'));
}

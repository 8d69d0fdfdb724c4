// Shared helpers of the playground specs: open the built site with every problem recorded (page errors,
// console errors, failed responses, requests that leave the page's origin), wait for the engine, read
// downloads. Every wait takes its limit from the context (wait.ts).
import { readFile } from 'node:fs/promises';
import { expect, inject } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { defaultSettings, type Settings } from '../src/rl/page_settings.ts';
import { STATE_MS } from './wait.ts';

export const SCREENSHOTS = 'test-results';

/** The micro preset, small and quick: 2 tasks x 3 episodes of at most 6 steps, a 2-game evaluation after every update. */
export const FAST: Settings = {
  ...defaultSettings('micro'),
  groupSize: 3,
  tasksPerUpdate: 2,
  maxSteps: 6,
  history: 6,
  evalEvery: 1,
  evalEpisodes: 2,
  checkpointEvery: 1,
};

export interface OpenedPage {
  page: Page;
  /** The browser context: its pages are the tabs of one browser profile (they share IndexedDB). */
  context: BrowserContext;
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
  origin: string;
}

/** A browser profile whose pages wait up to STATE_MS for any state, action, navigation or download. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    acceptDownloads: true,
    ...options,
  });
  context.setDefaultTimeout(STATE_MS);
  return context;
}

export async function openPlayground(
  browser: Browser,
  hash = '',
  viewport = { width: 1400, height: 1000 },
): Promise<OpenedPage> {
  return openTab(await newContext(browser, { viewport }), hash);
}

/** Opens the playground in one more tab of a browser context (its waits limited as newContext limits them). */
export async function openTab(context: BrowserContext, hash = ''): Promise<OpenedPage> {
  context.setDefaultTimeout(STATE_MS);
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
    if (res.status() >= 400 && !/warmstart-[a-z]+\.ckpt$/.test(res.url()))
      problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  // Requests of the page and of its workers.
  context.on('request', (req) => requests.push(req.url()));
  const response = await page.goto(site + hash);
  expect(response?.status()).toBe(200);
  return { page, context, problems, requests, origin };
}

/** Requests that went anywhere but the page's own origin (blob: and data: URLs stay in the page). */
export function foreignRequests(opened: OpenedPage): string[] {
  return opened.requests.filter(
    (url) => !url.startsWith(`${opened.origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:'),
  );
}

export async function engineReady(page: Page): Promise<void> {
  await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor();
}

/**
 * Waits for the whole first rollout: its episodes reach the page one by one, and the rollout stage's snapshot
 * comes after the last of them (the engine reads ready before that, while the rollout still runs).
 */
export async function firstRollout(page: Page): Promise<void> {
  await page.locator('[data-testid="stages"]:not([data-stage=""])').waitFor({ state: 'attached' });
  await page.locator('[data-testid="trajectory-pick"]').first().waitFor();
}

/** Opens each trajectory of the update on screen in turn and reads its transcript. */
export async function readTranscripts<T>(page: Page, read: (transcript: Locator) => Promise<T>): Promise<T[]> {
  const picks = page.getByTestId('trajectory-pick');
  const n = await picks.count();
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    await picks.nth(i).click();
    const index = await picks.nth(i).getAttribute('data-index');
    const transcript = page.locator(`[data-testid="transcript"][data-index="${index}"]`);
    await transcript.waitFor();
    out.push(await read(transcript));
  }
  return out;
}

/**
 * A transcript's commands as it lays their tokens out (a gap between chips unless one is glued to the one
 * before), the end token left out: the action text a world's own players write.
 */
export async function commandTexts(transcript: Locator): Promise<string[]> {
  return transcript.locator('.command').evaluateAll((els) =>
    els.map((el) =>
      Array.from(el.querySelectorAll('.tok'))
        .filter((t) => t.textContent !== '<end>')
        .map((t, i) => (i === 0 || t.classList.contains('glued') ? '' : ' ') + (t.textContent ?? ''))
        .join(''),
    ),
  );
}

/** Clicks a button that downloads a file and returns the file's text. */
export async function downloadText(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

export async function downloadBytes(page: Page, testId: string): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(path)) };
}

export async function curvePoints(page: Page): Promise<number> {
  return Number(await page.getByTestId('curves').getAttribute('data-points'));
}

/** The records of saved runs in the page's IndexedDB, by key, as stored. */
export async function savedRecords(page: Page): Promise<Record<string, { updates: unknown; savedAt: unknown }>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, { updates: unknown; savedAt: unknown }>>((done, fail) => {
        const open = indexedDB.open('seed-playground');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const out: Record<string, { updates: unknown; savedAt: unknown }> = {};
          const cursor = db.transaction('runs').objectStore('runs').openCursor();
          cursor.onerror = () => fail(cursor.error);
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) {
              db.close();
              return done(out);
            }
            out[String(at.key)] = { updates: at.value?.updates, savedAt: at.value?.savedAt };
            at.continue();
          };
        };
      }),
  );
}

/** Writes a record into the page's store of saved runs, as a damaged or older page might have left it. */
export async function putSavedRecord(page: Page, key: string, value: unknown): Promise<void> {
  await page.evaluate(
    ([k, v]) =>
      new Promise<void>((done, fail) => {
        const open = indexedDB.open('seed-playground');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const put = db.transaction('runs', 'readwrite').objectStore('runs').put(v, k);
          put.onerror = () => fail(put.error);
          put.onsuccess = () => {
            db.close();
            done();
          };
        };
      }),
    [key, value] as const,
  );
}

/**
 * A screenshot of the whole page with every panel painted: the page paints a panel, and draws a chart, only
 * when it is near the screen, so the viewport is stretched to the page's height for the shot, then restored.
 */
export async function fullPageShot(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize();
  if (!viewport) return void (await page.screenshot({ path, fullPage: true }));
  let height = viewport.height;
  // A panel painted for the first time takes its own height in place of the one it was laid out with.
  for (let round = 0; round < 4; round++) {
    const pageHeight = Math.max(
      viewport.height,
      await page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().bottom + window.scrollY)),
    );
    if (pageHeight === height) break;
    height = pageHeight;
    await page.setViewportSize({ width: viewport.width, height });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  }
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

// `seed bench page --shots`: pictures of the page's first screen at a laptop's and a phone's viewport, as a
// visitor sees them after a short Play at the page's defaults (the README shows the laptop's). Also says where
// the first screen's parts end, so that a layout that pushes one below the fold shows in the log.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

interface Viewport {
  width: number;
  height: number;
}

export const SHOT_VIEWPORTS: readonly Viewport[] = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

/** The parts of the first screen that must be seen without scrolling, by data-testid. */
export const FIRST_SCREEN_PARTS = ['play', 'chart-headline-unseen', 'live-eval-unseen-change', 'finding'] as const;

export interface Shot {
  path: string;
  viewport: Viewport;
  /** Each part's bottom edge in CSS pixels from the top of the page (null when it is not shown). */
  bottoms: Record<string, number | null>;
}

/** The evaluations the run must have shown after Play (the warm start's, update 1's, then every evalEvery-th): enough to see it move. */
const EVALS_BEFORE_SHOT = 5;

function shotName(viewport: Viewport): string {
  return `first-screen-${viewport.width}x${viewport.height}.png`;
}

export async function partBottoms(page: Page): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = {};
  for (const id of FIRST_SCREEN_PARTS) {
    const box = await page
      .getByTestId(id)
      .first()
      .boundingBox()
      .catch(() => null);
    out[id] = box ? Math.round(box.y + box.height) : null;
  }
  return out;
}

async function evaluationsShown(page: Page): Promise<number> {
  return page.evaluate(() => {
    const figure = document.querySelector('[data-testid="chart-headline-unseen"]');
    return Number(figure?.getAttribute('data-live-points') ?? 0);
  });
}

/**
 * Opens `url` (the site with its hash) at each viewport in a fresh profile, waits for the warm start's
 * evaluation, plays until `EVALS_BEFORE_SHOT` evaluations are on the chart (or `maxPlaySeconds` pass), pauses,
 * and writes the viewport's picture into `dir`.
 */
export async function firstScreenShots(
  browser: Browser,
  url: string,
  dir: string,
  maxPlaySeconds: number,
  log: (line: string) => void,
): Promise<Shot[]> {
  mkdirSync(dir, { recursive: true });
  const shots: Shot[] = [];
  for (const viewport of SHOT_VIEWPORTS) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page
        .waitForFunction(() => globalThis.crossOriginIsolated === true, null, { timeout: 30_000 })
        .catch(() => undefined);
      await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor({ timeout: 180_000 });
      await page.locator('[data-testid="live-eval-unseen-change"]').waitFor({ timeout: 180_000 });
      await page.getByTestId('play').click();
      const until = Date.now() + maxPlaySeconds * 1000;
      while (Date.now() < until && (await evaluationsShown(page)) < EVALS_BEFORE_SHOT) await page.waitForTimeout(500);
      await page.getByTestId('pause').click();
      await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor({ timeout: 120_000 });
      await page.evaluate(() => window.scrollTo(0, 0));
      const path = join(dir, shotName(viewport));
      await page.screenshot({ path });
      const bottoms = await partBottoms(page);
      log(`  ${viewport.width}x${viewport.height}: ${path}; bottoms ${JSON.stringify(bottoms)}`);
      shots.push({ path, viewport, bottoms });
    } finally {
      await context.close();
    }
  }
  return shots;
}

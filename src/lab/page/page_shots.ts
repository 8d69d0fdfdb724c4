// `seed bench page --shots`: pictures of the page's first screen at a laptop's and a phone's viewport, as a
// visitor sees them after a short Play at the page's defaults (the README shows the laptop's). Also says where
// the first screen's parts end, so that a layout that pushes one below the fold shows in the log. Beside the
// pictures, first-screen.json names the SHA-256 of every recorded-run file (runs/*.json) the pictured page read,
// as its repository path under public/: page_shots.test.ts fails when a shipped record no longer matches, so the
// pictures are retaken with the record they show.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';

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

export function shotName(viewport: Viewport): string {
  return `first-screen-${viewport.width}x${viewport.height}.png`;
}

/** The pictures' sidecar, beside them. */
export const SHOTS_SIDECAR = 'first-screen.json';

/** What the sidecar holds: the link the pictures were taken at, and the record files the page read. */
export interface ShotsSidecar {
  format: 'seed-first-screen-shots';
  /** The hash of the link opened (the page's defaults but for these). */
  link: string;
  pictures: string[];
  /** Repository path (public/runs/...) -> SHA-256 of the bytes the page read, in hex. */
  records: Record<string, string>;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The sidecar of the pictures in `dir`, refused in one line when it is missing or not one. */
export function readShotsSidecar(dir: string): ShotsSidecar {
  const path = join(dir, SHOTS_SIDECAR);
  let json: Partial<ShotsSidecar>;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path} was not read (${(err as Error).message}): take the pictures with bench page --shots`);
  }
  if (json.format !== 'seed-first-screen-shots' || typeof json.records !== 'object' || !Array.isArray(json.pictures))
    throw new Error(`${path} is not a sidecar of bench page --shots`);
  return json as ShotsSidecar;
}

/**
 * Where a recorded-run file the page read lives in the repository: the site is the build of public/, so
 * `<site>/runs/x.json` is public/runs/x.json. Null for anything else the page read.
 */
function recordPath(site: string, response: Response): string | null {
  const url = response.url();
  if (!url.startsWith(site)) return null;
  const path = url.slice(site.length).split(/[?#]/)[0];
  return /^runs\/[\w.-]+\.json$/.test(path) ? `public/${path}` : null;
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
  const site = url.split('#')[0];
  const records = new Map<string, string>();
  for (const viewport of SHOT_VIEWPORTS) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const reads: Promise<void>[] = [];
    try {
      const page = await context.newPage();
      page.on('response', (response) => {
        const path = recordPath(site, response);
        if (path && response.ok()) reads.push(response.body().then((body) => void records.set(path, sha256(body))));
      });
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
      await Promise.all(reads);
    } finally {
      await context.close();
    }
  }
  const sidecar: ShotsSidecar = {
    format: 'seed-first-screen-shots',
    link: `#${url.split('#')[1] ?? ''}`,
    pictures: SHOT_VIEWPORTS.map(shotName),
    records: Object.fromEntries([...records].sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(dir, SHOTS_SIDECAR), `${JSON.stringify(sidecar, null, 2)}\n`);
  log(`  ${join(dir, SHOTS_SIDECAR)}: the ${records.size} record files the pictured page read`);
  return shots;
}

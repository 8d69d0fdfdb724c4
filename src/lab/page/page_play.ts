// One seed of `bench page` played as a person plays it: a fresh browser profile, the link, the engine's start,
// Play, the page's own live numbers read once a second for the time given, then Pause and the curves' CSV. Gives
// the updates made, when the first evaluation and the first update showed, every evaluation and where the
// updates' time went as the page's engine timed it.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import {
  evalsFromCsv,
  grpoSignalShare,
  riseOf,
  secondsTo,
  stageSplit,
  type EvalPoint,
  type StageSplit,
  type UpdateSample,
} from './page_figures.ts';

/** The rise of eval success (points, mean of the two splits) the page's default must reach within the time. */
export const TARGET_RISE = 15;

/** How the page trained: the backend and threads it chose, and whether it was cross-origin isolated. */
export interface PageBackend {
  backend: string;
  threads: number;
  crossOriginIsolated: boolean;
}

export interface SeedResult extends PageBackend {
  seed: number;
  updates: number;
  seconds: number;
  updatesPerSecond: number;
  /** Seconds after Play when the page first showed an evaluation (the warm start's) and its first update. */
  firstEvalSeconds: number | null;
  firstUpdateSeconds: number | null;
  /** Updates whose L_GRPO is not zero, over updates with a value. */
  grpoSignalShare: number | null;
  evals: EvalPoint[];
  /** Mean of both splits, last evaluation minus the first (the warm start's), in points; null with fewer than two evaluations. */
  rise: number | null;
  reached: boolean;
  stages: StageSplit | null;
}

interface LiveReading {
  update: number;
  evalUpdate: number | null;
  seen: number | null;
  unseen: number | null;
}

// A string, not a function: the CLI's TypeScript loader would wrap a function's inner helpers in a helper of
// its own that the page does not have.
const READ_LIVE = `(() => {
  const value = (id) => {
    const text = document.querySelector('[data-testid="' + id + '"]')?.dataset.value ?? '';
    return text === '' ? null : Number(text);
  };
  const at = document.querySelector('[data-eval-update]')?.dataset.evalUpdate ?? '';
  return { update: value('live-update') ?? 0, evalUpdate: at === '' ? null : Number(at), seen: value('live-eval-seen'), unseen: value('live-eval-unseen') };
})()`;

async function readLive(page: Page): Promise<LiveReading> {
  return (await page.evaluate(READ_LIVE)) as LiveReading;
}

/** Opens the link in a fresh profile and waits for the engine: what the page chose to train on. */
export async function openPage(page: Page, url: string, problems: string[]): Promise<PageBackend> {
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(url);
  // The service worker makes the site cross-origin isolated with one reload; a browser without it runs as is.
  await page
    .waitForFunction(() => globalThis.crossOriginIsolated === true, null, { timeout: 30_000 })
    .catch(() => undefined);
  await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor({ timeout: 180_000 });
  const crossOriginIsolated = await page.evaluate(() => globalThis.crossOriginIsolated === true);
  const backend = (await page.getByTestId('backend-kind').textContent())?.trim() ?? 'unknown';
  const threads = Number(
    (await page
      .getByTestId('backend-threads')
      .getAttribute('data-threads')
      .catch(() => null)) ?? 1,
  );
  return { backend, threads, crossOriginIsolated };
}

/** Clicks the button `testId` and returns the text of the file it downloads. */
export async function downloaded(page: Page, testId: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByTestId(testId).click(),
  ]);
  return readFile(await download.path(), 'utf8');
}

export async function playSeed(
  browser: Browser,
  url: string,
  seed: number,
  seconds: number,
  log: (line: string) => void,
): Promise<SeedResult> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    const chosen = await openPage(page, url, problems);
    log(
      `  seed ${seed}: ${chosen.backend}, ${chosen.threads} thread(s), cross-origin isolated ${chosen.crossOriginIsolated}; Play for ${seconds} s`,
    );
    await page.getByTestId('play').click();
    const t0 = performance.now();
    const samples: UpdateSample[] = [];
    let firstEvalSeconds: number | null = null;
    let last: LiveReading = { update: 0, evalUpdate: null, seen: null, unseen: null };
    let nextLog = 30;
    for (;;) {
      const elapsed = (performance.now() - t0) / 1000;
      if (elapsed >= seconds) break;
      if (problems.length) throw new Error(`the page failed: ${problems[0]}`);
      last = await readLive(page);
      const at = Math.round(elapsed * 10) / 10;
      samples.push({ seconds: at, update: last.update });
      if (firstEvalSeconds === null && last.evalUpdate !== null) firstEvalSeconds = at;
      if (elapsed >= nextLog) {
        const shown = last.evalUpdate !== null && last.seen !== null && last.unseen !== null;
        log(
          `  seed ${seed}: ${Math.round(elapsed)} s, update ${last.update}${shown ? `, eval ${(100 * last.seen!).toFixed(1)}% / ${(100 * last.unseen!).toFixed(1)}% after update ${last.evalUpdate}` : ''}`,
        );
        nextLog += 30;
      }
      await page.waitForTimeout(Math.min(1000, Math.max(0, (seconds - elapsed) * 1000)));
    }
    const elapsed = (performance.now() - t0) / 1000;
    await page.getByTestId('pause').click();
    await page.getByTestId('play').waitFor({ timeout: 120_000 });
    const csv = await downloaded(page, 'export-csv');
    const evals = evalsFromCsv(csv, samples, last.update);
    const rise = riseOf(evals);
    return {
      seed,
      ...chosen,
      updates: last.update,
      seconds: Math.round(elapsed * 10) / 10,
      updatesPerSecond: last.update / elapsed,
      firstEvalSeconds,
      firstUpdateSeconds: secondsTo(samples, 1),
      grpoSignalShare: grpoSignalShare(csv),
      evals,
      rise,
      reached: rise !== null && rise >= TARGET_RISE,
      stages: stageSplit(csv, last.update),
    };
  } finally {
    await context.close();
  }
}

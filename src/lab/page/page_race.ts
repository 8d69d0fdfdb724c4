// One seed of `bench page --race`: the page's Race as a person starts it. A fresh browser profile opens the link,
// waits for the engine and for the page's own warm-start evaluation (so that nothing else trains), presses
// "Race GRPO vs SEED" and reads both arms' numbers once a second for the time given, then pauses the race and takes
// its rows of the curves' CSV: per arm the updates made, when its first evaluation and update showed, and where
// its updates' time went as its engine timed it; and when the first paired evaluation showed.
import type { Browser, Page } from 'playwright-core';
import { grpoSignalShare, secondsTo, stageSplit, type StageSplit, type UpdateSample } from './page_figures.ts';
import { downloaded, openPage, type PageBackend } from './page_play.ts';

interface RaceArmResult {
  algo: string;
  updates: number;
  updatesPerSecond: number;
  firstEvalSeconds: number | null;
  firstUpdateSeconds: number | null;
  grpoSignalShare: number | null;
  stages: StageSplit | null;
}

export interface RaceResult extends PageBackend {
  seed: number;
  seconds: number;
  /** [GRPO, the hindsight arm]. */
  arms: RaceArmResult[];
  /** Paired evaluations after training began that both arms reached within the time, and when the first showed. */
  pairs: number;
  firstPairSeconds: number | null;
  /** The mean SEED − GRPO difference on eval-unseen over those, as the page shows it (a fraction); null before one. */
  meanDifference: number | null;
}

interface RaceReading {
  phase: string;
  message: string;
  arms: { algo: string; updates: number; evaluations: number }[];
  pairs: number;
  mean: number | null;
}

// A string, not a function: see READ_LIVE in page_play.ts.
const READ_RACE = `(() => {
  const at = (id) => document.querySelector('[data-testid="' + id + '"]');
  const arms = [0, 1].map((i) => at('race-arm-' + i)).filter((el) => el).map((el) => ({
    algo: el.dataset.algo ?? '',
    updates: Number(el.dataset.updates ?? 0),
    evaluations: Number(el.dataset.evaluations ?? 0),
  }));
  const difference = at('race-difference');
  const mean = difference?.dataset.mean ?? '';
  return {
    phase: at('race')?.dataset.phase ?? '',
    message: at('race-message')?.textContent ?? '',
    arms,
    pairs: Number(difference?.dataset.pairs ?? 0),
    mean: mean === '' ? null : Number(mean),
  };
})()`;

async function readRace(page: Page): Promise<RaceReading> {
  return (await page.evaluate(READ_RACE)) as RaceReading;
}

export async function raceSeed(
  browser: Browser,
  url: string,
  seed: number,
  seconds: number,
  log: (line: string) => void,
): Promise<RaceResult> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    const chosen = await openPage(page, url, problems);
    // The page's own run evaluates its warm start after the start: the race begins once it is done.
    await page.locator('[data-testid="live"] .big-numbers[data-eval-update="0"]').waitFor({ timeout: 600_000 });
    log(`  seed ${seed}: the page's run on ${chosen.backend}, ${chosen.threads} thread(s); Race for ${seconds} s`);
    await page.getByTestId('race-start').click();
    const t0 = performance.now();
    const samples: UpdateSample[][] = [[], []];
    const firstEval: (number | null)[] = [null, null];
    let firstPairSeconds: number | null = null;
    let last: RaceReading = { phase: '', message: '', arms: [], pairs: 0, mean: null };
    let nextLog = 30;
    for (;;) {
      const elapsed = (performance.now() - t0) / 1000;
      if (elapsed >= seconds) break;
      if (problems.length) throw new Error(`the page failed: ${problems[0]}`);
      last = await readRace(page);
      if (last.phase === 'failed') throw new Error(`the race failed: ${last.message}`);
      const at = Math.round(elapsed * 10) / 10;
      last.arms.forEach((arm, i) => {
        samples[i].push({ seconds: at, update: arm.updates });
        if (firstEval[i] === null && arm.evaluations > 0) firstEval[i] = at;
      });
      if (firstPairSeconds === null && last.pairs > 0) firstPairSeconds = at;
      if (elapsed >= nextLog) {
        log(
          `  seed ${seed}: ${Math.round(elapsed)} s, ${last.arms.map((a) => `${a.algo} update ${a.updates}`).join(', ')}, ${last.pairs} paired evaluation(s)`,
        );
        nextLog += 30;
      }
      await page.waitForTimeout(Math.min(1000, Math.max(0, (seconds - elapsed) * 1000)));
    }
    const elapsed = (performance.now() - t0) / 1000;
    if (last.arms.length !== 2)
      throw new Error(`the race showed ${last.arms.length} arm(s) in ${Math.round(elapsed)} s`);
    await page.getByTestId('race-pause').click();
    await page.locator('[data-testid="race"][data-phase="paused"]').waitFor({ timeout: 300_000 });
    const csv = await downloaded(page, 'race-export-csv');
    return {
      seed,
      ...chosen,
      seconds: Math.round(elapsed * 10) / 10,
      arms: last.arms.map((arm, i) => ({
        algo: arm.algo,
        updates: arm.updates,
        updatesPerSecond: arm.updates / elapsed,
        firstEvalSeconds: firstEval[i],
        firstUpdateSeconds: secondsTo(samples[i], 1),
        grpoSignalShare: grpoSignalShare(csv, 'race', arm.algo),
        stages: stageSplit(csv, arm.updates, 'race', arm.algo),
      })),
      pairs: last.pairs,
      firstPairSeconds,
      meanDifference: last.mean,
    };
  } finally {
    await context.close();
  }
}

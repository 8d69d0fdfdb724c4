// `seed bench page`: the page's default run as a person sees it. Builds the site (or takes --site), serves it
// from a sub-path as a static host would, and for each seed opens a fresh browser profile in Debian's headless
// Chromium, waits for the engine, presses Play and reads the page's own live numbers once a second for
// --minutes: the updates done. The curves' CSV export then gives every evaluation up to the last update shown
// within the time, and how many updates carried a GRPO signal. Writes page.md and page.json. With --shots it
// writes instead the pictures of the first screen (page_shots.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../cli/browser/chromium.ts';
import { serveStatic } from '../../cli/browser/static_server.ts';
import { numberOption, parseOptions } from '../../cli/args.ts';
import { CliError } from '../../cli/cli_error.ts';
import { defineCommand } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { commitId, portablePath, sourceCommit } from '../../cli/provenance.ts';
import { outOption, reportHead, reportPath, writeOutput } from '../output.ts';
import { firstScreenShots, SHOTS_SIDECAR } from './page_shots.ts';

const limits = LIMITS.benchPage;
/** The rise of eval success (points, mean of the two splits) the page's default must reach within the time. */
const TARGET_RISE = 15;

export const command = defineCommand({
  name: 'bench page',
  summary: "the page's default run in headless Chromium: eval success over time, updates per second, backend",
  description:
    "Builds the site from the current code (or takes --site DIR), serves it from a sub-path, and for each seed opens a fresh browser profile in Debian's " +
    "headless Chromium at the page's defaults (only #seed=S in the link), presses Play and reads the live numbers once a second for --minutes. " +
    'Reports per seed the backend and threads the page chose, updates per second, the share of updates with a GRPO signal (a group with a win and a loss), ' +
    `and the eval curve; the run reaches its target when the mean of eval-seen and eval-unseen success rises by ${TARGET_RISE} points or more from the ` +
    "warm start's evaluation (update 0) to the last one within the time. Writes page.md and page.json. " +
    'With --shots, measures nothing and writes pictures of the first screen at 1440x900 and 390x844 (shots/ beside page.md) after a short Play with the first seed.',
  options: {
    minutes: {
      type: 'string',
      value: 'N',
      limit: limits.minutes,
      default: '5',
      description: 'minutes of Play per seed (decimals allowed)',
    },
    seeds: {
      type: 'string',
      value: 'K',
      limit: limits.seeds,
      default: '3',
      description: 'seeds run, one after another',
    },
    'first-seed': {
      type: 'string',
      value: 'S',
      limit: limits['first-seed'],
      default: '1',
      description: 'the first seed; the others follow it',
    },
    link: {
      type: 'string',
      value: 'k=v&...',
      defaultText: "none: the page's defaults",
      description:
        "settings added to the link after seed=S, in the page's hash keys (e.g. preset=tiny&evalevery=10&evaleps=64), to try other defaults",
    },
    site: {
      type: 'string',
      value: 'DIR',
      defaultText: 'a fresh build of the current code',
      description: 'a built site (vite build) to measure instead',
    },
    shots: {
      type: 'boolean',
      default: false,
      description: "only write the first screen's pictures (Play until a second evaluation shows, at most --minutes)",
    },
    out: outOption('page.md and page.json'),
  },
});

export interface EvalPoint {
  /** Seconds since Play was pressed when the page showed this evaluation. */
  seconds: number;
  update: number;
  seen: number;
  unseen: number;
}

export interface SeedResult {
  seed: number;
  backend: string;
  threads: number;
  crossOriginIsolated: boolean;
  updates: number;
  seconds: number;
  updatesPerSecond: number;
  /** Updates whose L_GRPO is not zero, over updates with a value. */
  grpoSignalShare: number | null;
  evals: EvalPoint[];
  /** Mean of both splits, last evaluation minus the first (the warm start's), in points; null with fewer than two evaluations. */
  rise: number | null;
  reached: boolean;
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

/** The live run's rows of the curves CSV, each a lookup by column name. */
function liveRows(csv: string): ((column: string) => string)[] {
  const [head, ...rows] = csv.trim().split('\n');
  const columns = head.split(',');
  return rows
    .map((r) => r.split(','))
    .map((cells) => (column: string) => cells[columns.indexOf(column)] ?? '')
    .filter((cell) => cell('source') === 'live');
}

/** The share of the live run's updates in the curves CSV whose L_GRPO is not zero. */
export function grpoSignalShare(csv: string): number | null {
  const values = liveRows(csv)
    .filter((cell) => cell('L_GRPO') !== '')
    .map((cell) => Number(cell('L_GRPO')));
  return values.length ? values.filter((v) => v !== 0).length / values.length : null;
}

/** A reading of the live update count, `seconds` after Play. */
export interface UpdateSample {
  seconds: number;
  update: number;
}

/**
 * The live run's evaluations in the curves CSV up to update `through` (the last one shown within the time),
 * each timed by the first reading that showed its update done: the CSV holds every evaluation, where a
 * reading once a second can miss some.
 */
export function evalsFromCsv(csv: string, samples: readonly UpdateSample[], through: number): EvalPoint[] {
  const evals: EvalPoint[] = [];
  for (const cell of liveRows(csv)) {
    if (cell('evalSeen') === '' || cell('evalUnseen') === '') continue;
    const update = Number(cell('update'));
    if (update > through) continue;
    const shown = samples.find((s) => s.update >= update);
    evals.push({
      seconds: shown?.seconds ?? samples[samples.length - 1]?.seconds ?? 0,
      update,
      seen: Number(cell('evalSeen')),
      unseen: Number(cell('evalUnseen')),
    });
  }
  return evals.sort((a, b) => a.update - b.update);
}

/** Eval success in points: the mean of the two splits. */
const meanPoints = (e: EvalPoint) => (100 * (e.seen + e.unseen)) / 2;

export function riseOf(evals: readonly EvalPoint[]): number | null {
  return evals.length < 2 ? null : meanPoints(evals[evals.length - 1]) - meanPoints(evals[0]);
}

async function runSeed(
  browser: Browser,
  site: string,
  seed: number,
  link: string,
  seconds: number,
  log: (line: string) => void,
): Promise<SeedResult> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await page.goto(`${site}#seed=${seed}${link ? `&${link}` : ''}`);
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
    log(
      `  seed ${seed}: ${backend}, ${threads} thread(s), cross-origin isolated ${crossOriginIsolated}; Play for ${seconds} s`,
    );
    await page.getByTestId('play').click();
    const t0 = performance.now();
    const samples: UpdateSample[] = [];
    let last: LiveReading = { update: 0, evalUpdate: null, seen: null, unseen: null };
    let nextLog = 30;
    for (;;) {
      const elapsed = (performance.now() - t0) / 1000;
      if (elapsed >= seconds) break;
      if (problems.length) throw new Error(`the page failed: ${problems[0]}`);
      last = await readLive(page);
      samples.push({ seconds: Math.round(elapsed * 10) / 10, update: last.update });
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
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('export-csv').click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const evals = evalsFromCsv(csv, samples, last.update);
    const rise = riseOf(evals);
    return {
      seed,
      backend,
      threads,
      crossOriginIsolated,
      updates: last.update,
      seconds: Math.round(elapsed * 10) / 10,
      updatesPerSecond: last.update / elapsed,
      grpoSignalShare: grpoSignalShare(csv),
      evals,
      rise,
      reached: rise !== null && rise >= TARGET_RISE,
    };
  } finally {
    await context.close();
  }
}

function buildSite(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'seed-bench-page-'));
  process.stderr.write(`building the site into ${dir}\n`);
  const vite = resolve('node_modules/vite/bin/vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new CliError(`vite build failed (exit ${built.status ?? built.signal})`);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function report(
  args: string[],
  link: string,
  results: SeedResult[],
  failed: { seed: number; error: string }[],
  minutes: number,
  machine: string,
  commit: ReturnType<typeof sourceCommit>,
): string {
  const lines = [
    ...reportHead("The page's default run in headless Chromium", 'page', args, commit),
    `Machine: ${machine}. Each seed: a fresh browser profile, the built site served from a sub-path, the page's defaults with \`#seed=S${link ? `&${link}` : ''}\`, Play for ${minutes} minute(s).`,
    `Eval success is the page's last evaluation (eval-seen, eval-unseen); the rise is the mean of the two splits, from the warm start's evaluation (update 0) to the last one shown within the time; the target is ${TARGET_RISE} points.`,
    '',
    '| seed | backend | threads | isolated | updates | updates/s | GRPO signal | first eval (seen / unseen) | last eval (seen / unseen) | rise (points) | target |',
    '|---:|---|---:|---|---:|---:|---:|---|---|---:|---|',
  ];
  for (const r of results) {
    const first = r.evals[0];
    const last = r.evals[r.evals.length - 1];
    lines.push(
      `| ${r.seed} | ${r.backend} | ${r.threads} | ${r.crossOriginIsolated ? 'yes' : 'no'} | ${r.updates} | ${r.updatesPerSecond.toFixed(2)} | ${r.grpoSignalShare === null ? '—' : pct(r.grpoSignalShare)} | ` +
        `${first ? `${pct(first.seen)} / ${pct(first.unseen)} (update ${first.update})` : '—'} | ${last ? `${pct(last.seen)} / ${pct(last.unseen)} (update ${last.update}, ${Math.round(last.seconds)} s)` : '—'} | ` +
        `${r.rise === null ? '—' : r.rise.toFixed(1)} | ${r.reached ? 'reached' : 'missed'} |`,
    );
  }
  for (const f of failed) lines.push(`| ${f.seed} | failed: ${f.error.replace(/\|/g, '/')} | | | | | | | | | |`);
  lines.push('', 'Eval curves (seconds after Play: update, eval-seen / eval-unseen):', '');
  for (const r of results)
    lines.push(
      `- seed ${r.seed}: ${r.evals.map((e) => `${Math.round(e.seconds)} s: ${e.update}, ${pct(e.seen)} / ${pct(e.unseen)}`).join('; ')}`,
    );
  lines.push('', 'page.json beside this report holds every evaluation of every seed.', '');
  return lines.join('\n');
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, command);
  const minutes = numberOption(values.minutes, 'minutes', limits.minutes);
  const seeds = numberOption(values.seeds, 'seeds', limits.seeds);
  const firstSeed = numberOption(values['first-seed'], 'first-seed', limits['first-seed']);
  const link = (values.link ?? '').replace(/^[#&]+/, '');
  if (/(^|&)seed=/.test(link)) throw new CliError('--link sets the seed through --first-seed, not seed=', 2);
  if (values.shots) return shots(values.site, reportPath(values.out, 'page.md'), firstSeed, link, minutes);
  const commit = sourceCommit();
  const built = values.site === undefined ? buildSite() : null;
  const siteDir = values.site ?? built!.dir;
  const load = loadavg()[0];
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${load.toFixed(2)} at the start), Debian's headless Chromium`;
  const server = await serveStatic(siteDir, 'seed').catch((err: Error) => {
    built?.cleanup();
    throw new CliError(err.message);
  });
  let browser: Browser | null = null;
  const results: SeedResult[] = [];
  const failed: { seed: number; error: string }[] = [];
  try {
    browser = await launchChromium().catch((err: Error) => {
      throw new CliError(err.message);
    });
    for (let k = 0; k < seeds; k++) {
      const seed = firstSeed + k;
      try {
        results.push(
          await runSeed(browser, server.url, seed, link, minutes * 60, (line) => process.stderr.write(`${line}\n`)),
        );
      } catch (err) {
        const error = (err instanceof Error ? err.message : String(err)).split('\n')[0];
        process.stderr.write(`  seed ${seed} failed: ${error}\n`);
        failed.push({ seed, error });
      }
    }
  } finally {
    await browser?.close();
    await server.close();
    built?.cleanup();
  }
  const md = report(args, link, results, failed, minutes, machine, commit);
  process.stdout.write(md);
  const json = {
    command: `npm run seed -- bench page ${args.join(' ')}`.trim(),
    commit: commitId(commit),
    site: values.site === undefined ? 'built from the commit' : portablePath(values.site),
    machine,
    minutes,
    link,
    target_rise: TARGET_RISE,
    seeds: results.map((r) => ({
      seed: r.seed,
      backend: r.backend,
      threads: r.threads,
      cross_origin_isolated: r.crossOriginIsolated,
      updates: r.updates,
      seconds: r.seconds,
      updates_per_second: Number(r.updatesPerSecond.toFixed(3)),
      grpo_signal_share: r.grpoSignalShare,
      rise: r.rise,
      reached: r.reached,
      evals: r.evals,
    })),
    failed,
  };
  const mdPath = reportPath(values.out, 'page.md');
  await writeOutput(mdPath, md);
  await writeOutput(join(dirname(mdPath), 'page.json'), `${JSON.stringify(json, null, 1)}\n`);
  return failed.length ? 1 : 0;
}

/** --shots: the first screen's pictures, in shots/ beside the report. */
async function shots(
  site: string | undefined,
  mdPath: string,
  seed: number,
  link: string,
  minutes: number,
): Promise<number> {
  const built = site === undefined ? buildSite() : null;
  const server = await serveStatic(site ?? built!.dir, 'seed').catch((err: Error) => {
    built?.cleanup();
    throw new CliError(err.message);
  });
  let browser: Browser | null = null;
  try {
    browser = await launchChromium().catch((err: Error) => {
      throw new CliError(err.message);
    });
    const written = await firstScreenShots(
      browser,
      `${server.url}#seed=${seed}${link ? `&${link}` : ''}`,
      join(dirname(mdPath), 'shots'),
      minutes * 60,
      (line) => process.stderr.write(`${line}\n`),
    );
    for (const shot of written) process.stdout.write(`${portablePath(shot.path)}\n`);
    process.stdout.write(`${portablePath(join(dirname(mdPath), 'shots', SHOTS_SIDECAR))}\n`);
  } finally {
    await browser?.close();
    await server.close();
    built?.cleanup();
  }
  return 0;
}

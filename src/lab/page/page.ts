// `seed bench page`: the page's run as a person sees it, in the world --env names. Builds the site (or takes --site),
// serves it from a sub-path as a static host would, and for each seed opens a fresh browser profile in Debian's
// headless Chromium, waits for the engine and presses Play (page_play.ts), or with --race the Race (page_race.ts),
// reading the page's own live numbers once a second for --minutes. The curves' CSV export then gives every
// evaluation and each update's timings as the page's engine measured them. Writes page.md and page.json (a world's:
// page_<world>.*; the Race's: page_race*.*). With --shots it writes instead the pictures of the first screen
// (page_shots.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../cli/browser/chromium.ts';
import { serveStatic } from '../../cli/browser/static_server.ts';
import { numberOption, parseOptions } from '../../cli/args.ts';
import { CliError } from '../../cli/cli_error.ts';
import { ENV_OPTION } from '../../cli/environment_option.ts';
import { defineCommand } from '../../cli/help.ts';
import { LIMITS } from '../../cli/limits.ts';
import { commitId, portablePath, sourceCommit } from '../../cli/provenance.ts';
import { theWorld } from '../../worlds/facts.ts';
import { DEFAULT_WORLD, ENVIRONMENT_NAMES, namedWorld, type EnvironmentName } from '../../worlds/names.ts';
import { outOption, reportName, reportPath, writeOutput } from '../output.ts';
import { firstScreenShots, SHOTS_SIDECAR } from './page_shots.ts';
import { playSeed, TARGET_RISE, type SeedResult } from './page_play.ts';
import { raceSeed, type RaceResult } from './page_race.ts';
import { playReport, raceReport, type Failed, type ReportSetting } from './page_report.ts';
import type { StageSplit } from './page_figures.ts';

const limits = LIMITS.benchPage;

/** The report's name for a world and a mode: page, page_shop, page_race, page_race_shop. */
function pageReportName(env: EnvironmentName, race: boolean): string {
  return reportName(race ? 'page_race' : 'page', env);
}

const OTHER_WORLDS = ENVIRONMENT_NAMES.filter((name) => namedWorld(name) !== undefined);

export const command = defineCommand({
  name: 'bench page',
  summary: "the page's run in headless Chromium: eval success over time, updates per second, where the time goes",
  description:
    "Builds the site from the current code (or takes --site DIR), serves it from a sub-path, and for each seed opens a fresh browser profile in Debian's " +
    "headless Chromium at the page's defaults (only #seed=S in the link, and the world --env names), presses Play and reads the live numbers once a second for --minutes. " +
    'Reports per seed the backend and threads the page chose, updates per second, the seconds after Play until the first evaluation and the first update showed, ' +
    'the share of updates with a GRPO signal (a group with a win and a loss), the eval curve, and where an update’s time goes stage by stage as the page’s engine timed it; ' +
    `the run reaches its target when the mean of eval-seen and eval-unseen success rises by ${TARGET_RISE} points or more from the ` +
    "warm start's evaluation (update 0) to the last one within the time. Writes page.md and page.json " +
    `(${OTHER_WORLDS.map((w) => `${theWorld(w)}'s: ${pageReportName(w, false)}.*`).join(', ')}). ` +
    'With --race, presses the Race instead (GRPO against the hindsight arm, once the page’s own warm start is evaluated) and reports each arm and the paired evaluations, in page_race.md and page_race.json (a world’s named alike). ' +
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
    env: { ...ENV_OPTION, description: `${ENV_OPTION.description}; the page plays it (env= in the link)` },
    race: {
      type: 'boolean',
      default: false,
      description: "run the page's Race (GRPO against the hindsight arm) instead of Play, for --minutes per seed",
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

/** A stage split as the JSON keeps it. */
function splitJson(s: StageSplit | null) {
  if (!s) return null;
  const round = (x: number) => Number(x.toFixed(2));
  return {
    timed_updates: s.updates,
    update_ms: round(s.updateMs),
    rollout_ms: round(s.stages.rolloutMs),
    rewards_ms: round(s.stages.rewardsMs),
    skills_ms: round(s.stages.skillsMs),
    rescore_ms: round(s.stages.rescoreMs),
    current_pass_ms: round(s.stages.currentPassMs),
    reference_pass_ms: round(s.stages.referencePassMs),
    loss_ms: round(s.stages.lossMs),
    optimizer_ms: round(s.stages.optimizerMs),
    eval_ms_per_update: round(s.evalMsPerUpdate),
    other_ms: round(s.otherMs),
    evaluations: s.evaluations,
    eval_ms_each: s.evalMsEach === null ? null : round(s.evalMsEach),
    warm_start_eval_ms: s.warmStartEvalMs === null ? null : round(s.warmStartEvalMs),
  };
}

function seedJson(r: SeedResult) {
  return {
    seed: r.seed,
    backend: r.backend,
    threads: r.threads,
    cross_origin_isolated: r.crossOriginIsolated,
    updates: r.updates,
    seconds: r.seconds,
    updates_per_second: Number(r.updatesPerSecond.toFixed(3)),
    first_eval_s: r.firstEvalSeconds,
    first_update_s: r.firstUpdateSeconds,
    grpo_signal_share: r.grpoSignalShare,
    rise: r.rise,
    reached: r.reached,
    evals: r.evals,
    stages: splitJson(r.stages),
  };
}

function raceJson(r: RaceResult) {
  return {
    seed: r.seed,
    backend: r.backend,
    threads: r.threads,
    cross_origin_isolated: r.crossOriginIsolated,
    seconds: r.seconds,
    pairs: r.pairs,
    first_pair_s: r.firstPairSeconds,
    mean_difference_unseen: r.meanDifference,
    arms: r.arms.map((a) => ({
      algo: a.algo,
      updates: a.updates,
      updates_per_second: Number(a.updatesPerSecond.toFixed(3)),
      first_eval_s: a.firstEvalSeconds,
      first_update_s: a.firstUpdateSeconds,
      grpo_signal_share: a.grpoSignalShare,
      stages: splitJson(a.stages),
    })),
  };
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, command);
  const minutes = numberOption(values.minutes, 'minutes', limits.minutes);
  const seeds = numberOption(values.seeds, 'seeds', limits.seeds);
  const firstSeed = numberOption(values['first-seed'], 'first-seed', limits['first-seed']);
  const env = (values.env ?? DEFAULT_WORLD) as EnvironmentName;
  const race = values.race === true;
  const given = (values.link ?? '').replace(/^[#&]+/, '');
  if (/(^|&)seed=/.test(given)) throw new CliError('--link sets the seed through --first-seed, not seed=', 2);
  if (/(^|&)env=/.test(given)) throw new CliError('--link sets the world through --env, not env=', 2);
  if (race && values.shots) throw new CliError('--race and --shots are two runs: take one at a time', 2);
  // The default world is the page's default: its link names none, as a person's does.
  const named = namedWorld(env);
  const link = [named === undefined ? '' : `env=${named}`, given].filter((p) => p !== '').join('&');
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
  const played: SeedResult[] = [];
  const raced: RaceResult[] = [];
  const failed: Failed[] = [];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  try {
    browser = await launchChromium().catch((err: Error) => {
      throw new CliError(err.message);
    });
    for (let k = 0; k < seeds; k++) {
      const seed = firstSeed + k;
      const url = `${server.url}#seed=${seed}${link ? `&${link}` : ''}`;
      try {
        if (race) raced.push(await raceSeed(browser, url, seed, minutes * 60, log));
        else played.push(await playSeed(browser, url, seed, minutes * 60, log));
      } catch (err) {
        const error = (err instanceof Error ? err.message : String(err)).split('\n')[0];
        log(`  seed ${seed} failed: ${error}`);
        failed.push({ seed, error });
      }
    }
  } finally {
    await browser?.close();
    await server.close();
    built?.cleanup();
  }
  const name = pageReportName(env, race);
  const setting: ReportSetting = { args, env, link, minutes, machine, commit, jsonName: `${name}.json` };
  const md = race ? raceReport(setting, raced, failed) : playReport(setting, played, failed);
  process.stdout.write(md);
  const json = {
    command: `npm run seed -- bench page ${args.join(' ')}`.trim(),
    commit: commitId(commit),
    site: values.site === undefined ? 'built from the commit' : portablePath(values.site),
    machine,
    env,
    mode: race ? 'race' : 'play',
    minutes,
    link,
    target_rise: TARGET_RISE,
    seeds: race ? raced.map(raceJson) : played.map(seedJson),
    failed,
  };
  const mdPath = reportPath(values.out, `${name}.md`);
  await writeOutput(mdPath, md);
  await writeOutput(join(dirname(mdPath), `${name}.json`), `${JSON.stringify(json, null, 1)}\n`);
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

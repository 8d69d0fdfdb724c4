// Benchmark (not a test): main-thread long tasks while the playground trains. Opens the built site in
// Debian's Chromium, presses Play for a fixed time per configuration, and records every long task (> 50 ms,
// PerformanceObserver 'longtask') and the gaps between animation frames on the page's main thread. Writes
// bench/ui.md.
//
//   npx vite build && node scripts/with-webgpu-env.mjs npx tsx e2e/bench_ui.ts [seconds per configuration]
//
// To find what the main thread spends its time on: `--profile DIR` records a CPU profile of each
// configuration's training window (DIR/<n>.cpuprofile, which DevTools opens) and prints its busiest functions,
// with a trace of the same window (DIR/<n>.trace.json) summed by kind of work (tasks, script, style, layout,
// paint) in wall time and in the main thread's CPU time, which other work on the machine does not inflate;
// `--only TEXT` runs the configurations whose name holds TEXT; `--site DIR` serves another build, such as one
// made with `npx vite build --minify false --outDir DIR`, where the page's functions keep their names, and
// `--site DIR,DIR2` compares builds side by side, each configuration on one build after the other. A run
// with any of these prints its table without writing bench/ui.md (a profiler slows the page it measures).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../src/cli/browser/chromium.ts';
import { serveStatic } from '../src/cli/browser/static_server.ts';
import { commitText, sourceCommit } from '../src/cli/provenance.ts';
import { defaultSettings, formatHash, type Settings } from '../src/rl/page_settings.ts';
import { profileSummary, traceSummary, type CpuProfile } from './main_thread_profile.ts';

interface Row {
  name: string;
  backend: string;
  updates: number;
  seconds: number;
  longTasks: number;
  longTaskMs: number;
  maxLongTaskMs: number;
  frames: number;
  p95FrameGapMs: number;
  maxFrameGapMs: number;
  loadLongTasks: number;
  loadMaxMs: number;
}

function option(name: string): string | null {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? null) : null;
}

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const seconds = Number(positional[0] ?? 20);
const profileDir = option('--profile');
const only = option('--only');
const siteDirs = (option('--site') ?? fileURLToPath(new URL('../dist', import.meta.url))).split(',');
const writesReport = profileDir === null && only === null && option('--site') === null;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const allConfigurations: { name: string; settings: Settings }[] = [
  { name: 'micro, CPU backend (auto)', settings: { ...defaultSettings('micro'), evalEvery: 5 } },
  {
    name: 'micro, WebGPU backend (SwiftShader)',
    settings: { ...defaultSettings('micro'), backend: 'webgpu', evalEvery: 5 },
  },
  { name: 'tiny, the page default (CPU backend, auto)', settings: defaultSettings('tiny') },
];
const configurations = allConfigurations.filter((c) => only === null || c.name.includes(only));

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const sites = await Promise.all(siteDirs.map((dir) => serveStatic(dir, '/seed/')));
const browser = await launchChromium();
const rows: Row[] = [];
const loadBefore = loadavg()[0];
try {
  for (const [n, { name: configuration, settings }] of configurations.flatMap((c) =>
    sites.map((_, i) => [i, c] as const),
  )) {
    const site = sites[n];
    const name = sites.length > 1 ? `${configuration} [${siteDirs[n]}]` : configuration;
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // A string, not a function: the TypeScript runner would wrap named functions in a helper the page lacks.
    await context.addInitScript(`
      window.__long = [];
      window.__frames = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
      requestAnimationFrame(function frame(t) {
        window.__frames.push(t);
        requestAnimationFrame(frame);
      });
    `);
    const page = await context.newPage();
    await page.goto(site.url + formatHash(settings));
    await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor({ timeout: 120_000 });
    const backend = (await page.getByTestId('backend-kind').textContent()) ?? '?';
    const profiler = profileDir ? await context.newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.start');
      await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
    }
    const playAt = await page.evaluate(() => performance.now());
    await page.getByTestId('play').click();
    await page.waitForTimeout(seconds * 1000);
    const stopAt = await page.evaluate(() => performance.now());
    if (profiler && profileDir) {
      const trace = await browser.stopTracing();
      const { profile } = (await profiler.send('Profiler.stop')) as { profile: CpuProfile };
      const file = `${profileDir}/${allConfigurations.findIndex((c) => c.name === configuration)}${sites.length > 1 ? `-${n}` : ''}`;
      writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
      writeFileSync(`${file}.trace.json`, trace);
      console.error(
        `${name}: ${file}.cpuprofile\n${profileSummary(profile)}\n${traceSummary(JSON.parse(trace.toString()))}`,
      );
    }
    await page.getByTestId('pause').click();
    await page.locator('[data-testid="engine-state"][data-state="ready"]').waitFor({ timeout: 120_000 });
    const data = await page.evaluate(() => {
      const w = window as unknown as { __long: { start: number; duration: number }[]; __frames: number[] };
      return { long: w.__long, frames: w.__frames };
    });
    const updates = Number(await page.getByTestId('curves').getAttribute('data-points'));
    const during = data.long.filter((l) => l.start >= playAt && l.start <= stopAt);
    const loading = data.long.filter((l) => l.start < playAt);
    const frames = data.frames.filter((t) => t >= playAt && t <= stopAt);
    const gaps = frames.slice(1).map((t, i) => t - frames[i]);
    rows.push({
      name,
      backend,
      updates,
      seconds,
      longTasks: during.length,
      longTaskMs: during.reduce((n, l) => n + l.duration, 0),
      maxLongTaskMs: during.reduce((m, l) => Math.max(m, l.duration), 0),
      frames: frames.length,
      p95FrameGapMs: percentile(gaps, 0.95),
      maxFrameGapMs: gaps.reduce((m, g) => Math.max(m, g), 0),
      loadLongTasks: loading.length,
      loadMaxMs: loading.reduce((m, l) => Math.max(m, l.duration), 0),
    });
    console.error(`${name}: ${updates} updates, ${during.length} long tasks`);
    await context.close();
  }
} finally {
  await browser.close();
  await Promise.all(sites.map((site) => site.close()));
}

const commit = commitText(sourceCommit());
const loadAfter = loadavg()[0];
const f = (x: number) => x.toFixed(0);
const table = [
  '| configuration | backend | updates | long tasks while training | their total ms | longest ms | frames | p95 frame gap ms | longest frame gap ms | long tasks while loading | longest ms |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.backend} | ${r.updates} in ${r.seconds} s | ${r.longTasks} | ${f(r.longTaskMs)} | ${f(r.maxLongTaskMs)} | ${r.frames} | ${f(r.p95FrameGapMs)} | ${f(r.maxFrameGapMs)} | ${r.loadLongTasks} | ${f(r.loadMaxMs)} |`,
  ),
].join('\n');
const report = `# Main-thread long tasks while the playground trains

Training runs in a dedicated Web Worker; the page's main thread only renders the events it sends (each
finished trajectory, each stage's snapshot, each update's metrics). This benchmark presses Play in headless
Chromium (SwiftShader WebGPU, 2 shared cores) for ${seconds} s per configuration and records, on the main
thread, every long task (> 50 ms, PerformanceObserver "longtask") and the gaps between animation frames.

Measured at commit ${commit}, ${new Date().toISOString().slice(0, 10)}, with a 1-minute load average of
${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the run (other work shared the 2 cores), with

    npx vite build && node scripts/with-webgpu-env.mjs npx tsx e2e/bench_ui.ts ${seconds}

${table}

Reading it: a long task blocks input for its duration; a frame gap above ~50 ms is a visible stutter. Headless
Chromium paces animation frames itself, and the 2 cores are shared by the worker's training, SwiftShader
and the page, so the frame gaps here are an upper bound for a desktop browser.
`;
if (writesReport) writeFileSync(fileURLToPath(new URL('../bench/ui.md', import.meta.url)), report);
console.log(table);

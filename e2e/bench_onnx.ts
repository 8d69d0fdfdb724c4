// Benchmark (not a test): the playground's WebGPU forward against onnxruntime-web's WebGPU execution
// provider (and its WebAssembly backend) on the same exported model and token ids, in one page of Debian's
// headless Chromium. Builds the benchmark page (e2e/bench_onnx/) with Vite into a temporary folder, serves
// it from its own origin, and writes bench/onnx_browser.md.
//
//   node scripts/with-webgpu-env.mjs npx tsx e2e/bench_onnx.ts [reps] [cases]
//   (defaults: 3 reps; cases micro:1x64,micro:1x256,micro:4x64,micro:4x256,tiny:1x64,tiny:1x256, i.e.
//   preset:batch x sequence length; software WebGPU makes larger shapes take minutes)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { launchChromium, CHROMIUM_ARGS } from '../src/cli/browser/chromium.ts';
import { serveStatic } from '../src/cli/browser/static_server.ts';
import { commitLine, sourceCommit } from '../src/cli/provenance.ts';
import { isPresetName } from '../src/model/config.ts';
import type { BenchCase, BenchResult, BenchRow } from './bench_onnx/main.ts';

const DEFAULT_CASES = 'micro:1x64,micro:1x256,micro:4x64,micro:4x256,tiny:1x64,tiny:1x256';
const reps = Number(process.argv[2] ?? 3);
const caseText = process.argv[3] ?? DEFAULT_CASES;
if (!(Number.isInteger(reps) && reps >= 1)) throw new Error(`reps must be a positive integer, got ${process.argv[2]}`);
const cases: BenchCase[] = caseText.split(',').map((text) => {
  const m = /^([a-z]+):(\d+)x(\d+)$/.exec(text.trim());
  if (!m || !isPresetName(m[1]) || Number(m[2]) < 1 || Number(m[3]) < 1)
    throw new Error(`a case is preset:BATCHxSEQ (e.g. tiny:1x64), got "${text}"`);
  return { preset: m[1], batch: Number(m[2]), seqLen: Number(m[3]) };
});

const root = fileURLToPath(new URL('./bench_onnx/', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'seed-bench-onnx-'));
const load = loadavg()[0];
try {
  await build({
    root,
    base: './',
    logLevel: 'warn',
    configFile: false,
    build: { outDir, emptyOutDir: true, target: 'es2022' },
    worker: { format: 'es' },
  });
  const site = await serveStatic(outDir, '/bench/');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const warnings: string[] = [];
    page.on('console', (m) => {
      // onnxruntime's own log lines carry a timestamp; without it, repeats collapse into one line.
      const text = m
        .text()
        // biome-ignore lint/suspicious/noControlCharactersInRegex: it strips the terminal's colour escapes
        .replace(/\u001b\[[0-9;]*m/g, '')
        .replace(/^\d{4}-\d\d-\d\d [\d:.]+ /, '');
      if ((m.type() === 'error' || m.type() === 'warning') && !warnings.includes(text)) warnings.push(text);
    });
    await page.goto(site.url);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, {
      timeout: 60_000,
    });
    const result: BenchResult = await page.evaluate(({ cases, reps }) => window.benchOnnx(cases, reps), {
      cases,
      reps,
    });
    const origin = new URL(site.url).origin;
    const foreign = requests.filter(
      (u) => !u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:'),
    );
    const report = formatReport(result, browser.version(), foreign, warnings);
    writeFileSync(fileURLToPath(new URL('../bench/onnx_browser.md', import.meta.url)), report);
    process.stdout.write(report);
  } finally {
    await browser.close();
    await site.close();
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

function ms(x: number | null): string {
  return x === null ? 'n/a' : x.toFixed(2);
}

function diff(x: number | null): string {
  return x === null ? 'n/a' : Number.isNaN(x) ? 'not finite' : x.toExponential(1);
}

function ratio(a: number, b: number | null): string {
  return b === null ? 'n/a' : (a / b).toFixed(2);
}

function formatReport(r: BenchResult, chromium: string, foreign: string[], warnings: string[]): string {
  const lines = [
    '# ONNX benchmark in the browser: our WebGPU forward vs onnxruntime-web (WebGPU EP and wasm)',
    '',
    'Command: `node scripts/with-webgpu-env.mjs npx tsx e2e/bench_onnx.ts' +
      (reps === 3 && caseText === DEFAULT_CASES ? '' : ` ${reps} ${caseText}`) +
      '`',
    commitLine(sourceCommit()),
    '',
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} logical cores, 1-minute load average ${load.toFixed(2)} at the start); headless Chromium ${chromium} (${CHROMIUM_ARGS.join(' ')}).`,
    `WebGPU adapter: ${r.adapter}. onnxruntime-web ${r.ortVersion} (the WebGPU build, \`onnxruntime-web/webgpu\`), wasm on 1 thread (cross-origin isolated: ${r.crossOriginIsolated}).`,
    '',
    'Same page, same exported model (trained-like weights, seed 1) and the same random token ids for all three. "ours" is',
    '`WebGpuBackend.score` with every position scored: the forward, the tied head on every row, the masked log-softmax',
    '(all tokens allowed) and the gather of one log-prob per position, read back (batch x seq floats). onnxruntime-web',
    'returns the logits of every position (batch x seq x vocab floats, read back). Times: best of ' +
      `${reps}` +
      ' rounds that run',
    'the three one after another, after a warm-up run of each. "ORT / ours" above 1 means our forward is faster. The diff',
    'columns compare with the CPU forward: log-probs for ours, logits for onnxruntime-web.',
    '',
  ];
  lines.push(
    r.ortWebGpuError === null
      ? `onnxruntime-web's WebGPU execution provider ran, on a device of its own from the adapter ${r.ortAdapter ?? 'it did not name'}.`
      : `onnxruntime-web's WebGPU execution provider did not run on this adapter: ${r.ortWebGpuError}`,
    '',
    '| preset | batch | seq | ours WebGPU ms | ORT WebGPU ms | ORT wasm ms | ORT WebGPU / ours | ORT wasm / ours | ours diff | ORT WebGPU diff | ORT wasm diff |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const row of r.rows as BenchRow[]) {
    lines.push(
      `| ${row.preset} | ${row.batch} | ${row.seqLen} | ${ms(row.oursMs)} | ${ms(row.ortWebGpuMs)} | ${ms(row.ortWasmMs)} | ${ratio(row.ortWebGpuMs ?? NaN, row.ortWebGpuMs === null ? null : row.oursMs)} | ${ratio(row.ortWasmMs, row.oursMs)} | ${diff(row.oursDiff)} | ${diff(row.ortWebGpuDiff)} | ${diff(row.ortWasmDiff)} |`,
    );
  }
  const rows = r.rows as BenchRow[];
  const summary = (name: string, pick: (row: BenchRow) => number | null) => {
    const ratios = rows.flatMap((row) => (pick(row) === null ? [] : [pick(row)! / row.oursMs]));
    if (ratios.length === 0) return `- ${name} / ours: not measured`;
    const geo = Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length);
    return `- ${name} / ours time: geometric mean ${geo.toFixed(2)} over ${ratios.length} shapes (from ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`;
  };
  lines.push(
    '',
    summary('ORT WebGPU', (row) => row.ortWebGpuMs),
    summary('ORT wasm', (row) => row.ortWasmMs),
  );
  lines.push(
    '',
    'A software adapter (SwiftShader) runs WGSL on the CPU cores, slowly: these times rank the two WebGPU programs on',
    'this adapter only and say little about a hardware GPU. Without cross-origin isolation the page clock ticks in',
    '0.1 ms steps, so times near 1 ms are coarse.',
  );
  lines.push('', `Requests outside the page's origin: ${foreign.length === 0 ? 'none' : foreign.join(', ')}.`);
  if (warnings.length > 0) {
    lines.push(
      '',
      'Console warnings and errors of the page (each once):',
      '',
      ...warnings.slice(0, 20).map((w) => `- \`${w.replace(/`/g, "'").slice(0, 400)}\``),
    );
  }
  return `${lines.join('\n')}\n`;
}

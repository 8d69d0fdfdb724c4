// The playground in a real Chromium, micro preset: training live, the heatmap's numbers against an
// independent CPU recomputation, skills beside their own transcripts, the six stages, the URL, saved runs,
// bad checkpoints, and nothing fetched from another origin. Screenshots of every view go to test-results/.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseLossProblem } from '../src/backend/loss_json.ts';
import { seedLoss } from '../src/backend/cpu/seed_loss.ts';
import { readCheckpoint, writeCheckpoint } from '../src/model/checkpoint.ts';
import { Rng } from '../src/common/rng.ts';
import { DEFAULT_SETTINGS, defaultSettings, formatHash, parseHash } from '../src/rl/page_settings.ts';
import { launchChromium } from '../src/cli/browser/chromium.ts';
import { chromiumForSuite } from './suite_browser.ts';
import {
  FAST,
  SCREENSHOTS,
  curvePoints,
  downloadBytes,
  downloadText,
  engineReady,
  firstRollout,
  foreignRequests,
  fullPageShot,
  openPlayground,
  readTranscripts,
} from './page.ts';
import { STAGES, expectExampleMarked, expectForcedToggle, expectPictureAt } from './stage_picture.ts';

function close(a: number, b: number, abs: number, rel: number): boolean {
  return Math.abs(a - b) <= abs + rel * Math.abs(b);
}

async function shot(page: Page, name: string, testId?: string): Promise<void> {
  if (testId) await page.getByTestId(testId).screenshot({ path: `${SCREENSHOTS}/${name}.png` });
  else await fullPageShot(page, `${SCREENSHOTS}/${name}.png`);
}

/** Per trajectory shown in the episode list: the heatmap's numbers, and the skill card beside its transcript. */
function readEpisodes(page: Page) {
  return readTranscripts(page, async (transcript) => ({
    index: Number(await transcript.getAttribute('data-index')),
    tokens: await transcript.locator('.tok').evaluateAll((els) =>
      els.map((el) => ({
        delta: Number(el.getAttribute('data-delta')),
        gate: Number(el.getAttribute('data-gate')),
        coef: Number(el.getAttribute('data-coef')),
        forced: el.getAttribute('data-forced') === 'true',
        coloured: (el as HTMLElement).style.background !== '',
      })),
    ),
    commands: await transcript.locator('[data-testid="transcript-step"] .command').evaluateAll((els) =>
      els.map((el) =>
        Array.from(el.querySelectorAll('.tok'), (t) => t.textContent ?? '')
          .filter((t) => t !== '<end>')
          .join(' '),
      ),
    ),
    goal: await transcript.getByTestId('transcript-goal').textContent(),
    outcome: await transcript.getByTestId('transcript-outcome').textContent(),
    skillCardIndex: Number(await page.getByTestId('skill-card').getAttribute('data-index')),
    skillOutcome: await page.getByTestId('skill-outcome').textContent(),
    prompt: await page.getByTestId('skill-prompt').textContent(),
  }));
}

/**
 * Exports the last update's per-token table as loss JSON, recomputes it with the CPU reference, and checks
 * every token of every trajectory on the heatmap against it; checks each skill card belongs to its transcript.
 */
async function expectHeatmapEqualsRecomputation(page: Page, settings: typeof FAST): Promise<void> {
  const { name, text } = await downloadText(page, 'export-loss-json');
  expect(name).toMatch(/^seed-tokens-update-\d+-stage-5\.json$/);
  const problem = parseLossProblem(text);
  expect(problem.hyper).toEqual({
    lambda: settings.lambda,
    beta: settings.beta,
    clip: settings.clip,
    klCoef: settings.klCoef,
    gate: true,
  });
  const recomputed = seedLoss(problem.lStudent, problem.inputs, problem.hyper);

  const episodes = await readEpisodes(page);
  expect(episodes.length).toBe(settings.groupSize * settings.tasksPerUpdate);
  let k = 0;
  for (const e of episodes.sort((a, b) => a.index - b.index)) {
    for (const t of e.tokens) {
      expect(close(t.delta, recomputed.delta[k], 1e-6, 1e-5)).toBe(true);
      expect(close(t.gate, recomputed.gate[k], 1e-6, 1e-5)).toBe(true);
      expect(close(t.coef, recomputed.coef[k], 1e-7, 1e-4)).toBe(true);
      // A forced token (the decoding mask allowed it alone) has Delta 0 and shows no colour; the others do.
      if (t.forced) expect(Math.abs(t.delta)).toBeLessThan(1e-6);
      expect(t.coloured).toBe(!t.forced);
      k++;
    }
    // The skill card beside a transcript is that trajectory's: same index, the outcome it was told, and an
    // analyzer prompt made of this task and these commands.
    expect(e.skillCardIndex).toBe(e.index);
    expect(e.skillOutcome?.includes(e.outcome === 'success' ? 'success' : 'failure')).toBe(true);
    expect(e.prompt).toContain(e.outcome === 'success' ? '<outcome> success' : '<outcome> failure');
    expect(e.prompt).toContain(e.goal!.replace(/\.$/, ''));
    for (const c of e.commands) expect(e.prompt).toContain(c);
  }
  expect(k).toBe(problem.lStudent.length);
  const tokens = episodes.flatMap((e) => e.tokens);
  expect(tokens.some((t) => t.forced)).toBe(true);
  expect(tokens.some((t) => !t.forced)).toBe(true);
}

describe('playground', () => {
  const chromium = chromiumForSuite();

  it('shows the first rollout without a click, trains, and its heatmap equals a CPU recomputation of the exported batch', async () => {
    const opened = await openPlayground(chromium.browser, formatHash(FAST));
    const { page, problems } = opened;
    await firstRollout(page);
    expect(await curvePoints(page)).toBe(0);
    await engineReady(page);
    await shot(page, 'e2e-playground-loaded');
    expect(await page.getByTestId('backend-kind').textContent()).toBe('CPU');
    expect(await page.getByTestId('backend-reason').textContent()).toContain('software');

    await page.getByTestId('play').click();
    await expect.poll(() => curvePoints(page)).toBeGreaterThanOrEqual(2);
    await page.getByTestId('pause').click();
    await engineReady(page);
    // Finish the update that Pause interrupted, so the heatmap and the table show one complete update.
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBeGreaterThanOrEqual(3);
    expect(
      Number(await page.getByTestId('chart-success-unseen').getAttribute('data-live-series')),
    ).toBeGreaterThanOrEqual(2);
    await shot(page, 'e2e-playground-curves', 'curves');

    await expectHeatmapEqualsRecomputation(page, FAST);

    // Exact numbers on focus, and the legend of the colour scale.
    await page.locator('[data-testid="transcript"] .tok').first().focus();
    await expect.poll(() => page.locator('[data-testid="token-detail"] dd[data-name="gate"]').count()).toBe(1);
    await page.getByTestId('colour-by').selectOption('coef');
    await shot(page, 'e2e-playground-episode', 'episodes');
    await page.getByTestId('filter').selectOption('failure');
    const failures = await page
      .getByTestId('trajectory-pick')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-won')));
    expect(failures.every((w) => w === 'false')).toBe(true);

    // A row per update, and the warm start's evaluation (update 0). The worker's events travel on their own
    // port and may land after Step has answered: the CSV and the chart are compared once both have every point.
    await expect
      .poll(async () => {
        const csv = await downloadText(page, 'export-csv');
        return (
          csv.text
            .trimEnd()
            .split('\n')
            .filter((row) => row.startsWith('live,')).length -
          ((await curvePoints(page)) + 1)
        );
      })
      .toBe(0);
    const png = await downloadBytes(page, 'export-png');
    expect(Array.from(png.bytes.subarray(1, 4), (b) => String.fromCharCode(b)).join('')).toBe('PNG');

    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('steps through one update: the picture lights each stage, every stage shows numbers, and the step changes the parameters', async () => {
    const opened = await openPlayground(chromium.browser, formatHash(FAST));
    const { page, problems } = opened;
    await engineReady(page);
    // Weights moved away from the reference policy: the KL term then has a gradient whatever the rewards are.
    const exported = await downloadBytes(page, 'export-checkpoint');
    const ck = readCheckpoint(exported.bytes);
    const rng = new Rng(11);
    const moved = writeCheckpoint({ ...ck, params: ck.params.map((x) => x + 0.05 * rng.normal()) });
    await page
      .getByTestId('import-checkpoint')
      .setInputFiles({ name: 'moved.ckpt', mimeType: 'application/octet-stream', buffer: Buffer.from(moved) });
    await expect.poll(() => page.getByTestId('checkpoint-message').getAttribute('data-ok')).toBe('true');
    await engineReady(page);

    for (const stage of STAGES) {
      await page.getByTestId('stage-next').click();
      await page.locator(`[data-testid="stages"][data-stage="${stage}"]`).waitFor();
      await engineReady(page);
      await expectPictureAt(page, stage);
      await expectExampleMarked(page, stage);
      if (stage === 'rescore' || stage === 'loss') await expectForcedToggle(page, stage === 'rescore');
      const table = page.locator('[data-testid="stages"] [data-testid="stage-table"]');
      const cells = await table.locator('td, dd').allTextContents();
      expect(cells.length).toBeGreaterThan(0);
      expect(cells.some((c) => /\d/.test(c))).toBe(true);
      await shot(page, `e2e-stage-${STAGES.indexOf(stage) + 1}-${stage}`, 'stages');
    }
    const rms = Number(await page.getByTestId('step-rms-change').textContent());
    expect(rms).toBeGreaterThan(0);
    const changes = await page.getByTestId('param-change').count();
    expect(changes).toBeGreaterThan(0);
    expect(Number(await page.getByTestId('step-gradnorm').textContent())).toBeGreaterThan(0);
    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('keeps every setting in the URL and reproduces it after a reload', async () => {
    const settings = { ...FAST, lambda: 0.75, beta: 3, seed: 42, lr: 0.002 };
    const { page, problems } = await openPlayground(chromium.browser, formatHash(settings));
    await engineReady(page);
    expect(await page.locator('input[data-setting="lambda"]').inputValue()).toBe('0.75');
    expect(await page.locator('input[data-setting="seed"]').inputValue()).toBe('42');
    const lambda = page.locator('input[data-setting="lambda"]');
    await lambda.fill('0.5');
    await lambda.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(formatHash({ ...settings, lambda: 0.5 }));
    await page.reload();
    await engineReady(page);
    expect(await page.locator('input[data-setting="lambda"]').inputValue()).toBe('0.5');
    const hash = await page.evaluate(() => location.hash);
    expect(parseHash(hash)).toMatchObject({ settings: { ...settings, lambda: 0.5 }, notices: [] });
    // An out-of-range edit is refused in place and never reaches the URL.
    await lambda.fill('-4');
    await lambda.press('Enter');
    expect(await lambda.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => location.hash)).toBe(hash);
    await page.getByTestId('paper-values').click();
    await expect.poll(() => page.locator('input[data-setting="lambda"]').inputValue()).toBe('0.01');
    expect(await page.locator('select[data-setting="decoding"]').inputValue()).toBe('free');
    await shot(page, 'e2e-controls-paper-values');
    expect(problems).toEqual([]);
  });

  it('falls back per setting with a visible notice on a garbage hash', async () => {
    const { page, problems } = await openPlayground(
      chromium.browser,
      '#lambda=abc&beta=-3&group=2.5&algo=ppo&zzz=1&%E0%A4%A&preset=huge',
    );
    await firstRollout(page);
    const keys = await page
      .getByTestId('hash-notice')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
    expect(keys).toEqual(['%E0%A4%A', 'lambda', 'beta', 'group', 'algo', 'zzz', 'preset']);
    expect(await page.locator('input[data-setting="lambda"]').inputValue()).toBe(String(DEFAULT_SETTINGS.lambda));
    expect(await page.locator('select[data-setting="algo"]').inputValue()).toBe('seed');
    await shot(page, 'e2e-garbage-hash');
    expect(problems).toEqual([]);
  });

  it("keeps the first of two presets in the link, with that preset's defaults", async () => {
    const { page, problems } = await openPlayground(chromium.browser, '#preset=micro&preset=tiny');
    await engineReady(page);
    const notices = await page
      .getByTestId('hash-notice')
      .evaluateAll((els) => els.map((el) => [el.getAttribute('data-key'), el.textContent]));
    expect(notices).toEqual([['preset', 'preset=tiny appears twice; the first value is kept']]);
    expect(await page.locator('select[data-setting="preset"]').inputValue()).toBe('micro');
    expect(await page.locator('input[data-setting="group"]').inputValue()).toBe(
      String(defaultSettings('micro').groupSize),
    );
    expect(parseHash(await page.evaluate(() => location.hash))).toMatchObject({
      settings: defaultSettings('micro'),
      notices: [],
    });
    expect(problems).toEqual([]);
  });

  it('offers to resume a saved run after a reload, and resumes it', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => page.getByTestId('autosave').textContent()).toContain('last saved at update 1');
    await page.reload();
    const offer = page.getByTestId('resume-offer');
    await offer.waitFor();
    expect(await offer.getAttribute('data-updates')).toBe('1');
    await shot(page, 'e2e-resume-offer');
    await engineReady(page);
    await page.getByTestId('resume').click();
    await expect.poll(() => page.getByTestId('backend').textContent()).toContain('the run saved at update 1');
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(2);
    expect(problems).toEqual([]);
  });

  it('refuses a corrupt checkpoint with a clear message and goes on training', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    const good = await downloadBytes(page, 'export-checkpoint');
    const corrupt = good.bytes.slice();
    corrupt[corrupt.length >> 1] ^= 0x5a;
    const input = page.getByTestId('import-checkpoint');
    await input.setInputFiles({
      name: 'corrupt.ckpt',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(corrupt),
    });
    await expect.poll(() => page.getByTestId('checkpoint-message').textContent()).toContain('checksum mismatch');
    expect(await page.getByTestId('checkpoint-message').getAttribute('data-ok')).toBe('false');
    await input.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a checkpoint at all'),
    });
    await expect.poll(() => page.getByTestId('checkpoint-message').textContent()).toContain('not a SEED checkpoint');
    await shot(page, 'e2e-corrupt-checkpoint', 'checkpoints');
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    expect(problems).toEqual([]);
  });

  it('trains on the WebGPU backend when asked, with the same per-token numbers as the CPU reference', async () => {
    const settings = { ...FAST, backend: 'webgpu' as const };
    const opened = await openPlayground(chromium.browser, formatHash(settings));
    const { page, problems } = opened;
    await firstRollout(page);
    await engineReady(page);
    expect(await page.getByTestId('backend-kind').textContent()).toBe('WebGPU');
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(1);
    await expectHeatmapEqualsRecomputation(page, settings);
    await shot(page, 'e2e-webgpu-backend');
    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('draws SEED and GRPO on the same axes when both run', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash({ ...FAST, algo: 'both' }));
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await expect.poll(() => curvePoints(page)).toBe(2);
    const series = (await page.getByTestId('chart-success-seen').getAttribute('data-series'))!.split('|');
    expect(series).toContain('live SEED eval-seen (smoothed)');
    expect(series).toContain('live GRPO eval-seen (smoothed)');
    // "Now" names the run it shows as every sentence names an arm.
    expect(await page.locator('#live-title small').textContent()).toBe('the SEED run');
    // The training rollouts join the eval chart only when asked; a legend chip hides its series.
    expect(series.some((s) => s.includes('train rollouts'))).toBe(false);
    await page.getByTestId('show-train').check();
    await expect
      .poll(async () =>
        (await page.getByTestId('chart-success-seen').getAttribute('data-series'))!.includes(
          'live SEED train rollouts',
        ),
      )
      .toBe(true);
    const chip = page.locator(
      '[data-testid="chart-success-seen"] [data-testid="series-chip"][data-label="live GRPO eval-seen (smoothed)"]',
    );
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('view-run').inputValue()).toBe('seed');
    await page.getByTestId('view-run').selectOption('grpo');
    await page.locator('[data-testid="trajectory-pick"]').first().waitFor();
    await shot(page, 'e2e-both-runs');
    expect(problems).toEqual([]);
  });

  it('explains the fall back to the CPU when the browser gives no WebGPU, and trains there', async () => {
    const plain = await launchChromium({ webgpu: false });
    try {
      const opened = await openPlayground(plain, formatHash({ ...FAST, backend: 'webgpu' }));
      const { page, problems } = opened;
      await firstRollout(page);
      await engineReady(page);
      expect(await page.getByTestId('backend-kind').textContent()).toBe('CPU');
      expect(await page.getByTestId('backend').textContent()).toContain('instead of the requested WebGPU');
      const banner = page.getByTestId('backend-fallback');
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/To enable WebGPU: .*--enable-unsafe-webgpu/);
      await page.getByTestId('step-update').click();
      await engineReady(page);
      await expect.poll(() => curvePoints(page)).toBe(1);
      await shot(page, 'e2e-cpu-fallback', 'backend');
      expect(foreignRequests(opened)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('is usable from the keyboard, and every control has a label', async () => {
    const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST));
    await engineReady(page);
    const unlabelled = await page.locator('input, select, button').evaluateAll((els) =>
      els
        .filter((el) => {
          const e = el as HTMLInputElement;
          const text =
            (e.labels?.length ?? 0) > 0 ||
            e.getAttribute('aria-label') ||
            (el.tagName === 'BUTTON' && el.textContent?.trim());
          return !text;
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);
    // Tab to "Step one update" and press Enter.
    let focused = '';
    for (let i = 0; i < 20 && focused !== 'step-update'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    }
    expect(focused).toBe('step-update');
    await page.keyboard.press('Enter');
    await expect.poll(() => curvePoints(page)).toBe(1);
    // A transcript token takes the focus and shows its numbers.
    await page.locator('[data-testid="transcript"] .tok').first().focus();
    await expect.poll(() => page.locator('[data-testid="token-detail"] dd[data-name="coef"]').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('lays out on a laptop screen and a narrow one', async () => {
    for (const [w, h] of [
      [1280, 800],
      [760, 1000],
    ]) {
      const { page, problems } = await openPlayground(chromium.browser, formatHash(FAST), { width: w, height: h });
      await firstRollout(page);
      await engineReady(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, `e2e-layout-${w}`);
      expect(problems).toEqual([]);
    }
  });
});

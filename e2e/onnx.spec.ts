// ONNX in the page, micro preset: export the run's policy, which onnxruntime-web (WebAssembly, served from
// the site) verifies against the CPU forward before the download appears; the downloaded file holds exactly
// the run's weights; loaded into the run view it plays the same greedy episode as the CPU forward in Node;
// a file that is not ONNX, a damaged one of ours, or one whose graph was changed, gets a clear message;
// nothing leaves the origin. A shop run exports in the shop's vocabulary, and its file plays a shop game.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { environmentOf } from '../src/worlds/environments.ts';
import { EVAL_SEED } from '../src/env/environment.ts';
import { generateScene } from '../src/worlds/household/env/splits.ts';
import { householdEnvironment } from '../src/worlds/household/env/environment.ts';
import { TINY } from '../src/worlds/household/env/scale.ts';
import { readCheckpoint } from '../src/model/checkpoint.ts';
import { cpuLogits } from '../src/onnx/cpu_logits.ts';
import { readPolicyOnnx } from '../src/onnx/load.ts';
import { decodeModel, encodeModel } from '../src/onnx/proto.ts';
import { LOGITS_TOLERANCE } from '../src/onnx/verify.ts';
import { defaultTokenizer, tokenizerOf } from '../src/text/tokenizer.ts';
import { playGreedy } from '../src/onnx/greedy_episode.ts';
import { playSettingsOf } from '../src/worker/onnx_run.ts';
import { defaultSettings, formatHash, type Settings } from '../src/rl/page_settings.ts';
import { chromiumForSuite } from './suite_browser.ts';
import { FAST, SCREENSHOTS, downloadBytes, engineReady, foreignRequests, openPlayground } from './page.ts';

const MICRO = defaultSettings('micro');
/** The shop's micro defaults (a window of the last steps), cut to FAST's short games. */
const SHOP: Settings = {
  ...defaultSettings('micro', 'shop'),
  groupSize: FAST.groupSize,
  tasksPerUpdate: FAST.tasksPerUpdate,
  maxSteps: FAST.maxSteps,
  evalEvery: 1,
  evalEpisodes: 2,
  checkpointEvery: 1,
};

async function loadFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page
    .getByTestId('onnx-file')
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
}

/** Plays one eval game in the run view of the loaded file; the commands as the transcript shows them. */
async function playInRunView(page: Page, game: number, maxSteps: number): Promise<string[]> {
  await page.getByTestId('onnx-game').fill(String(game));
  await page.getByTestId('onnx-max-steps').fill(String(maxSteps));
  await page.getByTestId('onnx-play').click();
  await page.locator('[data-testid="onnx-transcript"][data-state="done"]').waitFor();
  return page.locator('[data-testid="onnx-step"] .command').allTextContents();
}

describe('ONNX export and run in the page', () => {
  const chromium = chromiumForSuite();

  it('verifies before offering the file, which holds the run weights and plays the CPU forward greedy episode', async () => {
    const opened = await openPlayground(chromium.browser, formatHash(MICRO));
    const { page, problems } = opened;
    await engineReady(page);
    // Trained weights, not the initial ones: one update first.
    await page.getByTestId('step-update').click();
    await engineReady(page);
    const panel = page.getByTestId('onnx-export-panel');
    expect(await panel.getByTestId('onnx-download').count()).toBe(0);
    expect(await panel.getByTestId('onnx-export-status').textContent()).toContain('once the check has passed');

    await page.getByTestId('onnx-export').click();
    await page.locator('[data-testid="onnx-export-status"][data-state="verified"]').waitFor();
    const verified = page.getByTestId('onnx-verified');
    const maxDiff = Number(await verified.getAttribute('data-max-diff'));
    expect(maxDiff).toBeGreaterThanOrEqual(0);
    expect(maxDiff).toBeLessThanOrEqual(LOGITS_TOLERANCE);
    // Random sequences (batch 1 and 3, lengths 1, 16, 64) and expert episodes: at least 10 cases.
    expect(Number(await verified.getAttribute('data-cases'))).toBeGreaterThanOrEqual(10);
    expect(await page.locator('[data-testid="onnx-cases"] tr[data-ok="false"]').count()).toBe(0);
    await panel.screenshot({ path: `${SCREENSHOTS}/e2e-onnx-export.png` });

    const onnx = await downloadBytes(page, 'onnx-download');
    expect(onnx.name).toMatch(/^seed-policy-[a-z0-9_-]+-u\d+-d16x2\.onnx$/);
    const policy = readPolicyOnnx(onnx.bytes);
    const tok = defaultTokenizer();
    expect(policy.vocabularyHash).toBe(tok.hash);
    expect(policy.config.dModel).toBe(16);
    expect(policy.card.updates).toBe(1);
    expect(policy.card.algorithm).toBe(MICRO.algo === 'grpo' ? 'grpo' : 'seed');
    // The run has not trained since: the file's weights are the checkpoint's, bit for bit.
    const ckpt = readCheckpoint((await downloadBytes(page, 'export-checkpoint')).bytes, { vocabHash: tok.hash });
    expect(policy.params.length).toBe(ckpt.params.length);
    expect(Buffer.from(policy.params.buffer).equals(Buffer.from(ckpt.params.buffer))).toBe(true);

    await loadFile(page, onnx.name, onnx.bytes);
    await page.locator('[data-testid="onnx-policy"]').waitFor();
    // The run view starts from how the run played: max steps and history from the training card.
    const played = playSettingsOf(policy.card, 'household');
    expect(played).toEqual({
      maxSteps: MICRO.maxSteps,
      history: MICRO.history >= MICRO.maxSteps ? Infinity : MICRO.history,
      maxCommandTokens: 12,
      // The micro card's defaults: the skill block after the task line, and no skill slot.
      skillAfterPage: false,
      skillSlot: 0,
      fromCard: true,
    });
    expect(await page.getByTestId('onnx-max-steps').inputValue()).toBe(String(MICRO.maxSteps));
    expect(await page.getByTestId('onnx-context').textContent()).toContain('as the training run played');
    const maxSteps = 6;
    const game = 3;
    const actions = await playInRunView(page, game, maxSteps);
    await page.getByTestId('onnx-run-panel').screenshot({ path: `${SCREENSHOTS}/e2e-onnx-run.png` });

    const scene = generateScene('seen', game, TINY, EVAL_SEED);
    const reference = await playGreedy(
      cpuLogits(policy.config, policy.params),
      tok,
      policy.config.contextLength,
      householdEnvironment(),
      scene,
      { maxSteps, history: played.history, maxCommandTokens: played.maxCommandTokens },
    );
    expect(actions).toEqual(reference.steps.map((s) => `> ${s.action}`));
    expect(await page.getByTestId('onnx-outcome').getAttribute('data-won')).toBe(String(reference.won));
    expect(await page.getByTestId('onnx-goal').textContent()).toContain(scene.task.goal);

    // Not ONNX at all, then one of ours with one weight byte changed.
    await loadFile(page, 'notes.onnx', new TextEncoder().encode('these are not the weights you are looking for'));
    const error = page.getByTestId('onnx-file-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Not a policy this page can run: not an ONNX model/);
    expect(await page.getByTestId('onnx-play').count()).toBe(0);
    const damaged = onnx.bytes.slice();
    damaged[damaged.length >> 1] ^= 0x01;
    await loadFile(page, 'damaged.onnx', damaged);
    await expect.poll(() => error.textContent()).toMatch(/damaged\.onnx.*(damaged|checksum)/);
    // Metadata and weights intact, the graph changed: negated logits (a Neg after the output head) are refused
    // with the node that differs.
    const negated = decodeModel(onnx.bytes);
    const nodes = negated.graph!.node!;
    const head = nodes.findIndex((n) => n.name === 'logits/MatMul');
    nodes[head].output = ['logits_raw'];
    nodes.push({ op_type: 'Neg', input: ['logits_raw'], output: ['logits'] });
    await loadFile(page, 'negated.onnx', encodeModel(negated));
    await expect
      .poll(() => error.textContent())
      .toMatch(/negated\.onnx.*graph node \d+ \(MatMul logits\/MatMul\): output 0 is "logits_raw", expected "logits"/);
    expect(await page.getByTestId('onnx-play').count()).toBe(0);

    // The runtime and its WebAssembly came from the site itself.
    expect(opened.requests.some((url) => url.endsWith('.wasm'))).toBe(true);
    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("exports a shop run in the shop's vocabulary, and its file plays a shop game shown as pages", async () => {
    const opened = await openPlayground(chromium.browser, formatHash(SHOP));
    const { page, problems } = opened;
    await engineReady(page);
    await page.getByTestId('step-update').click();
    await engineReady(page);
    await page.getByTestId('onnx-export').click();
    await page.locator('[data-testid="onnx-export-status"][data-state="verified"]').waitFor();
    expect(await page.locator('[data-testid="onnx-cases"] tr[data-ok="false"]').count()).toBe(0);
    const onnx = await downloadBytes(page, 'onnx-download');
    expect(onnx.name).toMatch(/^seed-policy-shop-[a-z0-9_-]+-u1-d16x2\.onnx$/);
    const policy = readPolicyOnnx(onnx.bytes);
    const shop = environmentOf('shop');
    const tok = tokenizerOf(shop);
    expect(policy.vocabularyHash).toBe(tok.hash);
    expect(policy.card.extra).toMatchObject({ env: 'shop', scale: 'tiny' });

    await loadFile(page, onnx.name, onnx.bytes);
    const facts = page.locator('[data-testid="onnx-policy"]');
    await facts.waitFor();
    expect(await facts.getAttribute('data-world')).toBe('shop');
    const played = playSettingsOf(policy.card, 'shop');
    expect(played).toMatchObject({ maxSteps: SHOP.maxSteps, history: SHOP.history, fromCard: true });
    const game = 1;
    const maxSteps = 3;
    const actions = await playInRunView(page, game, maxSteps);
    // Every observation is a shop page read into its parts, as in the episode view.
    expect(await page.locator('[data-testid="onnx-step"] [data-testid="shop-page"]').count()).toBe(actions.length);
    await page.getByTestId('onnx-run-panel').screenshot({ path: `${SCREENSHOTS}/e2e-onnx-run-shop.png` });

    const scene = shop.sceneOf('seen', game, EVAL_SEED);
    const reference = await playGreedy(
      cpuLogits(policy.config, policy.params),
      tok,
      policy.config.contextLength,
      shop,
      scene,
      { maxSteps, history: played.history, maxCommandTokens: played.maxCommandTokens },
    );
    expect(actions).toEqual(reference.steps.map((s) => `> ${s.action}`));
    expect(actions[0]).toMatch(/^> search\[[^\]]+\]$/);
    expect(await page.getByTestId('onnx-goal').textContent()).toContain(shop.goal(scene));
    expect(foreignRequests(opened)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

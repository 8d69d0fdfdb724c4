import { describe, expect, it } from 'vitest';
import { skillSlotLength } from '../text/prompts.ts';
import { writeCheckpoint } from '../model/checkpoint.ts';
import { readPolicyOnnx } from '../onnx/load.ts';
import { exportPolicyOnnx } from '../onnx/export.ts';
import { decodeModel, encodeModel } from '../onnx/proto.ts';
import { testPolicy } from '../onnx/testing/fixtures.ts';
import { LOGITS_TOLERANCE } from '../onnx/verify.ts';
import { environmentOf } from '../worlds/environments.ts';
import { factsOf } from '../worlds/facts.ts';
import { EVAL_SEED } from '../env/environment.ts';
import { cpuLogits } from '../onnx/cpu_logits.ts';
import { playGreedy } from '../onnx/greedy_episode.ts';
import { defaultTokenizer, Tokenizer, tokenizerOf } from '../text/tokenizer.ts';
import { exportCheckpointOnnx, onnxFilename } from './onnx_export.ts';
import { defaultPlay, openPolicyFile, playEvalGame, playSettingsOf, PolicyFileError } from './onnx_run.ts';
import { pageThreads } from './onnx_threads.ts';

const tok = defaultTokenizer();
const shop = environmentOf('shop');
const shopTok = tokenizerOf(shop);

describe("the page's ONNX export", () => {
  it('exports a checkpoint only with a passed check, the weights and card kept', async () => {
    const policy = testPolicy('micro', 2);
    const ckpt = writeCheckpoint({
      config: policy.config,
      vocabHash: tok.hash,
      params: policy.params,
      optimizer: null,
      metadata: { algorithm: 'seed', updates: 7, seed: 3, preset: 'micro' },
    });
    const result = await exportCheckpointOnnx(ckpt);
    expect(result.report.ok).toBe(true);
    expect(result.report.maxAbsDiff).toBeLessThanOrEqual(LOGITS_TOLERANCE);
    expect(result.report.cases.length).toBeGreaterThanOrEqual(10);
    expect(result.threads).toBe(1);
    const back = readPolicyOnnx(result.bytes);
    expect(Array.from(back.params)).toEqual(Array.from(policy.params));
    expect(back.card).toEqual({ algorithm: 'seed', updates: 7, seed: 3, success: {}, extra: { preset: 'micro' } });
    expect(onnxFilename(result.card, result.config)).toBe('seed-policy-seed-u7-d16x2.onnx');
    expect(onnxFilename({ ...result.card, algorithm: 'SEED / no gate' }, result.config)).toBe(
      'seed-policy-seed-no-gate-u7-d16x2.onnx',
    );
  });

  it('refuses bytes that are not a checkpoint of this vocabulary, saying why', async () => {
    await expect(exportCheckpointOnnx(new TextEncoder().encode('hello'))).rejects.toThrow(
      "the run's checkpoint could not be read: not a SEED checkpoint",
    );
    const policy = testPolicy('micro', 2);
    const other = writeCheckpoint({
      config: policy.config,
      vocabHash: '00000000',
      params: policy.params,
      optimizer: null,
      metadata: {},
    });
    await expect(exportCheckpointOnnx(other)).rejects.toThrow(/the run's checkpoint could not be read: .*vocabulary/);
    // A run of the shop is read in the shop's vocabulary, and one that names no world of this build is refused.
    const shopRun = writeCheckpoint({
      config: policy.config,
      vocabHash: tok.hash,
      params: policy.params,
      optimizer: null,
      metadata: { stage: 'rl', env: 'shop', scale: 'tiny' },
    });
    await expect(exportCheckpointOnnx(shopRun)).rejects.toThrow(
      new RegExp(`the run's checkpoint could not be read: .*vocabulary ${tok.hash}.*${shopTok.hash}`),
    );
    const elsewhere = writeCheckpoint({
      config: policy.config,
      vocabHash: tok.hash,
      params: policy.params,
      optimizer: null,
      metadata: { env: 'garden' },
    });
    await expect(exportCheckpointOnnx(elsewhere)).rejects.toThrow(
      'the run\'s checkpoint names the world "garden", which this page does not know',
    );
    const scaled = writeCheckpoint({
      config: policy.config,
      vocabHash: shopTok.hash,
      params: policy.params,
      optimizer: null,
      metadata: { env: 'shop', scale: 'huge' },
    });
    await expect(exportCheckpointOnnx(scaled)).rejects.toThrow(
      'the run\'s checkpoint names the shop\'s scale "huge", which this page does not know',
    );
  });

  it("exports a shop run in the shop's vocabulary, checked on the shop's expert episodes", async () => {
    const policy = testPolicy('micro', 6, shopTok);
    const ckpt = writeCheckpoint({
      config: policy.config,
      vocabHash: shopTok.hash,
      params: policy.params,
      optimizer: null,
      metadata: { stage: 'rl', algo: 'grpo', env: 'shop', scale: 'tiny', updates: 2 },
    });
    const result = await exportCheckpointOnnx(ckpt);
    expect(result.report.ok).toBe(true);
    expect(result.report.cases.filter((c) => c.label.startsWith('episode')).length).toBeGreaterThanOrEqual(4);
    const back = readPolicyOnnx(result.bytes);
    expect(back.vocabularyHash).toBe(shopTok.hash);
    expect(back.vocabulary).toEqual(shopTok.tokens);
    expect(back.card.extra).toEqual({ stage: 'rl', env: 'shop', scale: 'tiny' });
    expect(onnxFilename(result.card, result.config)).toBe('seed-policy-shop-grpo-u2-d16x2.onnx');
  });

  it('runs one WebAssembly thread when the page is not cross-origin isolated', () => {
    expect(globalThis.crossOriginIsolated).toBeFalsy();
    expect(pageThreads()).toBe(1);
  });
});

describe("the page's run view", () => {
  it('opens one of our files and plays an eval game with it', async () => {
    const policy = testPolicy('micro', 1);
    const opened = await openPolicyFile(exportPolicyOnnx(policy));
    try {
      expect(opened.tokenizer.hash).toBe(tok.hash);
      expect(opened.env.name).toBe('household');
      expect(opened.policy.card.updates).toBe(12);
      const episode = await playEvalGame(opened, { split: 'unseen', game: 2, maxSteps: 4, history: 2 });
      expect(episode.steps).toHaveLength(4);
      expect(episode.goal.length).toBeGreaterThan(5);
    } finally {
      await opened.session.release();
    }
  });

  it("starts from how the run played, as its card's config says; defaults otherwise", () => {
    const card = { algorithm: 'seed', updates: 1, seed: 1, success: {} };
    const config = (c: object) => ({ ...card, extra: { config: JSON.stringify(c) } });
    const plain = { skillAfterPage: false, skillSlot: 0 };
    expect(playSettingsOf(config({ maxSteps: 15, history: 5, maxCommandTokens: 10, lr: 1 }), 'household')).toEqual({
      maxSteps: 15,
      history: 5,
      maxCommandTokens: 10,
      ...plain,
      fromCard: true,
    });
    expect(playSettingsOf(config({ maxSteps: 8, history: 8, maxCommandTokens: 12 }), 'household')).toEqual({
      maxSteps: 8,
      history: Infinity,
      maxCommandTokens: 12,
      ...plain,
      fromCard: true,
    });
    // A run with a skill slot played every context with it, at the length its maxSkillTokens gives.
    const slotted = {
      maxSteps: 8,
      history: 2,
      maxCommandTokens: 12,
      skillAfterPage: 1,
      skillSlot: 1,
      maxSkillTokens: 40,
    };
    expect(playSettingsOf(config(slotted), 'household')).toMatchObject({
      skillAfterPage: true,
      skillSlot: skillSlotLength({ skillSlot: 1, maxSkillTokens: 40 }),
    });
    expect(playSettingsOf(config({ ...slotted, skillSlot: 0 }), 'household').skillSlot).toBe(0);
    const household = { maxSteps: 15, history: Infinity, maxCommandTokens: 12, ...plain, fromCard: false };
    expect(defaultPlay('household')).toEqual(household);
    expect(playSettingsOf(card, 'household')).toEqual(household);
    expect(playSettingsOf({ ...card, extra: { config: '{not json' } }, 'household')).toEqual(household);
    expect(playSettingsOf(config({ maxSteps: 0, history: 5, maxCommandTokens: 10 }), 'household')).toEqual(household);
    expect(playSettingsOf(config({ maxSteps: 15, history: 2.5, maxCommandTokens: 10 }), 'household')).toEqual(
      household,
    );
    // A shop file without its run's config plays as a shop run does by default: a window of the last two steps,
    // the skill block's place after the page.
    expect(playSettingsOf(card, 'shop')).toEqual({
      maxSteps: 10,
      history: 2,
      maxCommandTokens: 16,
      skillAfterPage: true,
      skillSlot: 0,
      fromCard: false,
    });
  });

  it("refuses a policy whose card names a scale its world does not have, naming the world's scales", async () => {
    const policy = testPolicy('micro', 3, shopTok);
    const huge = { ...policy, card: { ...policy.card, extra: { ...policy.card.extra, scale: 'huge' } } };
    await expect(openPolicyFile(exportPolicyOnnx(huge))).rejects.toThrow(
      new PolicyFileError(
        `The policy's card names the shop's scale "huge", which this page does not know (${factsOf('shop').variants.join(', ')}).`,
      ),
    );
  });

  it("knows a shop policy by its vocabulary and plays the shop's eval game as the CPU forward does", async () => {
    const policy = testPolicy('micro', 3, shopTok);
    const opened = await openPolicyFile(exportPolicyOnnx(policy));
    try {
      expect(opened.env.name).toBe('shop');
      const request = { split: 'seen' as const, game: 5, maxSteps: 4, history: 2 };
      const episode = await playEvalGame(opened, request);
      const scene = shop.sceneOf('seen', 5, EVAL_SEED);
      const reference = await playGreedy(
        cpuLogits(policy.config, policy.params),
        shopTok,
        policy.config.contextLength,
        shop,
        scene,
        { maxSteps: 4, history: 2, maxCommandTokens: playSettingsOf(policy.card, 'shop').maxCommandTokens },
      );
      expect(episode.goal).toBe(shop.goal(scene));
      expect(episode.steps.map((s) => s.action)).toEqual(reference.steps.map((s) => s.action));
      expect(episode.steps.length).toBeGreaterThan(0);
      await expect(playEvalGame(opened, { ...request, game: shop.evalCounts.seen })).rejects.toThrow(
        `eval-seen has games 0 to ${shop.evalCounts.seen - 1}, not ${shop.evalCounts.seen}`,
      );
    } finally {
      await opened.session.release();
    }
  });

  it('refuses other files with the reason: not ONNX, ONNX but not ours, damaged, foreign vocabulary', async () => {
    const refusal = async (bytes: Uint8Array) => {
      const err = await openPolicyFile(bytes).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(PolicyFileError);
      return (err as Error).message;
    };
    const ours = exportPolicyOnnx(testPolicy('micro', 1));
    expect(await refusal(new Uint8Array(0))).toBe('Not a policy this page can run: the file is empty.');
    expect(await refusal(new TextEncoder().encode('{"not": "onnx"}'))).toMatch(
      /^Not a policy this page can run: not an ONNX model: /,
    );
    const model = decodeModel(ours);
    const bare = encodeModel({ ...model, metadata_props: [] });
    expect(await refusal(bare)).toMatch(
      /^Not a policy this page can run: not a SEED Playground policy: the model has no "seed_playground\.format" metadata entry/,
    );
    const damaged = ours.slice();
    damaged[damaged.length >> 1] ^= 1;
    expect(await refusal(damaged)).toMatch(/damaged/);
    // A changed graph (the checksum covers metadata and weights only): named node by node.
    const edited = decodeModel(ours);
    const ln = edited.graph!.node!.find((n) => n.name === 'lnf.out/LayerNormalization')!;
    ln.attribute = ln.attribute!.map((a) => (a.name === 'epsilon' ? { ...a, f: 10 } : a));
    expect(await refusal(encodeModel(edited))).toMatch(
      /^Not a policy this page can run: graph node \d+ \(LayerNormalization lnf\.out\/LayerNormalization\): attribute epsilon is 10, expected 0\.00001\.$/,
    );
    // A model config of 2^20 layers in a small file: the loader's size refusal (src/onnx/load.test.ts holds that
    // it comes before any layout is built), passed on as it is.
    const deep = {
      ...model,
      metadata_props: model.metadata_props!.map((p) =>
        p.key === 'seed_playground.model_config'
          ? { ...p, value: JSON.stringify({ ...JSON.parse(p.value), nLayer: 1 << 20 }) }
          : p,
      ),
    };
    expect(await refusal(encodeModel(deep))).toMatch(
      /^Not a policy this page can run: the model config declares 1048576 layers/,
    );
    const reversed = [...tok.tokens].reverse();
    const foreign = exportPolicyOnnx({ ...testPolicy('micro', 1), vocabulary: reversed, vocabularyHash: tok.hash });
    expect(await refusal(foreign)).toMatch(/^The policy's vocabulary hashes to [0-9a-f]{8}, but the file says/);
    // A vocabulary true to its hash that no world speaks: no game to play.
    const unknown = exportPolicyOnnx({
      ...testPolicy('micro', 1),
      vocabulary: reversed,
      vocabularyHash: new Tokenizer(reversed).hash,
    });
    expect(await refusal(unknown)).toMatch(
      /^The policy's vocabulary \([0-9a-f]{8}\) is not that of a world this page plays \(household, shop, searchqa\)\.$/,
    );
  });
});

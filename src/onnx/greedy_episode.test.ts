import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../backend/cpu/cpu_backend.ts';
import { Rng } from '../common/rng.ts';
import { EVAL_SEED } from '../env/environment.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import { TINY } from '../worlds/household/env/scale.ts';
import { cpuLogits } from './cpu_logits.ts';
import { exportPolicyOnnx } from './export.ts';
import { OnnxPolicySession } from './runtime.ts';
import { testPolicy } from './testing/fixtures.ts';
import { rollout } from '../rl/rollout.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { greedyToken, playGreedy } from './greedy_episode.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { environmentOf } from '../worlds/environments.ts';
import { tokenizerOf } from '../text/tokenizer.ts';

const tok = defaultTokenizer();
const household = householdEnvironment();
const OPTIONS = { maxSteps: 6, maxCommandTokens: 12 };
const scenes = [0, 1, 2].map((i) => generateScene('seen', i, TINY, EVAL_SEED));

describe('greedy episode of an exported policy', () => {
  it('greedy picks the largest allowed logit, the lowest id on a tie, and ignores the others', () => {
    const logits = Float32Array.from([9, 1, 3, 3, 8]);
    expect(greedyToken(logits, [1, 2, 3])).toBe(2);
    expect(greedyToken(logits, [1, 3])).toBe(3);
    expect(greedyToken(logits, [1])).toBe(1);
    expect(greedyToken(logits, [1, 2, 3, 4])).toBe(4);
  });

  it('plays the same commands, with the same log-probs, as the rollout at temperature 0 (KV-cached decoder)', async () => {
    const policy = testPolicy('micro', 3);
    const backend = new CpuBackend(policy.config, policy.params);
    const trajectories = await rollout(
      household,
      backend,
      tok,
      scenes,
      scenes.map((_, i) => i),
      { ...OPTIONS, history: OPTIONS.maxSteps, temperature: 0, constrained: true, maxSkillTokens: 32 },
      new Rng(1),
    );
    const forward = cpuLogits(policy.config, policy.params);
    const distinct = new Set<string>();
    for (const [i, scene] of scenes.entries()) {
      const t = trajectories[i];
      const played = await playGreedy(forward, tok, policy.config.contextLength, household, scene, OPTIONS);
      expect(played.steps.map((s) => s.action)).toEqual(t.records.slice(1).map((r) => r.action));
      expect(played.steps.map((s) => s.observation)).toEqual(t.records.slice(1).map((r) => r.observation));
      expect(played.won).toBe(t.won);
      expect(played.windowed).toBe(false);
      // The rollout's l_old per command token, summed per step: the masked log-prob of the command.
      const perStep = new Float64Array(played.steps.length);
      t.tokenStep.forEach((step, k) => {
        perStep[step] += t.lOld[k];
      });
      played.steps.forEach((s, k) => {
        expect(Math.abs(s.logprob - perStep[k])).toBeLessThan(1e-4);
      });
      expect(played.forwards).toBeGreaterThan(0);
      expect(played.forwards).toBeLessThan(t.lOld.length);
      for (const s of played.steps) distinct.add(s.action);
    }
    // A policy that said one thing everywhere would make the comparison weak.
    expect(distinct.size).toBeGreaterThan(6);
  });

  for (const [name, slot] of [
    ['', {}],
    [', with a skill slot after the page', { skillSlot: 16 + 32, skillAfterPage: true }],
  ] as const)
    it(`with a history window, plays the same commands as the windowed rollout at temperature 0${name}`, async () => {
      const policy = testPolicy('micro', 1);
      const backend = new CpuBackend(policy.config, policy.params);
      const options = { maxSteps: 7, maxCommandTokens: 12, history: 2, ...slot };
      const trajectories = await rollout(
        household,
        backend,
        tok,
        scenes,
        scenes.map((_, i) => i),
        { ...options, temperature: 0, constrained: true, maxSkillTokens: 32 },
        new Rng(1),
      );
      const forward = cpuLogits(policy.config, policy.params);
      for (const [i, scene] of scenes.entries()) {
        expect(trajectories[i].layout).toBe('window');
        const played = await playGreedy(forward, tok, policy.config.contextLength, household, scene, options);
        expect(played.steps.map((s) => s.action)).toEqual(trajectories[i].records.slice(1).map((r) => r.action));
        // Each step's context is the rollout's windowed sequence without its command.
        played.steps.forEach((s, t) => {
          expect(s.contextTokens).toBe(trajectories[i].sequences[t].positions[0]);
        });
        expect(played.windowed).toBe(true);
      }
    });

  it('plays the shop as the windowed rollout does at temperature 0, its free-text searches included', async () => {
    const shop = environmentOf('shop');
    const shopTok = tokenizerOf(shop);
    const policy = testPolicy('micro', 2, shopTok);
    const backend = new CpuBackend(policy.config, policy.params);
    const games = [0, 1, 2, 3].map((i) => shop.sceneOf('seen', i, EVAL_SEED));
    const options = { maxSteps: 5, maxCommandTokens: 16, history: 2 };
    const trajectories = await rollout(
      shop,
      backend,
      shopTok,
      games,
      games.map((_, i) => i),
      { ...options, temperature: 0, constrained: true, maxSkillTokens: 56 },
      new Rng(1),
    );
    const forward = cpuLogits(policy.config, policy.params);
    const searches: string[] = [];
    for (const [i, scene] of games.entries()) {
      const played = await playGreedy(forward, shopTok, policy.config.contextLength, shop, scene, options);
      expect(played.goal).toBe(shop.goal(scene));
      expect(played.steps.map((s) => s.action)).toEqual(trajectories[i].records.slice(1).map((r) => r.action));
      played.steps.forEach((s, t) => {
        expect(s.contextTokens).toBe(trajectories[i].sequences[t].positions[0]);
      });
      expect(played.won).toBe(trajectories[i].won);
      searches.push(...played.steps.map((s) => s.action).filter((a) => a.startsWith('search[')));
    }
    // The first page takes only a search: the free text was written, token by token, by the policy.
    expect(searches.length).toBeGreaterThanOrEqual(games.length);
  });

  it('onnxruntime-web running the exported file plays the same episode as the CPU forward', async () => {
    const policy = testPolicy('micro', 4);
    const bytes = exportPolicyOnnx(policy);
    const session = await OnnxPolicySession.create(bytes, { config: policy.config });
    try {
      const onnx = await playGreedy(
        (ids, b, t) => session.logits(ids, b, t),
        tok,
        policy.config.contextLength,
        household,
        scenes[1],
        OPTIONS,
      );
      const cpu = await playGreedy(
        cpuLogits(policy.config, policy.params),
        tok,
        policy.config.contextLength,
        household,
        scenes[1],
        OPTIONS,
      );
      expect(onnx.steps.map((s) => s.action)).toEqual(cpu.steps.map((s) => s.action));
      onnx.steps.forEach((s, k) => {
        expect(Math.abs(s.logprob - cpu.steps[k].logprob)).toBeLessThan(1e-4);
      });
      expect(onnx.steps.length).toBe(OPTIONS.maxSteps);
    } finally {
      await session.release();
    }
  });

  it('a short context drops the oldest steps and says so; logits that are not finite stop the episode', async () => {
    const policy = testPolicy('micro', 5);
    const forward = cpuLogits(policy.config, policy.params);
    const played = await playGreedy(forward, tok, 96, household, scenes[0], { maxSteps: 8, maxCommandTokens: 12 });
    expect(played.steps.length).toBe(8);
    expect(played.windowed).toBe(true);
    expect(Math.max(...played.steps.map((s) => s.contextTokens))).toBeLessThanOrEqual(96 - 13);
    const broken = (ids: Int32Array) => new Float32Array(ids.length * tok.vocabSize).fill(NaN);
    await expect(playGreedy(broken, tok, 512, household, scenes[0], OPTIONS)).rejects.toThrow(/not finite at step 1/);
  });
});

import { describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import { PRESETS, type PresetName } from '../model/config.ts';
import { cpuLogits } from './cpu_logits.ts';
import { exportPolicyOnnx } from './export.ts';
import { readPolicyOnnx } from './load.ts';
import {
  CARD_KEY,
  CONFIG_KEY,
  FORMAT_KEY,
  OnnxPolicyError,
  VOCABULARY_HASH_KEY,
  VOCABULARY_KEY,
  CRC_KEY,
} from './metadata.ts';
import { checkOnnxModel } from './onnx_checker.ts';
import { householdEnvironment } from '../worlds/household/env/environment.ts';
import { expertEpisodeSequences } from './episodes.ts';
import { testPolicy } from './testing/fixtures.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { referenceLogits } from './testing/reference_forward.ts';
import { OnnxVerificationError } from './verified_export.ts';
import { describeFailures, LOGITS_TOLERANCE, maxAbsDiff, randomCases, sequenceCases, verifyOnnx } from './verify.ts';

// Sequence lengths per preset: up to the full context for the smallest model, short for the larger ones.
const SEQ_LENS: Partial<Record<PresetName, number[]>> = {
  micro: [1, 5, 17, 64, PRESETS.micro.contextLength],
  tiny: [1, 9, 40],
};

describe.each(Object.keys(PRESETS) as PresetName[])('export of the %s preset', (preset) => {
  const policy = testPolicy(preset, 7);
  const bytes = exportPolicyOnnx(policy);

  it('passes the ONNX checker with full shape inference, logits [batch, sequence, vocab]', () => {
    const result = checkOnnxModel(bytes);
    expect(result.outputs).toEqual({ logits: ['batch', 'sequence', policy.config.vocabSize] });
    expect(result.valueInfos).toBeGreaterThan(20 * policy.config.nLayer);
    expect(result.opset).toBe(17);
    expect(result.metadataKeys).toEqual([
      FORMAT_KEY,
      CONFIG_KEY,
      VOCABULARY_KEY,
      VOCABULARY_HASH_KEY,
      CARD_KEY,
      CRC_KEY,
    ]);
  });

  it('runs in onnxruntime-web with the logits of the CPU forward, batch 1 and 3, random and real tokens', async () => {
    const real = expertEpisodeSequences(householdEnvironment(), defaultTokenizer(), 3, policy.config.contextLength);
    expect(Math.min(...real.map((s) => s.length))).toBeGreaterThan(100);
    expect(real.every((s) => !s.includes(defaultTokenizer().unkId))).toBe(true);
    const cases = [
      ...randomCases(policy.config, new Rng(11), { batchSizes: [1, 3], seqLens: SEQ_LENS[preset] ?? [1, 6, 24] }),
      ...sequenceCases(policy.config, real, 3),
    ];
    const report = await verifyOnnx(bytes, cpuLogits(policy.config, policy.params), cases);
    expect(describeFailures(report)).toBe('');
    expect(report.ok).toBe(true);
    expect(report.maxAbsDiff).toBeLessThan(LOGITS_TOLERANCE);
    expect(report.cases.map((c) => c.batch)).toContain(3);
    process.stderr.write(
      `onnx ${preset}: ${cases.length} cases, max |logit diff| ${report.maxAbsDiff.toExponential(2)}\n`,
    );
  });

  it('reads back its metadata and weights with protobufjs: config, vocabulary, card, every float', () => {
    const loaded = readPolicyOnnx(bytes);
    expect(loaded.config).toEqual(policy.config);
    expect(loaded.vocabulary).toEqual(policy.vocabulary);
    expect(loaded.vocabularyHash).toBe(policy.vocabularyHash);
    expect(loaded.card).toEqual(policy.card);
    expect(loaded.opsetVersion).toBe(17);
    expect(Buffer.from(loaded.params.buffer).equals(Buffer.from(policy.params.buffer))).toBe(true);
  });
});

describe('the reference the export is held to', () => {
  it('the CPU forward agrees with an independent float64 forward written from the layout', () => {
    const policy = testPolicy('micro', 3);
    const [c] = randomCases(policy.config, new Rng(5), { batchSizes: [2], seqLens: [21] });
    const cpu = cpuLogits(policy.config, policy.params)(c.ids, c.batch, c.seqLen) as Float32Array;
    const f64 = referenceLogits(policy.config, policy.params, c.ids, c.batch, c.seqLen);
    expect(maxAbsDiff(cpu, f64)).toBeLessThan(1e-5);
    // The weights are not trivial: logits spread over several units.
    expect(Math.max(...cpu) - Math.min(...cpu)).toBeGreaterThan(2);
  });
});

describe('verification fails when the file and the forward disagree', () => {
  const policy = testPolicy('micro', 5);
  const bytes = exportPolicyOnnx(policy);
  const cases = randomCases(policy.config, new Rng(2), { batchSizes: [1, 3], seqLens: [12] });

  it('one weight changed by 0.01 in the reference', async () => {
    const changed = policy.params.slice();
    changed[3] += 0.01; // wte[0][3]
    const report = await verifyOnnx(bytes, cpuLogits(policy.config, changed), cases);
    expect(report.ok).toBe(false);
    expect(report.maxAbsDiff).toBeGreaterThan(1e-3);
    expect(describeFailures(report)).toMatch(/random b1 t12: max \|diff\| .* > 0\.0001/);
    expect(new OnnxVerificationError(report).message).toMatch(
      /^onnxruntime-web's logits differ from the CPU forward: random b1 t12: max/,
    );
  });

  it('a reference that sees the future (no causal mask)', async () => {
    const full = cpuLogits(policy.config, policy.params);
    // Position t of the reversed-suffix reference attends to later tokens of the original sequence.
    const leaky = (ids: Int32Array, batch: number, seqLen: number) => {
      const swapped = ids.slice();
      for (let b = 0; b < batch; b++)
        swapped[b * seqLen + seqLen - 1] = (ids[b * seqLen + seqLen - 1] + 1) % policy.config.vocabSize;
      const a = full(ids, batch, seqLen) as Float32Array;
      const z = full(swapped, batch, seqLen) as Float32Array;
      return a.map((v, i) => (v + z[i]) / 2);
    };
    const report = await verifyOnnx(bytes, leaky, cases);
    expect(report.ok).toBe(false);
  });

  it('non-finite logits never pass', async () => {
    const nan = (_ids: Int32Array, batch: number, seqLen: number) => {
      const out = new Float32Array(batch * seqLen * policy.config.vocabSize);
      out[out.length - 1] = NaN;
      return out;
    };
    const report = await verifyOnnx(bytes, nan, cases.slice(0, 1));
    expect(report.ok).toBe(false);
    expect(Number.isNaN(report.maxAbsDiff)).toBe(true);
    expect(describeFailures(report)).toContain('not finite');
  });
});

describe('export refuses bad weights', () => {
  it('a NaN parameter is named and nothing is written', () => {
    const policy = testPolicy('micro', 1);
    policy.params[200] = NaN;
    expect(() => exportPolicyOnnx(policy)).toThrow(OnnxPolicyError);
    expect(() => exportPolicyOnnx(policy)).toThrow(/parameter wte\[200\] is NaN/);
  });

  it('a buffer that does not fit the config', () => {
    const policy = testPolicy('micro', 1);
    expect(() => exportPolicyOnnx({ ...policy, params: policy.params.subarray(1) })).toThrow(/floats/);
  });
});

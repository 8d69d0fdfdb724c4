import { describe, expect, it } from 'vitest';
import { exportPolicyOnnx } from './export.ts';
import { readPolicyOnnx } from './load.ts';
import { OnnxPolicySession } from './runtime.ts';
import { testPolicy } from './testing/fixtures.ts';
import { maxAbsDiff } from './verify.ts';

describe('running an exported policy', () => {
  it('a loaded file runs with its own config; bad token ids and lengths get a clear message', async () => {
    const bytes = exportPolicyOnnx(testPolicy('micro', 6));
    const { config } = readPolicyOnnx(bytes);
    const session = await OnnxPolicySession.create(bytes, { config });
    try {
      const logits = await session.logits([4, 5, 6, 7, 8, 9], 2, 3);
      expect(logits.length).toBe(2 * 3 * config.vocabSize);
      // Causal: position 0 does not see later tokens; position 1 does see its own token.
      const other = await session.logits([4, 9, 9], 1, 3);
      expect(maxAbsDiff(other.subarray(0, config.vocabSize), logits.subarray(0, config.vocabSize))).toBeLessThan(1e-6);
      expect(
        maxAbsDiff(
          other.subarray(config.vocabSize, 2 * config.vocabSize),
          logits.subarray(config.vocabSize, 2 * config.vocabSize),
        ),
      ).toBeGreaterThan(1e-3);
      await expect(session.logits([1, config.vocabSize], 1, 2)).rejects.toThrow(
        `token id ${config.vocabSize} at position 1 is outside the vocabulary of ${config.vocabSize}`,
      );
      await expect(session.logits([1, -1], 1, 2)).rejects.toThrow(/token id -1 at position 1/);
      const long = new Int32Array(config.contextLength + 1);
      await expect(session.logits(long, 1, long.length)).rejects.toThrow(
        `sequence length ${long.length} exceeds the model's context of ${config.contextLength} tokens`,
      );
      await expect(session.logits([1, 2, 3], 2, 2)).rejects.toThrow('3 token ids do not fill [2, 2]');
    } finally {
      await session.release();
    }
  });
});

// The decoder of the Backend contract (backend.ts, contract.ts) run against both backends, as
// conformance.test.ts runs the rest: the same refusals, in the same words, each leaving every stream as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import type { Backend } from './backend.ts';
import { backendsUnderTest, V, withBackend, words } from './conformance_testing.ts';
import type { GpuRuntime } from './webgpu/runtime.ts';
import { testRuntime } from './webgpu/test_device.ts';

let gpu: GpuRuntime;
beforeAll(async () => {
  gpu = await testRuntime();
});

describe.each(backendsUnderTest(() => gpu))("the $kind backend's decoder keeps the Backend contract", ({ open }) => {
  const all = new Uint32Array(3 * words).fill(0xffffffff);
  const half = Float32Array.of(0.5, 0.5, 0.5);
  const BAD_CALLS: [string, (d: ReturnType<Backend['openDecoder']>) => Promise<unknown>, RegExp][] = [
    ['a stream outside', (d) => d.feed(3, Int32Array.of(1)), /^stream 3 is outside \[0, 3\)$/],
    [
      'a feed past the context',
      (d) => d.feed(0, new Int32Array(30)),
      /^stream 0: 3 \+ 30 tokens exceed the context length 32$/,
    ],
    [
      'a token outside the vocabulary',
      (d) => d.feed(0, Int32Array.of(2, V)),
      /^stream 0: token 40 is outside \[0, 40\)$/,
    ],
    [
      'too few mask words',
      (d) => d.sample(Int32Array.of(0, 1), all.subarray(0, 3), 1, half),
      /^sample: masks hold 3 words, need 4$/,
    ],
    [
      'too few uniforms',
      (d) => d.sample(Int32Array.of(0, 1), all, 1, half.subarray(0, 1)),
      /^sample: 1 uniforms for 2 streams$/,
    ],
    ['a negative temperature', (d) => d.sample(Int32Array.of(0), all, -1, half), /^temperature must be >= 0, got -1$/],
    ['a stream listed twice', (d) => d.sample(Int32Array.of(0, 0), all, 1, half), /^sample: stream 0 is listed twice$/],
    [
      'an empty stream',
      (d) => d.sample(Int32Array.of(2), all, 1, half),
      /^sample: stream 2 is empty; feed it a prompt first$/,
    ],
    [
      'a full stream',
      (d) => d.sample(Int32Array.of(1), all, 1, half),
      /^sample: stream 1 is at the context length 32$/,
    ],
    [
      'a draw of 1',
      (d) => d.sample(Int32Array.of(0), all, 1, Float32Array.of(1)),
      /^uniform draw must be in \[0, 1\), got 1$/,
    ],
    // Bits at or past the vocabulary do not count: 40 tokens fill word 1 up to bit 7.
    [
      'a mask that allows nothing',
      (d) => d.sample(Int32Array.of(0), Uint32Array.of(0, 0xffffff00), 1, half),
      /^cannot sample: the mask allows no token$/,
    ],
  ];

  it.each(BAD_CALLS)('refuses %s and changes no stream', async (_, call, message) => {
    await withBackend(open, 16, async (b) => {
      const d = b.openDecoder(3);
      try {
        await d.feed(0, Int32Array.of(1, 2, 3));
        await d.feed(1, new Int32Array(32).fill(4));
        await expect(call(d)).rejects.toThrow(message);
        expect([d.length(0), d.length(1), d.length(2)]).toEqual([3, 32, 0]);
      } finally {
        d.dispose();
      }
    });
  });

  it('counts fed and sampled tokens, resets a stream, and refuses every call once disposed', async () => {
    await withBackend(open, 17, async (b) => {
      expect(() => b.openDecoder(0)).toThrow(/^decoder needs at least one stream, got 0$/);
      const d = b.openDecoder(2);
      const rng = new Rng(18);
      await d.feed(0, Int32Array.of(1, 2));
      await d.feed(1, Int32Array.of(3));
      await d.feed(0, Int32Array.of(4));
      const masks = Uint32Array.of(0b1010, 0, 0xffffffff, 0xff);
      const got = await d.sample(Int32Array.of(1, 0), masks, 1, Float32Array.of(rng.float(), rng.float()));
      expect([1, 3]).toContain(got.tokens[0]);
      expect(got.tokens[1]).toBeGreaterThanOrEqual(0);
      expect(got.tokens[1]).toBeLessThan(V);
      expect(got.logprobs.every((l) => l <= 0)).toBe(true);
      expect([d.length(0), d.length(1)]).toEqual([4, 2]);
      expect((await d.sample(new Int32Array(0), new Uint32Array(0), 1, new Float32Array(0))).tokens.length).toBe(0);
      d.reset(0);
      expect(d.length(0)).toBe(0);
      d.dispose();
      expect(() => d.length(1)).toThrow(/^decoder was disposed$/);
      await expect(d.feed(1, Int32Array.of(1))).rejects.toThrow(/^decoder was disposed$/);
      await expect(d.sample(Int32Array.of(1), masks, 1, Float32Array.of(0.5))).rejects.toThrow(
        /^decoder was disposed$/,
      );
    });
  });
});

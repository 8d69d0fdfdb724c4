import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { presetConfig, validateConfig, type ModelConfig } from './config.ts';
import { initParameters } from './init.ts';
import {
  checkDeclaredSize,
  checkParameterBytes,
  DeclaredSizeError,
  layoutFloats,
  parameterLayout,
  modelOffsets,
} from './layout.ts';

describe('parameterLayout', () => {
  it('places the micro preset views at 64-float boundaries, in buffer order, without overlap', () => {
    const config = presetConfig('micro', 100);
    const layout = parameterLayout(config);
    // wte 100x16 = 1600 floats -> next view at 1600 (already a multiple of 64); wpe 512x16 = 8192.
    expect(layout.views.wte).toMatchObject({ offset: 0, size: 1600, shape: [100, 16] });
    expect(layout.views.wpe).toMatchObject({ offset: 1600, size: 8192, shape: [512, 16] });
    expect(layout.views['h0.ln1.w']).toMatchObject({ offset: 9792, size: 16 });
    expect(layout.views['h0.ln1.b'].offset).toBe(9856);
    expect(layout.views['h0.attn.qkv.w'].shape).toEqual([48, 16]);
    expect(layout.views['h1.mlp.proj.w'].shape).toEqual([16, 64]);
    let end = 0;
    for (const v of layout.list) {
      expect(v.offset % 64).toBe(0);
      expect(v.offset).toBeGreaterThanOrEqual(end);
      end = v.offset + v.size;
    }
    expect(layout.totalFloats).toBe(Math.ceil(end / 64) * 64);
    expect(layout.list.length).toBe(2 + 12 * 2 + 2);
    const off = modelOffsets(layout, 2);
    expect(off.blocks[1].fcprojb).toBe(layout.views['h1.mlp.proj.b'].offset);
  });

  it('keeps every view aligned for any valid shape', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 3 }),
        (V, heads, L) => {
          const config = validateConfig({
            vocabSize: V,
            contextLength: 33,
            dModel: heads * 3,
            nLayer: L,
            nHead: heads,
            dMlp: 12 * heads,
            lnEps: 1e-5,
          });
          const layout = parameterLayout(config);
          return layout.list.every((v) => v.offset % 64 === 0 && v.offset + v.size <= layout.totalFloats);
        },
      ),
    );
  });

  it('refuses a head count that does not divide the width', () => {
    const bad: ModelConfig = {
      vocabSize: 10,
      contextLength: 8,
      dModel: 10,
      nLayer: 1,
      nHead: 3,
      dMlp: 40,
      lnEps: 1e-5,
    };
    expect(() => validateConfig(bad)).toThrow(/not a multiple of nHead/);
  });
});

describe('initParameters', () => {
  it('is the same bit for bit for the same seed, and different for another seed', () => {
    const config = presetConfig('micro', 50);
    const a = initParameters(config, 7);
    const b = initParameters(config, 7);
    const c = initParameters(config, 8);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(c.buffer))).toBe(false);
  });

  it('sets LayerNorm gains to 1, biases to 0, and weights with the GPT-2 spread', () => {
    const config = presetConfig('tiny', 300);
    const layout = parameterLayout(config);
    const p = initParameters(config, 1, layout);
    const ln = layout.views['h1.ln2.w'];
    expect(Array.from(p.subarray(ln.offset, ln.offset + ln.size)).every((x) => x === 1)).toBe(true);
    const b = layout.views['h0.attn.qkv.b'];
    expect(Array.from(p.subarray(b.offset, b.offset + b.size)).every((x) => x === 0)).toBe(true);
    const w = layout.views.wte;
    let s2 = 0;
    for (let i = 0; i < w.size; i++) s2 += p[w.offset + i] ** 2;
    expect(Math.sqrt(s2 / w.size)).toBeCloseTo(0.02, 3);
    const pr = layout.views['h0.mlp.proj.w'];
    let r2 = 0;
    for (let i = 0; i < pr.size; i++) r2 += p[pr.offset + i] ** 2;
    expect(Math.sqrt(r2 / pr.size)).toBeCloseTo(0.01, 3); // 0.02 / sqrt(2 * 2 layers)
  });
});

describe('layoutFloats and the declared-size check', () => {
  it('gives the layout length without building it, for any shape', () => {
    const shape = fc.record({
      vocabSize: fc.integer({ min: 1, max: 400 }),
      contextLength: fc.integer({ min: 1, max: 300 }),
      heads: fc.integer({ min: 1, max: 4 }),
      headDim: fc.integer({ min: 1, max: 24 }),
      nLayer: fc.integer({ min: 1, max: 5 }),
      dMlp: fc.integer({ min: 1, max: 200 }),
    });
    fc.assert(
      fc.property(shape, (s) => {
        const config: ModelConfig = {
          vocabSize: s.vocabSize,
          contextLength: s.contextLength,
          dModel: s.heads * s.headDim,
          nLayer: s.nLayer,
          nHead: s.heads,
          dMlp: s.dMlp,
          lnEps: 1e-5,
        };
        expect(layoutFloats(config)).toBe(parameterLayout(config).totalFloats);
      }),
      { numRuns: 200 },
    );
  });

  it('weighs a config against a small file without building its layout', () => {
    // 2^40 layers: a layout of 12 * 2^40 views could never be built, so the check passes only by arithmetic.
    const huge: ModelConfig = {
      vocabSize: 1 << 20,
      contextLength: 1 << 20,
      dModel: 1 << 20,
      nLayer: 2 ** 40,
      nHead: 1,
      dMlp: 1 << 20,
      lnEps: 1e-5,
    };
    expect(() => checkParameterBytes(huge, 424)).toThrow(DeclaredSizeError);
    const micro = presetConfig('micro', 100);
    const floats = parameterLayout(micro).totalFloats;
    expect(checkParameterBytes(micro, 4 * floats)).toBe(floats);
    expect(() => checkParameterBytes(micro, 12 * floats - 1, 3)).toThrow(
      `the model config (${floats} parameters x 3) needs ${12 * floats} bytes, the file holds ${12 * floats - 1}`,
    );
    expect(() => checkDeclaredSize('a tensor', NaN, 10)).toThrow(DeclaredSizeError);
  });
});

import { describe, expect, it } from 'vitest';
import { trainingCardFromMetadata } from './card.ts';
import { decodeMetadata, encodeMetadata } from './metadata.ts';

describe('training card from checkpoint metadata', () => {
  it('takes algorithm, updates, seed and success rates, and keeps the rest as extra', () => {
    const card = trainingCardFromMetadata({
      algorithm: 'seed',
      updates: 120,
      seed: 3,
      preset: 'tiny',
      lambda: 0.5,
      success: { 'eval-seen': 0.62, 'eval-unseen': 0.48 },
      curve: [0.1, 0.2],
    });
    expect(card).toEqual({
      algorithm: 'seed',
      updates: 120,
      seed: 3,
      success: { 'eval-seen': 0.62, 'eval-unseen': 0.48 },
      extra: { preset: 'tiny', lambda: 0.5, curve: '[0.1,0.2]' },
    });
  });

  it('a fresh checkpoint is "init" with 0 updates; the optimizer step counts updates when metadata does not', () => {
    expect(trainingCardFromMetadata({ stage: 'rl', algo: 'grpo', updates: 3 })).toEqual({
      algorithm: 'grpo',
      updates: 3,
      seed: 0,
      success: {},
      extra: { stage: 'rl' },
    });
    expect(trainingCardFromMetadata({ algorithm: 'seed', algo: 'grpo', updates: 1 }).algorithm).toBe('seed');
    expect(trainingCardFromMetadata({})).toEqual({ algorithm: 'init', updates: 0, seed: 0, success: {} });
    expect(trainingCardFromMetadata({ seed: 9 }, 40)).toEqual({
      algorithm: 'unknown',
      updates: 40,
      seed: 9,
      success: {},
    });
  });

  it('keeps success figures that are not rates in [0, 1] out of success, as extra', () => {
    const card = trainingCardFromMetadata({ success: { seen: 62, unseen: 0.5, bad: 'x' } });
    expect(card.success).toEqual({ unseen: 0.5 });
    expect(card.extra).toEqual({ 'success.seen': '62', 'success.bad': '"x"' });
  });

  // A checkpoint's metadata is parsed JSON, whose keys may be any text: one named like a member of every object
  // is an entry like another, through the card and the ONNX metadata written from it.
  it('keeps entries named like members of every object, through the ONNX metadata and back', () => {
    const metadata = JSON.parse(
      '{"algo": "seed", "__proto__": {"a": 1}, "constructor": "c", "toString": 2, "success": {"__proto__": 0.5, "valueOf": 7}}',
    );
    const card = trainingCardFromMetadata(metadata);
    expect(Object.entries(card.success)).toEqual([['__proto__', 0.5]]);
    expect(Object.entries(card.extra!)).toEqual([
      ['success.valueOf', '7'],
      ['__proto__', '{"a":1}'],
      ['constructor', 'c'],
      ['toString', 2],
    ]);
    const config = { vocabSize: 2, contextLength: 8, dModel: 8, nLayer: 1, nHead: 1, dMlp: 16, lnEps: 1e-5 };
    const back = decodeMetadata(encodeMetadata({ config, vocabulary: ['a', 'b'], vocabularyHash: 'h', card })).card;
    expect(Object.entries(back.success)).toEqual([['__proto__', 0.5]]);
    expect(Object.entries(back.extra!).sort()).toEqual(Object.entries(card.extra!).sort());
  });
});

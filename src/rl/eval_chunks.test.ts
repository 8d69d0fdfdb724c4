// How an evaluation cuts its games into chunks: EVAL_CHUNK games at a time, and never games of more than
// MAX_SHARED_PER_CHUNK shared resources (the shop's catalogues) at once, so scene files that each name their
// own large catalogue are played a few catalogues at a time.
import { describe, expect, it } from 'vitest';
import { chunkStarts, MAX_SHARED_PER_CHUNK } from './evaluate.ts';

const plain = { sharedResource: undefined };
const keyed = { sharedResource: (s: string) => s };

describe('evaluation chunks', () => {
  it('are 48 games long where games share nothing or one resource (the fixed eval sets)', () => {
    expect(chunkStarts(plain, new Array(134).fill('x'))).toEqual([0, 48, 96]);
    expect(chunkStarts(keyed, new Array(200).fill('catalogue'))).toEqual([0, 48, 96, 144, 192]);
    expect(chunkStarts(keyed, [])).toEqual([]);
  });

  it('hold at most MAX_SHARED_PER_CHUNK resources each, in the scenes order', () => {
    const scenes = Array.from({ length: 24 }, (_, i) => `catalogue ${i}`);
    const starts = chunkStarts(keyed, scenes);
    expect(starts).toEqual([0, 4, 8, 12, 16, 20]);
    const mixed = ['a', 'a', 'b', 'c', 'a', 'd', 'e', 'e', 'a', 'f'];
    const cut = chunkStarts(keyed, mixed);
    expect(cut).toEqual([0, 6]);
    for (const [k, start] of cut.entries()) {
      const chunk = mixed.slice(start, cut[k + 1] ?? mixed.length);
      expect(new Set(chunk).size).toBeLessThanOrEqual(MAX_SHARED_PER_CHUNK);
    }
  });
});

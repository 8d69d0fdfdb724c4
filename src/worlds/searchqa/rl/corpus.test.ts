import { describe, expect, it } from 'vitest';
import { WARMSTART_DEFAULTS, type WarmStartOptions } from '../../../rl/warmstart.ts';
import { SKILL, TASK } from '../../../text/markers.ts';
import { SEARCHQA } from '../env/environment.ts';
import { qaTokenizer } from '../skills/skill_testing.ts';
import { buildQaCorpus } from './corpus.ts';

const tok = qaTokenizer();
const options = (over: Partial<WarmStartOptions> = {}): WarmStartOptions => ({
  ...WARMSTART_DEFAULTS,
  seed: 4,
  episodes: 40,
  maxSteps: 6,
  annotatedSkillTokens: 48,
  focus: [],
  ...over,
});
const isSet = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;

describe('the search-QA warm-start corpus', () => {
  const corpus = buildQaCorpus(SEARCHQA, tok, 512, options());
  const words = Math.ceil(tok.vocabSize / 32);

  it('holds act, follow and analyze examples, each one sequence within the context, every scored token allowed by its mask', () => {
    // An episode whose every command was the noise draw scores nothing and is left out.
    expect(corpus.counts.act).toBeGreaterThan(35);
    expect(corpus.counts.analyze).toBe(40);
    expect(corpus.counts.follow).toBeGreaterThan(30);
    expect(corpus.explorerSuccess).toBeGreaterThan(0.5);
    corpus.sequences.forEach((s, i) => {
      expect(s.ids.length).toBeLessThanOrEqual(512);
      expect(s.masks.length).toBe(s.positions.length * words);
      s.positions.forEach((p, k) => {
        expect(isSet(s.masks.subarray(k * words, (k + 1) * words), s.ids[p]), `${corpus.kinds[i]} ${k}`).toBe(true);
      });
      if (corpus.kinds[i] === 'analyze') return;
      expect(s.ids[0]).toBe(tok.id(TASK));
      expect([...s.ids].includes(tok.id(SKILL))).toBe(corpus.kinds[i] === 'follow');
    });
  });

  it("leaves the explorer's random commands unscored unless asked, and keeps only the kinds asked for", () => {
    const scored = (c: typeof corpus) => c.sequences.reduce((n, s) => n + s.positions.length, 0);
    expect(scored(buildQaCorpus(SEARCHQA, tok, 512, options({ scoreRandom: true })))).toBeGreaterThan(scored(corpus));
    const analyze = buildQaCorpus(SEARCHQA, tok, 512, options({ kinds: ['analyze'] }));
    expect(analyze.counts).toEqual({ act: 0, follow: 0, analyze: 40 });
  });

  it("focuses, with 'read', on the follow examples the skill changed, and with 'analyze' on the analyzer's", () => {
    expect(corpus.focus).toEqual([]);
    const read = buildQaCorpus(SEARCHQA, tok, 512, options({ focus: ['read'] }));
    expect(read.sequences).toEqual(corpus.sequences);
    expect(read.focus!.length).toBeGreaterThan(5);
    for (const i of read.focus!) expect(read.kinds[i]).toBe('follow');
    const analyze = buildQaCorpus(SEARCHQA, tok, 512, options({ focus: ['analyze'] }));
    expect(analyze.focus!.map((i) => analyze.kinds[i])).toEqual(Array(40).fill('analyze'));
  });

  it('is the same corpus from the same seed, another from another', () => {
    expect(buildQaCorpus(SEARCHQA, tok, 512, options()).sequences).toEqual(corpus.sequences);
    expect(buildQaCorpus(SEARCHQA, tok, 512, options({ seed: 5 })).sequences).not.toEqual(corpus.sequences);
  });
});

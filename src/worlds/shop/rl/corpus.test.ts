import { describe, expect, it } from 'vitest';
import { SHOP } from '../env/environment.ts';
import { ACT, OBS, SKILL, TASK } from '../../../text/markers.ts';
import { tokenizerOf } from '../../../text/tokenizer.ts';
import { buildShopCorpus } from './corpus.ts';
import { EXAMPLE_KINDS, WARMSTART_DEFAULTS } from '../../../rl/warmstart.ts';

const tok = tokenizerOf(SHOP);
const CONTEXT = 512;
const options = {
  ...WARMSTART_DEFAULTS,
  seed: 3,
  episodes: 12,
  maxSteps: 10,
  history: 2,
  maxSkillTokens: 56,
  annotatedSkillTokens: 56,
};

const allows = (masks: Uint32Array, k: number, words: number, token: number) =>
  (masks[k * words + (token >>> 5)] >>> (token & 31)) & 1;

describe('the shop warm-start corpus', () => {
  const corpus = buildShopCorpus(SHOP, tok, CONTEXT, options);

  it('holds act, follow and analyze examples, every scored token allowed by its mask and every sequence within the context', () => {
    const words = Math.ceil(tok.vocabSize / 32);
    expect(corpus.sequences.length).toBe(corpus.kinds.length);
    for (const kind of EXAMPLE_KINDS) expect(corpus.counts[kind]).toBeGreaterThan(0);
    expect(corpus.counts.analyze).toBe(options.episodes);
    corpus.sequences.forEach((s) => {
      expect(s.ids.length).toBeLessThanOrEqual(CONTEXT);
      expect(s.positions.length).toBeGreaterThan(0);
      expect(s.masks.length).toBe(s.positions.length * words);
      s.positions.forEach((p, k) => {
        expect(p).toBeGreaterThan(0);
        expect(allows(s.masks, k, words, s.ids[p])).toBe(1);
      });
      // The command (or skill) and its end token are the last tokens of the sequence.
      expect(s.positions[s.positions.length - 1]).toBe(s.ids.length - 1);
      expect(s.ids[s.ids.length - 1]).toBe(tok.endId);
    });
  });

  it('scores a constrained command in act and follow examples, and puts the skill block in follow contexts only', () => {
    const skill = tok.id(SKILL);
    corpus.sequences.forEach((s, i) => {
      const kind = corpus.kinds[i];
      if (kind === 'analyze') return;
      const command = tok.decode(s.ids.subarray(s.positions[0], s.ids.length - 1));
      expect(command).toMatch(/^(search \[|click \[)/);
      expect(Array.from(s.ids).includes(skill)).toBe(kind === 'follow');
    });
  });

  it("leaves the explorer's random steps unscored unless asked", () => {
    const act = (scoreRandom: boolean) =>
      buildShopCorpus(SHOP, tok, CONTEXT, { ...options, scoreRandom, kinds: ['act'] });
    const own = act(false);
    const every = act(true);
    expect(own.kinds.every((k) => k === 'act')).toBe(true);
    expect(every.counts.act).toBeGreaterThan(own.counts.act);
    expect(own.explorerSuccess).toBe(every.explorerSuccess);
  });

  it("with own-skill follow examples, repeats the won episodes' own steps with their skill", () => {
    const own = buildShopCorpus(SHOP, tok, CONTEXT, { ...options, follow: 'own' });
    const primedFollow = corpus.sequences.filter((_, i) => corpus.kinds[i] === 'follow');
    const ownFollow = own.sequences.filter((_, i) => own.kinds[i] === 'follow');
    const ownAct = own.sequences.filter((_, i) => own.kinds[i] === 'act');
    expect(ownFollow.length).toBeGreaterThan(0);
    expect(ownFollow).not.toEqual(primedFollow);
    // Each follow example is an act example's command under the same mask, with the skill in its context.
    const key = (s: (typeof ownAct)[number]) => `${Array.from(s.ids.subarray(s.positions[0]))}|${Array.from(s.masks)}`;
    const acted = new Set(ownAct.map(key));
    for (const s of ownFollow) expect(acted.has(key(s))).toBe(true);
    expect(own.explorerSuccess).toBe(corpus.explorerSuccess);
  });

  it("with skillAfterPage, puts each follow example's skill block between its page and the command", () => {
    const after = buildShopCorpus(SHOP, tok, CONTEXT, { ...options, skillAfterPage: true });
    expect(after.counts).toEqual(corpus.counts);
    after.sequences.forEach((s, i) => {
      if (after.kinds[i] !== 'follow') {
        expect(s).toEqual(corpus.sequences[i]);
        return;
      }
      const ids = Array.from(s.ids.subarray(0, s.positions[0]));
      expect(ids[ids.length - 1]).toBe(tok.id(ACT));
      expect(ids[ids.length - 2]).toBe(tok.endId);
      expect(ids.lastIndexOf(tok.id(SKILL))).toBeGreaterThan(ids.lastIndexOf(tok.id(OBS)));
      // The same tokens as the skill-first example, in another order.
      expect([...ids].sort()).toEqual(Array.from(corpus.sequences[i].ids.subarray(0, s.positions[0])).sort());
    });
  });

  it('opens every act and follow context with the whole task line, however long the pages in its window', () => {
    corpus.sequences.forEach((s, i) => {
      if (corpus.kinds[i] === 'analyze') return;
      expect(s.ids[0]).toBe(tok.id(TASK));
      const end = Array.from(s.ids).findIndex((id, k) => k > 0 && (id === tok.id(OBS) || id === tok.id(SKILL)));
      expect(tok.decode(s.ids.subarray(1, end))).toMatch(
        /^i need .+, and price lower than [0-9]+\. ?[0-9]{2} dollars ?\.$/,
      );
    });
  });

  it('focuses on the option choices, in act and follow examples', () => {
    const focus = new Set(corpus.focus);
    const chosen = { act: 0, follow: 0, later: 0 };
    corpus.sequences.forEach((s, i) => {
      const kind = corpus.kinds[i];
      if (kind === 'analyze') {
        expect(focus.has(i)).toBe(false);
        return;
      }
      const context = tok.decode(s.ids.subarray(0, s.positions[0]));
      const page = context.slice(context.lastIndexOf(OBS));
      const command = tok.decode(s.ids.subarray(s.positions[0], s.ids.length - 1));
      const optionChoice =
        page.includes('Buy Now') &&
        /^click \[/.test(command) &&
        !/^click \[ (buy now|back to search|< prev|description|features) \]$/.test(command);
      expect(focus.has(i), `${page} => ${command}`).toBe(optionChoice);
      if (optionChoice) chosen[kind]++;
      if (optionChoice && page.includes('Selected:')) chosen.later++;
    });
    // Both kinds choose, and the choices after an item's first are in the focus as well.
    expect(chosen.act).toBeGreaterThan(0);
    expect(chosen.follow).toBeGreaterThan(0);
    expect(chosen.later).toBeGreaterThan(0);
  });

  it("with the 'read' focus, focuses on follow steps whose command the skill decides, the examples unchanged", () => {
    const read = buildShopCorpus(SHOP, tok, CONTEXT, { ...options, focus: ['read'] });
    const both = buildShopCorpus(SHOP, tok, CONTEXT, { ...options, focus: ['option', 'read'] });
    expect(read.sequences).toEqual(corpus.sequences);
    expect(both.sequences).toEqual(corpus.sequences);
    const readFocus = new Set(read.focus);
    expect(readFocus.size).toBeGreaterThan(0);
    for (const i of readFocus) expect(read.kinds[i]).toBe('follow');
    // A primed replay keeps most of the unprimed explorer's steps: only some follow steps are the skill's.
    expect(readFocus.size).toBeLessThan(corpus.counts.follow);
    expect(new Set(both.focus)).toEqual(new Set([...corpus.focus!, ...readFocus]));
    // The skill decides more than option values (leaving an item, the search, the item opened).
    const optionFocus = new Set(corpus.focus);
    expect([...readFocus].some((i) => !optionFocus.has(i))).toBe(true);
  });

  it("with the 'analyze' focus, focuses on the analyzer examples", () => {
    const analyze = buildShopCorpus(SHOP, tok, CONTEXT, { ...options, focus: ['analyze'] });
    expect(analyze.sequences).toEqual(corpus.sequences);
    expect(analyze.focus).toEqual(corpus.kinds.flatMap((kind, i) => (kind === 'analyze' ? [i] : [])));
  });

  it('is the same corpus from the same seed, another from another', () => {
    const again = buildShopCorpus(SHOP, tok, CONTEXT, options);
    expect(again.counts).toEqual(corpus.counts);
    expect(again.sequences).toEqual(corpus.sequences);
    const other = buildShopCorpus(SHOP, tok, CONTEXT, { ...options, seed: 4 });
    expect(other.sequences).not.toEqual(corpus.sequences);
  });

  it("fits a smaller context, leaving room for the rollout's command budget", () => {
    const small = buildShopCorpus(SHOP, tok, 256, { ...options, episodes: 4, maxCommandTokens: 24 });
    for (const s of small.sequences) expect(s.ids.length).toBeLessThanOrEqual(256);
    const acted = small.sequences.filter((_, i) => small.kinds[i] !== 'analyze');
    // A context leaves maxCommandTokens + 1 tokens free, so a command shorter than that ends before the limit.
    for (const s of acted) expect(s.positions[0]).toBeLessThanOrEqual(256 - 25);
  });
});

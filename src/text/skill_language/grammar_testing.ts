// What every world's skill grammar is tested for, against that world's own formatter and parser: a world's
// `skills/*_grammar.test.ts` calls grammarConformance, then tests what is its own (its continuations, its
// filters). Also the walk through a grammar's allowed tokens that those tests take.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { Rng } from '../../common/rng.ts';
import { NEWLINE } from '../markers.ts';
import { isWordPiece, splitPieces } from '../pieces.ts';
import type { Tokenizer } from '../tokenizer.ts';
import type { EntityFilter, SkillGrammar, SkillPrefix } from './decoder.ts';

export const isSet = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;

/** The tokens a mask allows, and random walks through a grammar's allowed tokens. */
export function grammarWalks<C>(tok: Tokenizer, grammar: SkillGrammar<C>) {
  const allowedTokens = (mask: Uint32Array): number[] =>
    Array.from({ length: tok.vocabSize }, (_, id) => id).filter((id) => isSet(mask, id));
  /** A random walk through the allowed tokens, taking the end token with probability pEnd whenever it may. */
  const randomWalk = (rng: Rng, maxTokens: number, pEnd: number, filter?: EntityFilter): number[] => {
    const ids: number[] = [];
    let prefix: SkillPrefix = grammar.initial;
    for (;;) {
      const allowed = allowedTokens(grammar.allowed(prefix, maxTokens, filter));
      expect(allowed.length).toBeGreaterThan(0);
      if (allowed.includes(tok.endId) && (allowed.length === 1 || rng.float() < pEnd)) return ids;
      const id = rng.pick(allowed.filter((a) => a !== tok.endId));
      ids.push(id);
      const next = grammar.next(prefix, id);
      expect(next).not.toBeNull();
      prefix = next!;
    }
  };
  return { allowedTokens, randomWalk };
}

export interface GrammarUnderTest<C, S> {
  tok: Tokenizer;
  grammar: SkillGrammar<C>;
  /** The world's skills, and how it writes and reads them. */
  arbitrarySkill: fc.Arbitrary<S>;
  format(skill: S): string;
  parse(text: string): { ok: boolean; reason: string };
  /** Words a skill needs at least; tokens of the shortest skill; the largest budget the walks take. */
  minWords: number;
  shortestTokens: number;
  largestBudget: number;
  /** A skill the parser reads that the decoder refuses before its end (a word three times in a row). */
  refusedOnTheWay?(skill: S, text: string): boolean;
}

/** The grammar and the parser agree: on every walk, every formatted skill and every skill with a token changed. */
export function grammarConformance<C, S>(g: GrammarUnderTest<C, S>): void {
  const { tok, grammar } = g;
  const { allowedTokens, randomWalk } = grammarWalks(tok, grammar);

  it('every walk through the allowed tokens that ends at the end token is a valid skill within the budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: g.shortestTokens, max: g.largestBudget }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (seed, maxTokens, pEnd) => {
          const ids = randomWalk(new Rng(seed), maxTokens, pEnd);
          expect(ids.length).toBeLessThanOrEqual(maxTokens);
          const check = g.parse(tok.decode(ids));
          expect(check.reason).toBe('');
          expect(check.ok).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts every formatted skill token by token, the end token exactly when the parser accepts it', () => {
    fc.assert(
      fc.property(g.arbitrarySkill, (s) => {
        const text = g.format(s);
        const ids = tok.encode(text);
        expect(tok.unknownPieces(text)).toEqual([]);
        const masks = grammar.skillMasks(ids, ids.length);
        const allowedAt = ids.map((id, k) =>
          isSet(masks.subarray(k * grammar.maskWords, (k + 1) * grammar.maskWords), id),
        );
        if (g.refusedOnTheWay?.(s, text)) {
          expect(allowedAt).toContain(false);
          return;
        }
        expect(allowedAt.every(Boolean)).toBe(true);
        const last = masks.subarray(ids.length * grammar.maskWords);
        expect(isSet(last, tok.endId)).toBe(splitPieces(text).filter(isWordPiece).length >= g.minWords);
        expect(isSet(last, tok.endId)).toBe(g.parse(text).ok);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the parser on mutated skills (a token dropped, inserted or replaced)', () => {
    // Any token but the end token and the newline marker (the parsers skip newlines; no decoding mask allows one).
    const vocabulary = Array.from({ length: tok.vocabSize }, (_, id) => id).filter(
      (id) => id !== tok.endId && id !== tok.id(NEWLINE),
    );
    fc.assert(
      fc.property(
        g.arbitrarySkill,
        fc.nat(),
        fc.nat(),
        fc.constantFrom('drop', 'insert', 'replace'),
        (s, at, pick, how) => {
          const ids = tok.encode(g.format(s));
          const k = at % (ids.length + (how === 'insert' ? 1 : 0));
          const token = vocabulary[pick % vocabulary.length];
          if (how === 'drop') ids.splice(k, 1);
          else if (how === 'insert') ids.splice(k, 0, token);
          else ids[k] = token;
          const prefix = grammar.walk(ids);
          expect(prefix !== null && grammar.complete(prefix)).toBe(g.parse(tok.decode(ids)).ok);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps the end reachable under a tight budget and ignores a budget below the shortest skill', () => {
    // With the shortest skill's budget only skills of the shortest form are left, and the walk must reach one.
    const ids = randomWalk(new Rng(5), g.shortestTokens, 0);
    expect(ids.length).toBe(g.shortestTokens);
    expect(g.parse(tok.decode(ids)).ok).toBe(true);
    expect(allowedTokens(grammar.allowed(grammar.initial, 3))).toEqual(
      allowedTokens(grammar.allowed(grammar.initial, g.largestBudget)),
    );
  });
}

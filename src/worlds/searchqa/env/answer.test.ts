import { describe, expect, it } from 'vitest';
import { answerF1, exactMatch, normaliseAnswer } from './answer.ts';

describe('answer normalisation (SQuAD and HotpotQA)', () => {
  it('lower-cases, drops ASCII punctuation and the articles, and collapses whitespace', () => {
    expect(normaliseAnswer('The Vawick Society')).toBe('vawick society');
    expect(normaliseAnswer('  Marno   Nular. ')).toBe('marno nular');
    expect(normaliseAnswer('"a" Poet, an Engineer!')).toBe('poet engineer');
    expect(normaliseAnswer("O'Neil-Smith")).toBe('oneilsmith');
    expect(normaliseAnswer('1847')).toBe('1847');
    expect(normaliseAnswer('')).toBe('');
  });

  it('drops articles only as whole words', () => {
    expect(normaliseAnswer('Theirnane Academy')).toBe('theirnane academy');
    expect(normaliseAnswer('Thea an Anna')).toBe('thea anna');
    // A word character is any Unicode letter, as Python's \b reads it: "éthe" and "theé" are words, not "the".
    expect(normaliseAnswer('the éthe theé')).toBe('éthe theé');
  });

  it('matches exactly after normalisation only', () => {
    expect(exactMatch('the Vawick Society.', 'Vawick Society')).toBe(true);
    expect(exactMatch('VAWICK society', 'Vawick Society')).toBe(true);
    expect(exactMatch('Vawick', 'Vawick Society')).toBe(false);
    expect(exactMatch('Society Vawick', 'Vawick Society')).toBe(false);
  });
});

describe('answer F1', () => {
  it('is the harmonic mean of word precision and recall, worked by hand', () => {
    // Shared: "marno". Precision 1/1, recall 1/2: F1 = 2 * 1 * 0.5 / 1.5 = 2/3.
    expect(answerF1('Marno', 'Marno Nular')).toBeCloseTo(2 / 3, 12);
    // Shared: "marno". Precision 1/2, recall 1/2: F1 = 1/2.
    expect(answerF1('Marno Brude', 'Marno Nular')).toBe(0.5);
    // Shared: "vawick", "society" (the article drops). Precision 2/3, recall 1: F1 = 0.8.
    expect(answerF1('the Vawick Society 1881', 'Vawick Society')).toBeCloseTo(0.8, 12);
    expect(answerF1('Society Vawick', 'Vawick Society')).toBe(1);
    expect(answerF1('1847', '1848')).toBe(0);
  });

  it('counts a repeated word as often as both texts hold it', () => {
    // Shared: one "nular". Precision 1/2, recall 1/2.
    expect(answerF1('Nular Nular', 'Marno Nular')).toBe(0.5);
  });

  it('scores an empty answer 0, as SQuAD v1.1 and HotpotQA do', () => {
    expect(answerF1('', 'Marno Nular')).toBe(0);
    expect(answerF1('the', 'Marno Nular')).toBe(0);
    expect(answerF1('', '')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { environmentWords, splitWords } from './vocabulary.ts';

describe('splitWords', () => {
  it('splits punctuation off, keeps in/on, the banner marks and apostrophes whole', () => {
    expect(splitWords("-= Welcome to TextWorld, ALFRED! =-\n\nThere's a cabinet 12. put mug 1 in/on shelf 2")).toEqual([
      '-=', 'welcome', 'to', 'textworld', ',', 'alfred', '!', '=-', "there's", 'a', 'cabinet', '12', '.',
      'put', 'mug', '1', 'in/on', 'shelf', '2',
    ]);
    expect(splitWords('Your task is to: put two cd in safe.')).toEqual([
      'your', 'task', 'is', 'to', ':', 'put', 'two', 'cd', 'in', 'safe', '.',
    ]);
    expect(splitWords('   ')).toEqual([]);
  });
});

describe('environmentWords', () => {
  it('holds the type names, numbers 1..30 and the phrase words, sorted and unique', () => {
    const words = environmentWords();
    expect(new Set(words).size).toBe(words.length);
    expect([...words].sort()).toEqual(words);
    for (const w of ['cabinet', 'apple', 'desklamp', '1', '30', 'in/on', 'nothing', 'happens', '-=', "there's", 'hot', 'cold']) {
      expect(words).toContain(w);
    }
    expect(words).not.toContain('31');
    expect(words).not.toContain('x');
  });
});

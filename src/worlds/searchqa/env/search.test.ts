import { describe, expect, it } from 'vitest';
import { encyclopediaOf, type Passage, type Relation } from './encyclopedia.ts';
import { expertQuery } from './expert.ts';
import { QaSearch, searchEngineOf, TOP_K } from './search.ts';

function passage(index: number, entity: string, relation: Relation, text: string): Passage {
  return { index, entity, relation, text, mentions: [entity] };
}

const small: Passage[] = [
  passage(0, 'Kreimia', 'capital', 'The capital of Kreimia is Zaemdrei.'),
  passage(1, 'Marno Nular', 'born', 'Marno Nular was born in 1847 in Thamia.'),
  passage(2, 'Marno Nular', 'work', 'Marno Nular worked as a poet in Zaemdrei.'),
  passage(3, 'Mudo Nular', 'born', 'Mudo Nular was born in 1826 in Kreimia.'),
  passage(4, 'Marno Brude', 'born', 'Marno Brude was born in 1806 in Thamia.'),
  passage(5, 'Vawick Society', 'founded', 'The Vawick Society was founded in 1881 by Mudo Nular.'),
];

describe('QaSearch', () => {
  const engine = new QaSearch(small);
  const indices = (query: string, limit?: number) => engine.search(query, limit).map((p) => p.index);

  it('ranks the passage that holds every query word first', () => {
    expect(indices('Marno Nular born')[0]).toBe(1);
    expect(indices('Marno Nular worked')[0]).toBe(2);
    expect(indices('Kreimia capital')[0]).toBe(0);
    expect(indices('Vawick Society founded')[0]).toBe(5);
  });

  it('ignores case and punctuation, and takes any query word (OR)', () => {
    expect(indices('marno nular BORN?')).toEqual(indices('Marno Nular born'));
    expect(indices('Vawick')).toEqual([5]);
  });

  it('returns the top three by default, ties going to the earlier passage', () => {
    expect(TOP_K).toBe(3);
    // "born" once in three passages of the same length: the same score, so encyclopedia order.
    expect(indices('born')).toEqual([1, 3, 4]);
    expect(indices('born', 2)).toEqual([1, 3]);
  });

  it('finds nothing for words outside the passages', () => {
    expect(indices('velvet sofa')).toEqual([]);
    expect(indices('')).toEqual([]);
  });
});

describe('the default encyclopedia', () => {
  const enc = encyclopediaOf();
  const engine = searchEngineOf(enc);

  it('is searched by one engine, built once', () => {
    expect(searchEngineOf(enc)).toBe(engine);
  });

  it("ranks each fact's passage first for the entity's name and the relation's word", () => {
    // Borders passages are never a hop: a country's name and "borders" also match its neighbours' passages.
    for (const p of enc.passages.filter((p) => p.relation !== 'borders'))
      expect(engine.search(expertQuery(p))[0].text, expertQuery(p)).toBe(p.text);
  });

  it('answers known queries with known pages', () => {
    expect(engine.search('Marno Nular born').map((p) => p.text)).toEqual([
      'Marno Nular was born in 1847 in Thamia.',
      'Marno Nular worked as a poet in Greipiva.',
      'Mudo Nular was born in 1826 in Surand.',
    ]);
    expect(engine.search('Theirnane Museum founded').map((p) => p.text)).toEqual([
      'The Theirnane Museum was founded in 1854 by Soken Kresar.',
      'The Theirnane Museum is based in Bemena.',
      'The Theirnane Guild was founded in 1860 by Keiro Furnar.',
    ]);
  });
});

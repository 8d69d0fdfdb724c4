import { describe, expect, it } from 'vitest';
import { hashString } from '../../../common/rng.ts';
import {
  DEFAULT_ENCYCLOPEDIA,
  encyclopediaOf,
  fill,
  passageKey,
  PASSAGE_FRAMES,
  personOf,
  SIZES,
} from './encyclopedia.ts';
import { FIRST_YEAR, LAST_YEAR, NAMES, ORGANISATION_KINDS } from './name_stock.ts';

const texts = (seed: number) => encyclopediaOf({ seed }).passages.map((p) => p.text);

describe('the encyclopedia', () => {
  it('is the same text for the same seed, and another for another seed', () => {
    const a = texts(5);
    // Built again, not read from the cache: the seeds between push seed 5 out of it.
    for (let seed = 100; seed < 110; seed++) encyclopediaOf({ seed });
    expect(texts(5)).toEqual(a);
    expect(texts(6)).not.toEqual(a);
  });

  it("is the same text on every platform: the default encyclopedia's passages hash to a fixed value", () => {
    const all = encyclopediaOf(DEFAULT_ENCYCLOPEDIA).passages.map((p) => p.text);
    expect(all[0]).toBe('The capital of Kreimia is Zaemdrei.');
    expect(hashString(all.join('\n')).toString(16)).toBe('737c71f7');
  });

  it('holds its sizes: 10 countries, 20 cities, 100 people, 30 organisations, 300 passages', () => {
    const enc = encyclopediaOf();
    expect(enc.countries).toHaveLength(SIZES.countries);
    expect(enc.cities).toHaveLength(SIZES.cities);
    expect(enc.people).toHaveLength(SIZES.people);
    expect(enc.organisations).toHaveLength(SIZES.organisations);
    expect(SIZES).toEqual({ countries: 10, cities: 20, people: 100, organisations: 30 });
    expect(enc.passages).toHaveLength(2 * 10 + 20 + 2 * 100 + 2 * 30);
  });

  it('is consistent: capitals are cities of their country, borders go both ways, years fit', () => {
    for (const seed of [0, 1, 2]) {
      const enc = encyclopediaOf({ seed });
      for (const c of enc.countries) {
        expect(enc.cities.find((city) => city.name === c.capital)?.country).toBe(c.name);
        for (const other of c.borders) expect(enc.countries.find((o) => o.name === other)?.borders).toContain(c.name);
      }
      for (const p of enc.people) {
        expect(p.born).toBeGreaterThanOrEqual(FIRST_YEAR);
        expect(enc.kinds.get(p.country)).toBe('country');
        expect(enc.kinds.get(p.city)).toBe('city');
      }
      for (const o of enc.organisations) {
        expect(o.founded - personOf(enc, o.founder).born).toBeGreaterThanOrEqual(25);
        expect(o.founded).toBeLessThanOrEqual(LAST_YEAR);
      }
      expect(enc.kinds.size).toBe(10 + 20 + 100 + 30);
    }
  });

  it('writes each fact once, in one short passage that names what it mentions', () => {
    const enc = encyclopediaOf();
    expect(enc.passageOf.size).toBe(enc.passages.length);
    const person = enc.people[0];
    const born = enc.passageOf.get(passageKey(person.name, 'born'))!;
    expect(born.text).toBe(`${person.name} was born in ${person.born} in ${person.country}.`);
    expect(born.mentions).toEqual([person.name, String(person.born), person.country]);
    for (const p of enc.passages) {
      expect(p.text.split(' ').length).toBeLessThanOrEqual(11);
      for (const m of p.mentions) expect(p.text).toContain(m);
      expect(enc.passages[p.index]).toBe(p);
    }
  });

  it('draws every name from the fixed stock, whatever the seed', () => {
    const stock = new Set([...Object.values(NAMES).flat(), ...ORGANISATION_KINDS]);
    for (const seed of [0, 3, 4_000_000_000]) {
      const enc = encyclopediaOf({ seed });
      for (const name of enc.kinds.keys()) for (const word of name.split(' ')) expect(stock.has(word)).toBe(true);
    }
  });

  it('refuses a seed that is not an integer from 0 to 2^32 - 1', () => {
    for (const seed of [-1, 1.5, 2 ** 32, Number.NaN])
      expect(() => encyclopediaOf({ seed })).toThrow(/an encyclopedia seed is an integer/);
  });

  it('fills frames and refuses a missing slot', () => {
    expect(fill(PASSAGE_FRAMES.based, { organisation: 'Vawick Society', city: 'Bunana' })).toBe(
      'The Vawick Society is based in Bunana.',
    );
    expect(() => fill(PASSAGE_FRAMES.based, { organisation: 'Vawick Society' })).toThrow(
      /no value for the slot \{city\}/,
    );
  });
});

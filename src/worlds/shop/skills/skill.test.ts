import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CONTENT_STOPS,
  SHOP_SKILL_WORDS,
  centsOfPrice,
  formatShopSkill,
  priceOfCents,
  shopTerms,
  type ShopSkill,
} from './skill.ts';
import { parseShopSkill } from './parser.ts';
import { arbitraryShopSkill, shopCatalogueWords } from './skill_testing.ts';
import { isDegenerateSkill } from '../../../text/skill_repeats.ts';

describe('shop skill grammar and formatter', () => {
  it('formats a workflow and an avoidance rule in pieces', () => {
    const workflow: ShopSkill = {
      kind: 'workflow',
      actions: [
        { verb: 'search', terms: ['cotton', 'flannel', 'shirt'] },
        {
          verb: 'click',
          item: {
            title: { lacks: false, terms: ['regular', 'fit'] },
            price: { over: false, price: { dollars: '30' } },
          },
        },
        {
          verb: 'choose',
          options: [
            ['black', 'color'],
            ['xx', '-', 'large', 'size'],
          ],
        },
        { verb: 'buy' },
      ],
      facts: [{ kind: 'cost', price: { dollars: '12', cents: '24' } }],
    };
    expect(formatShopSkill(workflow)).toBe(
      'workflow: search for cotton flannel shirt, click an item whose title says regular fit priced under 30 dollars, ' +
        'choose the black color and the xx - large size, buy now. the item cost 12. 24 dollars.',
    );
    const avoid: ShopSkill = {
      kind: 'avoid',
      mistake: { kind: 'before', action: { verb: 'buy' }, then: { verb: 'choose', options: [['large', 'size']] } },
      signs: [{ kind: 'offered', offered: true, options: [['large', 'size']] }],
      facts: [{ kind: 'order', action: { verb: 'choose', options: [['large', 'size']] }, then: { verb: 'buy' } }],
    };
    expect(formatShopSkill(avoid)).toBe(
      'avoid: buying before choosing the large size; the item offered the large size. choose the large size before buying.',
    );
    expect(
      formatShopSkill({
        kind: 'avoid',
        mistake: { kind: 'instead', action: { verb: 'next' }, of: { verb: 'search' } },
        signs: [],
        facts: [],
      }),
    ).toBe('avoid: clicking next instead of searching again.');
    expect(() => formatShopSkill({ kind: 'workflow', actions: [], facts: [] })).toThrow(/at least one step/);
    expect(() => formatShopSkill({ kind: 'workflow', actions: [{ verb: 'buy', item: {} }], facts: [] })).toThrow(
      /buy now/,
    );
    expect(() => formatShopSkill({ kind: 'workflow', actions: [{ verb: 'search', terms: [] }], facts: [] })).toThrow(
      /at least one word/,
    );
  });

  it('parses every formatted skill back to the same structure', () => {
    fc.assert(
      fc.property(arbitraryShopSkill, (s) => {
        const text = formatShopSkill(s);
        const check = parseShopSkill(text);
        if (check.ok) expect(check.skill).toEqual(s);
        else expect(check.reason).toMatch(/too short/);
      }),
      { numRuns: 500 },
    );
  });

  it('reads hand-written skills case-insensitively and says why it refuses one', () => {
    expect(parseShopSkill('Workflow: Search for Cotton Oxford Shirt, buy now.').skill).toEqual({
      kind: 'workflow',
      actions: [{ verb: 'search', terms: ['cotton', 'oxford', 'shirt'] }, { verb: 'buy' }],
      facts: [],
    });
    // A run of terms may hold grammar words that are no stops ("search", "item"), and ends at a stop.
    expect(parseShopSkill('avoid: searching for search item before buying.').skill).toMatchObject({
      mistake: { kind: 'before', action: { verb: 'search', terms: ['search', 'item'] } },
    });
    expect(parseShopSkill('avoid: running out of steps; the price bound was 40. 00 dollars.').skill).toMatchObject({
      signs: [{ kind: 'bound', price: { dollars: '40', cents: '00' } }],
    });
    expect(parseShopSkill('workflow: buy now.')).toMatchObject({
      ok: false,
      kind: 'workflow',
      reason: 'too short: 3 words, at least 5 needed',
    });
    expect(parseShopSkill('avoid: invalid actions; nothing happens.')).toMatchObject({ ok: true, kind: 'avoid' });
    expect(parseShopSkill('buy now and then search for it.')).toMatchObject({
      ok: false,
      kind: null,
      reason: 'expected "workflow" or "avoid" at the start, got "buy"',
    });
    expect(parseShopSkill('workflow: search for and shirt, buy now.').reason).toBe(
      'expected a content word after "for", got "and"',
    );
    expect(parseShopSkill('workflow: buy it, search for cotton shirt.').reason).toBe(
      'expected "now" after "buy", got "it"',
    );
    expect(parseShopSkill('avoid: running out of steps; the price bound was thirty dollars.').reason).toBe(
      'expected a number after "was", got "thirty"',
    );
    expect(parseShopSkill('workflow: search for x - , buy now.').ok).toBe(false);
    expect(parseShopSkill('avoid: buying now before choosing the size.').reason).toMatch(/expected/);
  });

  it('no word of the catalogue is a content stop, so every title, attribute and option can be written', () => {
    const words = shopCatalogueWords().map((w) => w.toLowerCase());
    expect(words.length).toBeGreaterThan(100);
    expect(words.filter((w) => CONTENT_STOPS.has(w))).toEqual([]);
    for (const stop of CONTENT_STOPS) expect(SHOP_SKILL_WORDS).toContain(stop);
  });

  it('turns text into terms: lower case, stops and marks dropped, "-" kept inside a word', () => {
    expect(shopTerms("Northfold Men's X-Large Cotton Shirt")).toEqual([
      'northfold',
      "men's",
      'x',
      '-',
      'large',
      'cotton',
      'shirt',
    ]);
    expect(shopTerms('cotton and linen, [SEP] - price')).toEqual(['cotton', 'linen', 'sep', 'price']);
    expect(shopTerms('and - , .')).toEqual([]);
  });

  it('writes prices in dollars with the cents after a point when there are some', () => {
    expect(priceOfCents(3000)).toEqual({ dollars: '30' });
    expect(priceOfCents(1205)).toEqual({ dollars: '12', cents: '05' });
    expect(centsOfPrice({ dollars: '12', cents: '05' })).toBe(1205);
    expect(centsOfPrice({ dollars: '12', cents: '5' })).toBe(1250);
    expect(() => priceOfCents(12.5)).toThrow(/whole number of cents/);
  });

  it('flags a shop skill that loops on a phrase with the household rule', () => {
    expect(isDegenerateSkill('workflow: click next, click next, click next, buy now.')).toBe(true);
    expect(isDegenerateSkill('workflow: choose the black color and the black color, buy now.')).toBe(true);
    expect(
      isDegenerateSkill(
        'workflow: search for cotton shirt, click next, click an item whose title says cotton shirt, buy now.',
      ),
    ).toBe(false);
  });
});

// A search query is capped at the word pieces the policy's search bar writes (MAX_QUERY_PIECES): a longer one
// is refused before it is split or searched, whoever types it, and every query the expert writes fits.
import { queryTexts } from './vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { BRANDS, CATEGORIES } from './categories.ts';
import { ShopGame } from './game.ts';
import { MAX_QUERY_PIECES, NOTHING_HAPPENS, overPieces, shopActionRefusal } from './site.ts';
import { SHOP } from './environment.ts';
import { generateShopScene } from './splits.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => ['cotton', 'shirt', 'navy'][i % 3]).join(' ');

/** The pieces of `text`, as overPieces counts them. */
function pieces(text: string): number {
  let n = 0;
  while (overPieces(text, n)) n++;
  return n;
}

describe('the search query limit', () => {
  it('counts word pieces as the tokenizer splits them', () => {
    expect(pieces('cotton shirt')).toBe(2);
    expect(pieces("men's t-shirt, 8.5")).toBe(8);
    expect(pieces('b07x4kq2zm')).toBe(10);
  });

  it('takes a query of MAX_QUERY_PIECES pieces and refuses one more, stating the limit', () => {
    expect(shopActionRefusal(`search[${words(MAX_QUERY_PIECES)}]`)).toBeNull();
    expect(shopActionRefusal(`search [ ${words(MAX_QUERY_PIECES + 1)} ]`)).toMatch(
      new RegExp(`^a search query holds at most ${MAX_QUERY_PIECES} word pieces .*; this one holds more`),
    );
    expect(shopActionRefusal(`search[${'a-'.repeat(MAX_QUERY_PIECES)}]`)).not.toBeNull();
    expect(SHOP.commandRefusal(`search[${words(MAX_QUERY_PIECES + 1)}]`)).not.toBeNull();
  });

  it('refuses a 10,000-word query and a 4 MB line (one scan, no search)', () => {
    expect(shopActionRefusal(`search[${words(10_000)}]`)).toMatch(/at most 12 word pieces/);
    expect(shopActionRefusal(`search[${'shirt '.repeat(700_000)}]`)).toMatch(/at most 12 word pieces/);
    expect(shopActionRefusal(`search[${'-'.repeat(4 << 20)}]`)).toMatch(/at most 12 word pieces/);
    // One run of letters is one piece however long: the world's refusal also bounds the characters, at what
    // twelve of the longest words a query may hold come to, spaced.
    const longest = Math.max(...queryTexts().flatMap((t) => t.split(' ').map((w) => w.length)));
    const limit = MAX_QUERY_PIECES * (longest + 1) - 1;
    expect(SHOP.commandRefusal(`search[${'a'.repeat(4 << 20)}]`)).toMatch(
      new RegExp(`and ${limit} characters, .*this one holds more \\(${4 << 20} characters\\)`),
    );
    expect(SHOP.commandRefusal(`search[${'a'.repeat(limit + 1)}]`)).not.toBeNull();
    expect(SHOP.commandRefusal(`search[${'a'.repeat(limit)}]`)).toBeNull();
  });

  it('leaves clicks, other text and the household alone', () => {
    expect(shopActionRefusal(`click[${words(100)}]`)).toBeNull();
    expect(shopActionRefusal(words(100))).toBeNull();
    expect(SHOP.commandRefusal('search[]')).toBeNull();
  });

  it('answers a longer query in the game with "Nothing happens." and the state unchanged', () => {
    const game = new ShopGame(generateShopScene('train', 0));
    expect(game.step(`search[${words(MAX_QUERY_PIECES + 1)}]`)).toMatchObject({
      observation: NOTHING_HAPPENS,
      valid: false,
    });
    expect(game.records.at(-1)).toMatchObject({ page: 'search', query: null });
    expect(game.step(`search[${words(MAX_QUERY_PIECES)}]`).valid).toBe(true);
  });

  it("fits the expert's longest query: every attribute group's longest value and the type, or a whole title", () => {
    const longest = (texts: readonly string[]) => Math.max(...texts.map(pieces));
    for (const category of CATEGORIES) {
      const attributes = category.attributes.reduce((sum, group) => sum + longest(group.values), 0);
      const title =
        longest(BRANDS) + pieces(category.audience) + attributes + longest(category.types.map((t) => t.name));
      expect(title, category.name).toBeLessThanOrEqual(MAX_QUERY_PIECES);
    }
  });
});

// The shop's vocabulary holds every text the shop prints or accepts, for catalogues of any seed: pages met on the
// expert's way and on random walks, the clicks every page lists, every item's Description and Features tab, and
// the search words. An item's tabs are short beside the tiny model's 512-token context.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { catalogueOf } from '../env/catalogue.ts';
import { SHOP } from '../env/environment.ts';
import { ShopGame } from '../env/game.ts';
import { ITEM_TABS, renderPage } from '../env/pages.ts';
import { generateShopScene } from '../env/splits.ts';
import { TINY_SHOP, WEBSHOP } from '../env/scale.ts';
import { defaultTokenizer, tokenizerOf } from '../../../text/tokenizer.ts';

const tok = tokenizerOf(SHOP);

function unknownOf(game: ShopGame): string[] {
  const texts = [game.records[game.records.length - 1].observation, ...game.admissibleCommands()];
  return texts.flatMap((t) => tok.unknownPieces(t));
}

describe('the shop tokenizer', () => {
  it('is apart from the household one, and built once', () => {
    expect(tok.hash).not.toBe(defaultTokenizer().hash);
    expect(tokenizerOf(SHOP)).toBe(tok);
    expect(tok.vocabSize).toBeLessThan(1024);
  });

  it('encodes every page and click of expert games and random walks without an unknown piece', () => {
    const unknown = new Set<string>();
    const rng = new Rng(3);
    for (const [catalogue, scale] of [
      [{ seed: 0, size: 3000 }, TINY_SHOP],
      [{ seed: 77, size: 500 }, WEBSHOP],
    ] as const) {
      for (const split of ['train', 'seen', 'unseen'] as const) {
        for (let i = 0; i < 6; i++) {
          const scene = generateShopScene(split, i, 5, scale, catalogue);
          const expert = new ShopGame(scene, { scale });
          for (const p of unknownOf(expert)) unknown.add(p);
          for (const action of expert.expertPlan()) {
            expert.step(action);
            for (const p of unknownOf(expert)) unknown.add(p);
          }
          const walk = new ShopGame(scene, { scale });
          while (!walk.done) {
            const clicks = walk.admissibleCommands();
            walk.step(
              // Every page before the purchase takes a search; the walk searches on a fifth of its clicking pages.
              clicks.length === 0 || rng.float() < 0.2
                ? `search[${scene.goal.typeName} ${rng.pick(scene.goal.attributes)}]`
                : rng.pick(clicks),
            );
            for (const p of unknownOf(walk)) unknown.add(p);
          }
        }
      }
    }
    expect([...unknown]).toEqual([]);
  });

  // Measured: over the default catalogue the longest Description tab is 40 tokens and the longest Features tab 35
  // at the tiny scale (78 and 73 at WebShop's, with the instruction; the longest item page is 102 and 140).
  it("encodes every item's tabs, in catalogues of two seeds, and keeps them short at both scales", () => {
    const instruction =
      'i need a long sleeve slim fit cotton oxford shirt, machine washable, in xx-large, and price lower than 100.00 dollars';
    const longest: Record<string, number> = {};
    for (const catalogue of [
      { seed: 0, size: 3000 },
      { seed: 77, size: 1000 },
    ]) {
      for (const product of catalogueOf(catalogue)) {
        for (const scale of [TINY_SHOP, WEBSHOP]) {
          for (const kind of ITEM_TABS) {
            const page = { kind, query: 'q', results: [product], page: 1, product, chosen: {} };
            const text = renderPage(page, instruction, scale);
            expect(tok.unknownPieces(text), text).toEqual([]);
            const key = `${scale.name} ${kind}`;
            longest[key] = Math.max(longest[key] ?? 0, tok.encode(text).length);
          }
        }
      }
    }
    expect(longest['tiny description']).toBeLessThanOrEqual(48);
    expect(longest['tiny features']).toBeLessThanOrEqual(48);
    expect(Math.max(...Object.values(longest))).toBeLessThanOrEqual(96);
  });

  it('encodes a product id as one letter and its continuations, so decoding gives the click back', () => {
    const ids = tok.encode('click[b0qxmkh97q]');
    expect(ids.length).toBe(13);
    expect(tok.decode(ids)).toBe('click [ b0qxmkh97q ]');
  });
});

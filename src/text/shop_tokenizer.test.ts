// The shop's vocabulary holds every text the shop prints or accepts, for catalogues of any seed: pages met on the
// expert's way and on random walks, the clicks every page lists, and the search words.
import { describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import { SHOP } from '../env/shop/environment.ts';
import { ShopGame } from '../env/shop/game.ts';
import { generateShopScene } from '../env/shop/splits.ts';
import { TINY_SHOP, WEBSHOP } from '../env/shop/scale.ts';
import { defaultTokenizer, tokenizerOf } from './tokenizer.ts';

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
              walk.hasSearchBar() || clicks.length === 0
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

  it('encodes a product id as one letter and its continuations, so decoding gives the click back', () => {
    const ids = tok.encode('click[b0qxmkh97q]');
    expect(ids.length).toBe(13);
    expect(tok.decode(ids)).toBe('click [ b0qxmkh97q ]');
  });
});

import { describe, expect, it } from 'vitest';
import { catalogueOf } from './catalogue.ts';
import { satisfies } from './expert.ts';
import { ShopGame } from './game.ts';
import {
  SHOP_EVAL_COUNTS,
  combinationOf,
  evalShopScenes,
  generateShopScene,
  isHeldOut,
  validationShopScenes,
  validationUnseenShopScenes,
} from './splits.ts';
import type { ShopScene } from './scene.ts';

function playExpert(scene: ShopScene): ShopGame {
  const game = new ShopGame(scene);
  for (const action of game.expertPlan()) expect(game.step(action).valid).toBe(true);
  return game;
}

describe('the shop expert', () => {
  const sets: Record<string, ShopScene[]> = {
    train: Array.from({ length: 100 }, (_, i) => generateShopScene('train', i)),
    'eval seen': evalShopScenes('seen'),
    'eval unseen': evalShopScenes('unseen'),
    validation: validationShopScenes(),
    'validation-unseen': validationUnseenShopScenes(),
  };

  for (const [name, scenes] of Object.entries(sets)) {
    it(`wins every ${name} game with reward 1 within the step budget`, () => {
      for (const scene of scenes) {
        const game = playExpert(scene);
        expect(game.won, scene.goal.instruction).toBe(true);
        expect(game.records.at(-1)!.reward).toBe(1);
        expect(game.steps).toBeLessThanOrEqual(game.maxSteps);
      }
    });
  }

  it('plans from any state: a wrong item, a wrong option, results with no fitting product', () => {
    const scene = generateShopScene('train', 5);
    const products = catalogueOf(scene.catalogue);
    const product = (id: string) => products.find((p) => p.id.toLowerCase() === id)!;
    const listed = (game: ShopGame) =>
      game
        .admissibleCommands()
        .filter((c) => /^click\[b0/.test(c))
        .map((c) => c.slice(6, -1));

    const game = new ShopGame(scene);
    game.step(game.expertPlan()[0]);
    expect(listed(game).some((id) => satisfies(product(id), scene.goal))).toBe(true);
    const wrong = listed(game).find((id) => !satisfies(product(id), scene.goal))!;
    game.step(`click[${wrong}]`);
    game.step(`click[${Object.values(product(wrong).options)[0][0]}]`);
    expect(game.expertPlan()[0]).toBe('click[< prev]');
    for (const action of game.expertPlan()) game.step(action);
    expect(game.won).toBe(true);

    const lost = new ShopGame(scene);
    lost.step('search[velvet sofa lamp]');
    expect(listed(lost).some((id) => satisfies(product(id), scene.goal))).toBe(false);
    // Every page before the purchase has the search bar: the expert searches again where it stands.
    expect(lost.expertPlan()[0]).toMatch(/^search\[/);
    for (const action of lost.expertPlan()) lost.step(action);
    expect(lost.won).toBe(true);
  });

  it('chooses only the options still missing on a fitting item', () => {
    const game = new ShopGame(generateShopScene('seen', 3));
    const plan = game.expertPlan();
    for (const action of plan.slice(0, -2)) game.step(action);
    expect(game.expertPlan()).toEqual(plan.slice(-2));
  });
});

describe('shop splits', () => {
  it('are deterministic and differ by split, index and seed', () => {
    expect(generateShopScene('train', 4)).toEqual(generateShopScene('train', 4));
    expect(generateShopScene('train', 4).goal).not.toEqual(generateShopScene('train', 5).goal);
    expect(generateShopScene('train', 4).goal).not.toEqual(generateShopScene('seen', 4).goal);
    expect(generateShopScene('train', 4, 1).goal).not.toEqual(generateShopScene('train', 4).goal);
  });

  it('hold out attribute combinations: unseen games have them, no other game does', () => {
    const unseen = evalShopScenes('unseen');
    const seen = [...evalShopScenes('seen'), ...Array.from({ length: 200 }, (_, i) => generateShopScene('train', i))];
    expect(unseen).toHaveLength(SHOP_EVAL_COUNTS.unseen);
    for (const scene of unseen) expect(isHeldOut(scene.goal)).toBe(true);
    for (const scene of seen) expect(isHeldOut(scene.goal)).toBe(false);
    const trainCombinations = new Set(seen.map((s) => combinationOf(s.goal)));
    for (const scene of unseen) expect(trainCombinations.has(combinationOf(scene.goal))).toBe(false);
  });

  it('draw validation-unseen games of held-out combinations that eval-unseen does not hold', () => {
    const games = validationUnseenShopScenes();
    expect(games).toHaveLength(SHOP_EVAL_COUNTS.unseen);
    for (const scene of games) expect(isHeldOut(scene.goal)).toBe(true);
    const reported = new Set(evalShopScenes('unseen').map((s) => combinationOf(s.goal)));
    expect(games.filter((s) => reported.has(combinationOf(s.goal)))).toEqual([]);
    expect(new Set(games.map((s) => combinationOf(s.goal))).size).toBeGreaterThan(60);
  });

  it('give goals that several products satisfy', () => {
    const scenes = evalShopScenes('seen');
    const products = catalogueOf(scenes[0].catalogue);
    const many = scenes.filter((s) => products.filter((p) => satisfies(p, s.goal)).length > 1).length;
    expect(many).toBeGreaterThan(scenes.length / 2);
  });

  it('refuse an unknown split or a bad index', () => {
    expect(() => generateShopScene('test' as 'train', 0)).toThrow(/unknown shop split "test"/);
    expect(() => generateShopScene('train', -1)).toThrow(/non-negative integer/);
  });
});

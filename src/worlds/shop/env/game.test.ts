import { describe, expect, it } from 'vitest';
import { catalogueOf } from './catalogue.ts';
import { SHOP_MAX_STEPS, ShopGame, shopScore } from './game.ts';
import { WEBSHOP } from './scale.ts';
import { NOTHING_HAPPENS } from './site.ts';
import { generateShopScene } from './splits.ts';

const scene = generateShopScene('train', 0);
const products = catalogueOf(scene.catalogue);

function searched(game: ShopGame): string {
  return game.step(`search[${scene.goal.typeName}]`).observation;
}

describe('ShopGame pages and actions', () => {
  it('opens on the search page, which takes a search and no click', () => {
    const game = new ShopGame(scene);
    expect(game.observation).toBe(`WebShop [SEP] Instruction: [SEP] ${scene.goal.instruction} [SEP] Search`);
    expect(game.hasSearchBar()).toBe(true);
    expect(game.admissibleCommands()).toEqual([]);
    expect(game.records[0]).toMatchObject({ step: 0, page: 'search', query: null, item: null });
  });

  it("lists WebShop's ten results a page with ids, titles and prices, and pages with Next > and < Prev", () => {
    const game = new ShopGame(scene, { scale: WEBSHOP });
    const page1 = searched(game);
    expect(page1).toMatch(
      /^Instruction: \[SEP\] .* \[SEP\] Search \[SEP\] Back to Search \[SEP\] Page 1 \(Total results: 50\) \[SEP\] Next > \[SEP\] B0/,
    );
    expect(page1.match(/\$\d+\.\d\d/g)).toHaveLength(10);
    const commands = game.admissibleCommands();
    expect(commands.slice(0, 2)).toEqual(['click[back to search]', 'click[next >]']);
    expect(commands.slice(2)).toHaveLength(10);
    expect(game.step('click[< prev]')).toMatchObject({
      observation: NOTHING_HAPPENS,
      valid: false,
      reward: 0,
      done: false,
    });
    expect(game.step('click[Next >]').observation).toContain('Page 2 (Total results: 50) [SEP] < Prev [SEP] Next >');
    expect(game.step('click[< prev]').observation).toBe(page1);
    expect(game.records.at(-1)).toMatchObject({ page: 'results', query: scene.goal.typeName, item: null, valid: true });
  });

  it('the tiny shop lists five results a page, 25 in all, and prints the instruction on the search page only', () => {
    const game = new ShopGame(scene);
    const page1 = searched(game);
    expect(page1).toMatch(
      /^Search \[SEP\] Back to Search \[SEP\] Page 1 \(Total results: 25\) \[SEP\] Next > \[SEP\] B0/,
    );
    expect(page1.match(/\$\d+\.\d\d/g)).toHaveLength(5);
    expect(game.admissibleCommands().slice(2)).toHaveLength(5);
    for (let page = 2; page <= 5; page++)
      expect(game.step('click[next >]').observation).toContain(`Page ${page} (Total results: 25)`);
    expect(game.admissibleCommands()).not.toContain('click[next >]');
    game.step('click[back to search]');
    expect(game.records.at(-1)!.observation).toContain(`Instruction: [SEP] ${scene.goal.instruction}`);
  });

  it('shows an item with its options and price, selects options and goes back', () => {
    const game = new ShopGame(scene);
    const page1 = searched(game);
    const id = game.admissibleCommands()[2].slice('click['.length, -1);
    const product = products.find((p) => p.id.toLowerCase() === id)!;
    const item = game.step(`click[${id.toUpperCase()}]`).observation;
    const [firstName, firstValues] = Object.entries(product.options)[0];
    expect(
      item.startsWith(
        `Search [SEP] Back to Search [SEP] < Prev [SEP] ${firstName} [SEP] ${firstValues.join(' [SEP] ')}`,
      ),
    ).toBe(true);
    expect(item).toContain(
      `${product.title} [SEP] Price: $${(product.priceCents / 100).toFixed(2)} [SEP] Description [SEP] Features [SEP] Buy Now`,
    );
    expect(game.admissibleCommands()).toEqual([
      'click[back to search]',
      'click[< prev]',
      ...Object.values(product.options)
        .flat()
        .map((v) => `click[${v}]`),
      'click[description]',
      'click[features]',
      'click[buy now]',
    ]);
    expect(game.step(`click[${firstValues[1]}]`).observation).toContain(`Selected: ${firstName}: ${firstValues[1]}`);
    expect(game.step('click[next >]')).toMatchObject({ observation: NOTHING_HAPPENS, valid: false });
    expect(game.step('click[< prev]').observation).toBe(page1);
    game.step('click[back to search]');
    expect(game.hasSearchBar()).toBe(true);
    expect(game.records.at(-1)).toMatchObject({ page: 'search', query: scene.goal.typeName });
  });

  it('answers "Nothing happens." to actions outside the grammar or the page, changing nothing', () => {
    const game = new ShopGame(scene);
    for (const action of ['', 'go to fridge 1', 'search[]', 'click[buy now]', 'click[b0zzzzzzzz]', 'search[shirt']) {
      expect(game.step(action)).toEqual({
        observation: NOTHING_HAPPENS,
        reward: 0,
        done: false,
        won: false,
        valid: false,
      });
      expect(game.hasSearchBar()).toBe(true);
    }
  });

  it("ends on Buy Now with WebShop's reward, and after maxSteps with 0", () => {
    const game = new ShopGame(scene);
    searched(game);
    const wrong = game
      .admissibleCommands()
      .slice(2)
      .find((c) => c !== `click[${scene.goal.targetId.toLowerCase()}]`)!;
    game.step(wrong);
    const end = game.step('click[buy now]');
    expect(end.done).toBe(true);
    expect(end.reward).toBeLessThan(1);
    expect(end.won).toBe(false);
    expect(end.observation).toBe(
      `Thank you for shopping with us! [SEP] Purchased [SEP] ${game.records.at(-1)!.item} [SEP] Your score (min 0.0, max 1.0) [SEP] ${end.reward.toFixed(2)}`,
    );
    expect(() => game.step('click[buy now]')).toThrow(/episode is over/);

    const short = new ShopGame(scene, { maxSteps: 2 });
    short.step('look');
    expect(short.step('look')).toMatchObject({ done: true, won: false, reward: 0 });
    expect(new ShopGame(scene).maxSteps).toBe(SHOP_MAX_STEPS);
    expect(() => new ShopGame(scene, { maxSteps: 0 })).toThrow(/maxSteps must be a positive integer/);
  });

  it("scores an episode by its purchase's reward, 0 without one, and 1 exactly when it is won", () => {
    const partial = new ShopGame(scene);
    searched(partial);
    partial.step(partial.admissibleCommands().find((c) => c !== `click[${scene.goal.targetId.toLowerCase()}]`)!);
    const end = partial.step('click[buy now]');
    expect(shopScore(partial.records)).toBe(end.reward);
    const expert = new ShopGame(scene);
    for (const action of expert.expertPlan()) expert.step(action);
    expect([shopScore(expert.records), expert.won]).toEqual([1, true]);
    const short = new ShopGame(scene, { maxSteps: 1 });
    expect(shopScore(short.records)).toBe(0);
    short.step('look');
    expect([shopScore(short.records), short.done]).toEqual([0, true]);
  });

  it('refuses a scene whose target is not in its catalogue', () => {
    expect(() => new ShopGame({ ...scene, goal: { ...scene.goal, targetId: 'B0NOTHERE0' } })).toThrow(
      /B0NOTHERE0 is not in its catalogue/,
    );
  });
});

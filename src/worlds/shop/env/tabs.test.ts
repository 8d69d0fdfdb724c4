// The shop as WebShop shows it: an item's Description and Features tabs (their text and buttons, "< Prev" back to
// the item as it was), the search bar on every page before the purchase, results paged with "Next >" and
// "< Prev" only where there is such a page, and the expert winning from any page, tabs included.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { CATEGORIES } from './categories.ts';
import { catalogueOf, DEFAULT_CATALOGUE, generateCatalogue, type Product } from './catalogue.ts';
import { ShopGame } from './game.ts';
import { ITEM_TABS, SEP } from './pages.ts';
import { productText } from './product_text.ts';
import { SHOP_SCALES, TINY_SHOP, WEBSHOP } from './scale.ts';
import { NOTHING_HAPPENS } from './site.ts';
import { generateShopScene } from './splits.ts';

const products = catalogueOf(DEFAULT_CATALOGUE);
const product = (id: string) => products.find((p) => p.id === id.toUpperCase())!;

/** A game of the scene on the item page of the `index`-th result of its expert's search. */
function onItem(index = 0, scale = TINY_SHOP): ShopGame {
  const game = new ShopGame(generateShopScene('train', 3, 0, scale), { scale, maxSteps: 100 });
  game.step(game.expertPlan()[0]);
  game.step(game.admissibleCommands().filter((c) => /^click\[b0/.test(c))[index]);
  return game;
}

describe("an item's Description and Features tabs", () => {
  it('show what a seeded product says, under the search bar, Back to Search and < Prev', () => {
    const game = new ShopGame(generateShopScene('train', 0, 1));
    const [search, open] = game.expertPlan();
    game.step(search);
    expect(game.step(open).observation).toBe(
      'Search [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black [SEP] navy [SEP] green [SEP] red [SEP] size ' +
        '[SEP] medium [SEP] large [SEP] Tidewell Vintage Leather Tote Bag [SEP] Price: $80.08 [SEP] Description ' +
        '[SEP] Features [SEP] Buy Now',
    );
    expect(game.step('click[description]').observation).toBe(
      'Search [SEP] Back to Search [SEP] < Prev [SEP] This tote bag is made of leather for daily use. It has a vintage design.',
    );
    expect(game.admissibleCommands()).toEqual(['click[back to search]', 'click[< prev]']);
    expect(game.hasSearchBar()).toBe(true);
    game.step('click[< prev]');
    expect(game.step('click[features]').observation).toBe(
      'Search [SEP] Back to Search [SEP] < Prev [SEP] made of leather [SEP] vintage design',
    );
    expect(game.records.at(-1)).toMatchObject({ page: 'features', item: 'B0YRVN8V8P', query: search.slice(7, -1) });
    // A plural type reads "these ... are"; a feature no title shows is a bullet of its own.
    const mug = onItem();
    mug.step('click[features]');
    expect(mug.records.at(-1)!.observation).toBe(
      'Search [SEP] Back to Search [SEP] < Prev [SEP] made of enamel [SEP] dishwasher safe',
    );
    const boots = products.find((p) => p.nouns.join(' ') === 'hiking boots')!;
    expect(productText(boots).description).toMatch(/^(These|Made of [a-z ]+, these) [a-z ]*hiking boots are /);
  });

  it('print the instruction first at the WebShop scale, as its other pages do', () => {
    const game = onItem(1, WEBSHOP);
    const text = game.step('click[features]').observation;
    expect(text.startsWith(`Instruction: [SEP] ${game.scene.goal.instruction} [SEP] Search [SEP] Back to Search`)).toBe(
      true,
    );
  });

  it('are each reachable from the item page, whose < Prev on the tab returns it as it was, options kept', () => {
    for (const scale of Object.values(SHOP_SCALES)) {
      const game = onItem(2, scale);
      const item = product(game.records.at(-1)!.item!);
      const [name, values] = Object.entries(item.options)[0];
      const chosen = game.step(`click[${values[values.length - 1]}]`).observation;
      expect(chosen).toContain(`Selected: ${name}: ${values[values.length - 1]}`);
      const clicks = game.admissibleCommands();
      for (const tab of ITEM_TABS) {
        expect(clicks).toContain(`click[${tab}]`);
        const page = game.step(`click[${tab}]`);
        expect(page.valid).toBe(true);
        expect(game.records.at(-1)!.page).toBe(tab);
        // The tab takes no option and no purchase: only its two buttons and a search.
        expect(game.step('click[buy now]').observation).toBe(NOTHING_HAPPENS);
        expect(game.step(`click[${values[0]}]`).observation).toBe(NOTHING_HAPPENS);
        expect(game.step('click[< prev]').observation).toBe(chosen);
        expect(game.admissibleCommands()).toEqual(clicks);
      }
      game.step('click[features]');
      expect(game.step('click[back to search]').observation).toMatch(/^WebShop \[SEP\] Instruction:/);
    }
  });

  it('name, over many seeded games, every attribute the instruction asks of its target on the Features page', () => {
    let attributes = 0;
    for (const [split, seed] of [
      ['train', 0],
      ['seen', 0],
      ['unseen', 0],
      ['train', 9],
    ] as const) {
      for (let i = 0; i < 150; i++) {
        const scene = generateShopScene(split, i, seed);
        const target = catalogueOf(scene.catalogue).find((p) => p.id === scene.goal.targetId)!;
        const { features, description } = productText(target);
        const read = features.join(' ');
        for (const attribute of scene.goal.attributes) {
          expect(read, `${target.id} ${attribute}`).toMatch(new RegExp(`(^| )${attribute}( |$)`));
          attributes++;
        }
        // The Description names the type and the material, from which the product's type can be read as well.
        expect(description).toContain(target.nouns.join(' '));
        expect(description).toContain(target.attributes[0]);
      }
    }
    expect(attributes).toBeGreaterThan(600);
  });

  it('list one bullet per attribute, no bullet a sentence, and a description that is one', () => {
    for (const p of products.slice(0, 500)) {
      const { description, features } = productText(p);
      expect(features).toHaveLength(p.attributes.length);
      for (const f of features) expect(f.endsWith('.') || f.includes(SEP.trim())).toBe(false);
      expect(description).toMatch(/^[A-Z][^[\]]*\.$/);
    }
  });

  it('are deterministic: the same catalogue seed reads the same, on every call and a catalogue built again', () => {
    const again = generateCatalogue(DEFAULT_CATALOGUE);
    const read = (list: readonly Product[]) => list.slice(0, 300).map((p) => productText(p));
    expect(read(again)).toEqual(read(products));
    // The wording varies between products of a category: its templates and uses are all drawn.
    for (const category of CATEGORIES) {
      const openings = new Set(
        products.filter((p) => p.category === category.name).map((p) => productText(p).description.split(' ')[0]),
      );
      expect(openings.size, category.name).toBeGreaterThan(1);
    }
  });
});

describe('the search bar on every page before the purchase', () => {
  it('takes a search from a results page, an item page and a tab, and shows "Search" among the buttons', () => {
    const game = onItem();
    const query = game.records[1].query!;
    const fresh = (from: string) => {
      expect(game.records.at(-1)!.observation.split(SEP)[0], from).toBe('Search');
      expect(game.hasSearchBar()).toBe(true);
      expect(game.freeText()).toMatchObject({ open: 'search[', close: ']' });
      const step = game.step('search[canvas tote bag]');
      expect(step.valid, from).toBe(true);
      expect(game.records.at(-1)).toMatchObject({ page: 'results', query: 'canvas tote bag', item: null });
    };
    fresh('item page');
    fresh('results page');
    game.step(game.admissibleCommands().filter((c) => /^click\[b0/.test(c))[0]);
    game.step('click[description]');
    fresh('description tab');
    expect(query).not.toBe('canvas tote bag');
  });

  it('is gone once the item is bought', () => {
    const game = new ShopGame(generateShopScene('train', 3));
    for (const action of game.expertPlan()) game.step(action);
    expect(game.hasSearchBar()).toBe(false);
    expect(game.freeText()).toBeNull();
    expect(game.admissibleCommands()).toEqual([]);
  });
});

describe("results pages' Next > and < Prev", () => {
  it('go to the next and previous page, each offered only where there is one', () => {
    for (const scale of Object.values(SHOP_SCALES)) {
      const game = new ShopGame(generateShopScene('train', 0, 0, scale), { scale, maxSteps: 100 });
      game.step('search[bag]');
      const total = Number(/Total results: (\d+)/.exec(game.records.at(-1)!.observation)![1]);
      const pages = Math.ceil(total / scale.resultsPerPage);
      expect(pages).toBeGreaterThan(2);
      const seen: string[] = [];
      for (let page = 1; page <= pages; page++) {
        const clicks = game.admissibleCommands();
        expect(clicks.includes('click[< prev]'), `${scale.name} page ${page}`).toBe(page > 1);
        expect(clicks.includes('click[next >]'), `${scale.name} page ${page}`).toBe(page < pages);
        seen.push(game.records.at(-1)!.observation);
        if (page < pages) expect(game.step('click[next >]').observation).toContain(`Page ${page + 1} (Total`);
      }
      expect(game.step('click[next >]').valid).toBe(false);
      for (let page = pages - 1; page >= 1; page--) expect(game.step('click[< prev]').observation).toBe(seen[page - 1]);
      expect(game.step('click[< prev]').valid).toBe(false);
    }
  });
});

describe('the expert from any page', () => {
  it('wins, over many seeded games, from every kind of page a random walk reaches, tabs included', () => {
    const rng = new Rng(12);
    const fromKind: Record<string, number> = {};
    for (let i = 0; i < 120; i++) {
      const scale = i % 4 === 3 ? WEBSHOP : TINY_SHOP;
      const scene = generateShopScene(i % 2 ? 'seen' : 'train', i, 0, scale);
      const walk = new ShopGame(scene, { scale, maxSteps: 100 });
      const steps = 1 + rng.int(8);
      for (let s = 0; s < steps && !walk.done; s++) {
        const clicks = walk.admissibleCommands().filter((c) => c !== 'click[buy now]');
        const search = clicks.length === 0 || rng.float() < 0.1;
        walk.step(search ? `search[${scene.goal.typeName}]` : rng.pick(clicks));
      }
      // A walk rarely stops on a tab: a third of those on an item page go on to one.
      if (walk.records.at(-1)!.page === 'item' && i % 3 === 0) walk.step(`click[${ITEM_TABS[i % 2]}]`);
      const kind = walk.records.at(-1)!.page;
      fromKind[kind] = (fromKind[kind] ?? 0) + 1;
      for (const action of walk.expertPlan()) expect(walk.step(action).valid, `${i} ${action}`).toBe(true);
      expect(walk.won, `game ${i} from the ${kind} page`).toBe(true);
    }
    for (const kind of ['search', 'results', 'item', ...ITEM_TABS]) expect(fromKind[kind], kind).toBeGreaterThan(3);
  });

  it('goes back to the item from its tab before choosing, and searches on the page where it stands', () => {
    const game = onItem();
    const onPage = game.expertPlan();
    game.step('click[features]');
    expect(game.expertPlan()).toEqual(['click[< prev]', ...onPage]);
    const lost = new ShopGame(generateShopScene('train', 5));
    lost.step('search[velvet sofa lamp]');
    expect(lost.expertPlan()[0]).toMatch(/^search\[/);
  });
});

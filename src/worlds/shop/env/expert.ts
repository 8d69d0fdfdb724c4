// The shop's expert: from any state, the shortest plan it knows to a purchase with reward 1. It searches with
// the instruction's attributes and product type ("long sleeve cotton oxford shirt"; the target's full title
// when that query finds no fitting product), pages to the first result that satisfies the goal, opens it,
// chooses the goal's option values and buys. A product already open or listed that satisfies the goal is used
// where it stands; from an item's tab it first goes back to the item ("< prev"). A new search is written on the
// page where the expert stands, since every page before the purchase has the search bar.
import type { Product } from './catalogue.ts';
import type { ShopGoal } from './goal.ts';
import { BUTTONS } from './buttons.ts';
import type { ShopPage } from './pages.ts';
import { shopReward } from './reward.ts';
import type { ShopScale } from './scale.ts';
import type { ShopSearch } from './search.ts';
import type { ShopSite } from './site.ts';

/** True when buying `product` with the goal's option values earns reward 1. */
export function satisfies(product: Product, goal: ShopGoal): boolean {
  const offered = Object.entries(goal.options).every(([name, value]) => product.options[name]?.includes(value));
  return offered && shopReward(product, goal.options, goal).reward === 1;
}

function expertQuery(goal: ShopGoal): string {
  return [...goal.attributes, goal.typeName].join(' ');
}

function click(label: string): string {
  return `click[${label.toLowerCase()}]`;
}

function optionsAndBuy(product: Product, goal: ShopGoal, chosen: Readonly<Record<string, string>>): string[] {
  const clicks = Object.keys(product.options)
    .filter((name) => goal.options[name] !== undefined && chosen[name] !== goal.options[name])
    .map((name) => click(goal.options[name]));
  return [...clicks, click(BUTTONS.buyNow)];
}

/** Paging from `page` to the first fitting result, opening it, its options and Buy Now; null when none fits. */
function fromResults(results: readonly Product[], page: number, goal: ShopGoal, perPage: number): string[] | null {
  const index = results.findIndex((p) => satisfies(p, goal));
  if (index < 0) return null;
  const target = Math.floor(index / perPage) + 1;
  const paging = Array<string>(Math.abs(target - page)).fill(click(target > page ? BUTTONS.next : BUTTONS.prev));
  return [...paging, click(results[index].id), ...optionsAndBuy(results[index], goal, {})];
}

/** A fresh search's plan, from the search page. */
export function planFromSearch(
  engine: ShopSearch,
  goal: ShopGoal,
  targetTitle: string,
  scale: ShopScale,
): string[] | null {
  for (const query of [expertQuery(goal), targetTitle]) {
    const plan = fromResults(engine.search(query, scale.maxResults), 1, goal, scale.resultsPerPage);
    if (plan) return [`search[${query}]`, ...plan];
  }
  return null;
}

/** The plan from a page without a fresh search: the open or a listed product that satisfies the goal, or null. */
function planOnPage(page: ShopPage, goal: ShopGoal, perPage: number): string[] | null {
  switch (page.kind) {
    case 'search':
      return null;
    case 'results':
      return fromResults(page.results, page.page, goal, perPage);
    case 'item': {
      if (satisfies(page.product, goal)) return optionsAndBuy(page.product, goal, page.chosen);
      const plan = fromResults(page.results, page.page, goal, perPage);
      return plan && [click(BUTTONS.prev), ...plan];
    }
    default: {
      const plan = planOnPage({ ...page, kind: 'item' }, goal, perPage);
      return plan && [click(BUTTONS.prev), ...plan];
    }
  }
}

export function planFrom(site: ShopSite, engine: ShopSearch, goal: ShopGoal, targetTitle: string): string[] {
  if (site.purchase !== null) return [];
  const plan = planOnPage(site.page, goal, site.scale.resultsPerPage);
  if (plan) return plan;
  const fresh = planFromSearch(engine, goal, targetTitle, site.scale);
  if (!fresh) throw new Error(`no search finds a product that satisfies "${goal.instruction}"`);
  return fresh;
}

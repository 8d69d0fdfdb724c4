// A shop episode over one scene, with the household Game's interface: the opening observation, the actions
// the page offers, step() returning { observation, reward, done, won, valid }, a record of every step and
// the expert's plan. The episode ends on Buy Now, with WebShop's reward in [0, 1] (reward.ts) and success
// when it is 1, or after maxSteps actions (valid or not) with reward 0. The penalty for invalid actions
// belongs to the trainer, as in the household.
import { catalogueOf } from './catalogue.ts';
import { planFrom } from './expert.ts';
import { PURCHASE_TEXTS, SEP, type ShopPage } from './pages.ts';
import { shopReward } from './reward.ts';
import { SHOP_FACTS } from './facts.ts';
import type { ShopScene } from './scene.ts';
import { searchEngineOf, type ShopSearch } from './search.ts';
import { canonicalAction, MAX_QUERY_PIECES, ShopSite } from './site.ts';
import { TINY_SHOP, type ShopScale } from './scale.ts';
import { queryTexts } from './vocabulary.ts';
import type { EpisodeStep, FreeTextCommand, StepOutcome } from '../../../env/environment.ts';
import { GameBase } from '../../../env/game.ts';

/** WebShop's step budget in the SEED paper's setting (WorldFacts.maxSteps). */
export const SHOP_MAX_STEPS = SHOP_FACTS.maxSteps;
let searchBar: FreeTextCommand | null = null;

export interface ShopStepRecord extends EpisodeStep {
  /** The page shown after the step. */
  page: ShopPage['kind'];
  /** The last search's query after the step; null before the first. */
  query: string | null;
  /** The product whose page or tab is open (or was bought) after the step; null elsewhere. */
  item: string | null;
}

/**
 * WebShop's score of an episode: the reward of its purchase, which ends it (so it is the last step's), or 0
 * when it ran out of steps first. Success is a score of 1.
 */
export function shopScore(records: readonly Pick<ShopStepRecord, 'reward'>[]): number {
  return records[records.length - 1].reward;
}

export class ShopGame extends GameBase<ShopScene, ShopStepRecord> {
  readonly observation: string;
  private readonly site: ShopSite;
  private readonly engine: ShopSearch;
  private readonly targetTitle: string;

  constructor(scene: ShopScene, options: { maxSteps?: number; scale?: ShopScale } = {}) {
    super(scene, options.maxSteps ?? SHOP_MAX_STEPS);
    const products = catalogueOf(scene.catalogue);
    const target = products.find((p) => p.id === scene.goal.targetId);
    if (!target) throw new RangeError(`the scene's target ${scene.goal.targetId} is not in its catalogue`);
    this.engine = searchEngineOf(products);
    this.targetTitle = target.title;
    this.site = new ShopSite(this.engine, scene.goal.instruction, options.scale ?? TINY_SHOP);
    this.observation = this.site.render();
    this.recordOpening(this.observation, this.where());
  }

  /** Whether the page takes search[query]: every page before the purchase, as in WebShop's text environment. */
  hasSearchBar(): boolean {
    return this.site.hasSearchBar();
  }

  /** The search bar as free text: "search[" then words of the catalogue, then "]"; null once the episode is bought. */
  freeText(): FreeTextCommand | null {
    if (!this.hasSearchBar()) return null;
    searchBar ??= { open: 'search[', close: ']', words: queryTexts(), maxPieces: MAX_QUERY_PIECES };
    return searchBar;
  }

  /** The click actions the page offers, in page order; the search page offers none, only search[...]. */
  admissibleCommands(): string[] {
    return this.site.clickables().map((label) => `click[${label}]`);
  }

  step(action: string): StepOutcome {
    this.countStep();
    const outcome = this.site.apply(action);
    const purchase = this.site.purchase;
    const reward = purchase ? shopReward(purchase.product, purchase.chosen, this.scene.goal).reward : 0;
    // WebShop's last page shows the score of the purchase.
    const observation = purchase
      ? [outcome.observation, PURCHASE_TEXTS.score, reward.toFixed(2)].join(SEP)
      : outcome.observation;
    const result = { observation, reward, won: reward === 1, valid: outcome.valid };
    return this.endStep(result, purchase !== null, canonicalAction(action), this.where());
  }

  /** The expert's plan from the current state to a purchase with reward 1. */
  expertPlan(): string[] {
    return planFrom(this.site, this.engine, this.scene.goal, this.targetTitle);
  }

  private where(): Pick<ShopStepRecord, 'page' | 'query' | 'item'> {
    const page = this.site.page;
    const item = this.site.purchase?.product.id ?? ('product' in page ? page.product.id : null);
    return { page: page.kind, query: page.kind === 'search' ? this.lastQuery() : page.query, item };
  }

  private lastQuery(): string | null {
    return this.records.length > 0 ? this.records[this.records.length - 1].query : null;
  }
}

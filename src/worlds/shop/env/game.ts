// A shop episode over one scene, with the household Game's interface: the opening observation, the actions
// the page offers, step() returning { observation, reward, done, won, valid }, a record of every step and
// the expert's plan. The episode ends on Buy Now, with WebShop's reward in [0, 1] (reward.ts) and success
// when it is 1, or after maxSteps actions (valid or not) with reward 0. The penalty for invalid actions
// belongs to the trainer, as in the household.
import { catalogueOf } from './catalogue.ts';
import { planFrom } from './expert.ts';
import { PURCHASE_TEXTS, SEP, type ShopPage } from './pages.ts';
import { shopReward } from './reward.ts';
import type { ShopScene } from './scene.ts';
import { searchEngineOf, type ShopSearch } from './search.ts';
import { canonicalAction, MAX_QUERY_PIECES, ShopSite } from './site.ts';
import { TINY_SHOP, type ShopScale } from './scale.ts';
import { queryTexts } from './vocabulary.ts';
import type { FreeTextCommand } from '../../../env/environment.ts';

/** WebShop's step budget in the SEED paper's setting. */
export const SHOP_MAX_STEPS = 15;
let searchBar: FreeTextCommand | null = null;

interface ShopStepResult {
  observation: string;
  reward: number;
  done: boolean;
  won: boolean;
  /** False when the page did not offer the action ("Nothing happens."): the state did not change. */
  valid: boolean;
}

export interface ShopStepRecord extends ShopStepResult {
  /** 0 is the opening observation (no action); 1.. are actions. */
  step: number;
  action: string;
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

export class ShopGame {
  readonly scene: ShopScene;
  readonly maxSteps: number;
  readonly observation: string;
  readonly records: ShopStepRecord[] = [];
  private readonly site: ShopSite;
  private readonly engine: ShopSearch;
  private readonly targetTitle: string;
  private stepCount = 0;
  private finished = false;
  private success = false;

  constructor(scene: ShopScene, options: { maxSteps?: number; scale?: ShopScale } = {}) {
    const maxSteps = options.maxSteps ?? SHOP_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1)
      throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
    const products = catalogueOf(scene.catalogue);
    const target = products.find((p) => p.id === scene.goal.targetId);
    if (!target) throw new RangeError(`the scene's target ${scene.goal.targetId} is not in its catalogue`);
    this.scene = scene;
    this.maxSteps = maxSteps;
    this.engine = searchEngineOf(products);
    this.targetTitle = target.title;
    this.site = new ShopSite(this.engine, scene.goal.instruction, options.scale ?? TINY_SHOP);
    this.observation = this.site.render();
    this.records.push({
      step: 0,
      action: '',
      observation: this.observation,
      reward: 0,
      done: false,
      won: false,
      valid: true,
      ...this.where(),
    });
  }

  get steps(): number {
    return this.stepCount;
  }

  get done(): boolean {
    return this.finished;
  }

  get won(): boolean {
    return this.success;
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

  step(action: string): ShopStepResult {
    if (this.finished) throw new Error('the episode is over: no step after done');
    const outcome = this.site.apply(action);
    this.stepCount++;
    const purchase = this.site.purchase;
    const reward = purchase ? shopReward(purchase.product, purchase.chosen, this.scene.goal).reward : 0;
    const won = reward === 1;
    this.success = won;
    this.finished = purchase !== null || this.stepCount >= this.maxSteps;
    // WebShop's last page shows the score of the purchase.
    const observation = purchase
      ? [outcome.observation, PURCHASE_TEXTS.score, reward.toFixed(2)].join(SEP)
      : outcome.observation;
    const result: ShopStepResult = { observation, reward, done: this.finished, won, valid: outcome.valid };
    this.records.push({ ...result, step: this.stepCount, action: canonicalAction(action), ...this.where() });
    return result;
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

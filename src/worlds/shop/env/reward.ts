// WebShop's reward for a purchase, after princeton-nlp/WebShop web_agent_site/engine/goal.py (get_reward,
// get_type_reward, get_attribute_reward, get_option_reward):
//   r = r_type * (|U_att ∩ Y_att| + |U_opt ∩ Y_opt| + 1[y_price <= u_price]) / (|U_att| + |U_opt| + 1)
// r_type is 1 when the types match; 0.5 when neither the listing query, nor two category-path segments, nor
// more than 20% of the goal's title nouns match; 0.1 when under 10% of the nouns match; 0 when none do.
// Departures, because the catalogue's words are closed lists: spaCy's noun tagging of the two titles is
// replaced by each product's declared type nouns, and the fuzzy matching (token-set ratio over 85) by exact
// matching. An attribute also counts when the bought product's title contains it, as in WebShop.
import type { Product } from './catalogue.ts';

/** What the instruction asks for, with the target's type data for the type match. */
export interface GoalRequirements {
  query: string;
  path: readonly string[];
  nouns: readonly string[];
  attributes: readonly string[];
  options: Readonly<Record<string, string>>;
  priceUpperCents: number;
}

export interface RewardParts {
  reward: number;
  typeFactor: number;
  attributeMatches: number;
  optionMatches: number;
  priceMatch: boolean;
}

export function typeReward(
  bought: Pick<Product, 'query' | 'path' | 'nouns'>,
  goal: Pick<GoalRequirements, 'query' | 'path' | 'nouns'>,
): number {
  const queryMatch = bought.query === goal.query;
  const goalPath = new Set(goal.path);
  const categoryMatch = new Set(bought.path.filter((p) => goalPath.has(p))).size >= 2;
  const desired = new Set(goal.nouns.map((n) => n.toLowerCase()));
  const boughtNouns = new Set(bought.nouns.map((n) => n.toLowerCase()));
  const shared = [...desired].filter((n) => boughtNouns.has(n)).length;
  const titleScore = desired.size === 0 ? 0.2 : shared / desired.size;
  let factor = queryMatch || categoryMatch || titleScore > 0.2 ? 1 : 0.5;
  if (titleScore < 0.1) factor = 0.1;
  if (titleScore === 0) factor = 0;
  return factor;
}

/** The reward of buying `bought` with the chosen options (option name to value) against the goal. */
export function shopReward(
  bought: Product,
  chosen: Readonly<Record<string, string>>,
  goal: GoalRequirements,
): RewardParts {
  const title = bought.title.toLowerCase();
  const attributeMatches = goal.attributes.filter((a) => bought.attributes.includes(a) || title.includes(a)).length;
  const wanted = new Set(Object.values(goal.options));
  const optionMatches = Object.values(chosen).filter((value) => wanted.has(value)).length;
  const priceMatch = bought.priceCents <= goal.priceUpperCents;
  const typeFactor = typeReward(bought, goal);
  const total = goal.attributes.length + Object.keys(goal.options).length + 1;
  const reward = (typeFactor * (attributeMatches + optionMatches + (priceMatch ? 1 : 0))) / total;
  return { reward, typeFactor, attributeMatches, optionMatches, priceMatch };
}

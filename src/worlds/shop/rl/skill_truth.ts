// Whether a shop skill's claims about the goal are true (the household's place claims are in skill_truth.ts). A
// shop skill states what the instruction wants in three ways, each checked against the scene's goal:
//   an option ("choose the navy color", "buying before choosing the large size"): true when it names a goal
//     option value, alone or with its option's name ("navy", "navy color", "warm light color");
//   an item's title ("click an item whose title says regular fit", "buying an item whose title lacks oxford
//     shirt"): true when every word is a word of the goal's attributes or product type;
//   a price bound ("priced under 40 dollars", "the price bound was 40 dollars"): true when it is the goal's.
// What the skill says is wanted is read by where it stands: a step of a workflow, a fact, "forgetting to", the
// second half of "before" and "instead of" say what is wanted; the first half of a mistake says what went
// wrong, so an option or a title that "says" there is claimed unwanted, and a title that "lacks" is claimed
// wanted (the item should have had it). "the instruction asked for ..." claims its runs are goal words. The
// words of a search are no claim (any query may find the item), nor what an item offered or cost, nor what
// "nothing happens after".
import type { ShopGoal } from '../env/goal.ts';
import {
  centsOfPrice,
  shopOptionTerms,
  shopTerms,
  type ItemDescription,
  type ShopAction,
  type ShopFact,
  type ShopMistake,
} from '../skills/skill.ts';
import { parseShopSkill } from '../skills/parser.ts';

/** A skill's statement about the goal: an option value or title words, wanted or not, or a price bound. */
type GoalClaim =
  | { about: 'option' | 'title' | 'asked'; terms: readonly string[]; wanted: boolean }
  | { about: 'price'; cents: number };

/** The claims of a parsed shop skill, in the order of its text. */
function goalClaims(skill: NonNullable<ReturnType<typeof parseShopSkill>['skill']>): GoalClaim[] {
  const claims: GoalClaim[] = [];
  const item = (d: ItemDescription | undefined, wanted: boolean) => {
    if (d?.title) claims.push({ about: 'title', terms: d.title.terms, wanted: d.title.lacks !== wanted });
    if (d?.price) claims.push({ about: 'price', cents: centsOfPrice(d.price.price) });
  };
  const action = (a: ShopAction, wanted: boolean) => {
    if (a.verb === 'choose') for (const terms of a.options) claims.push({ about: 'option', terms, wanted });
    if (a.verb === 'click' || a.verb === 'buy') item(a.item, wanted);
  };
  const mistake = (m: ShopMistake) => {
    if (m.kind === 'invalid' || m.kind === 'steps') return;
    action(m.action, m.kind === 'forgetting');
    if (m.kind === 'before') action(m.then, true);
    if (m.kind === 'instead') action(m.of, true);
  };
  const fact = (f: ShopFact) => {
    if (f.kind === 'page') item(f.item, true);
    else if (f.kind === 'bound') claims.push({ about: 'price', cents: centsOfPrice(f.price) });
    else if (f.kind === 'asked') for (const terms of f.terms) claims.push({ about: 'asked', terms, wanted: true });
    else if (f.kind === 'first') action(f.action, true);
    else if (f.kind === 'order') {
      action(f.action, true);
      action(f.then, true);
    }
  };
  if (skill.kind === 'workflow') for (const a of skill.actions) action(a, true);
  else {
    mistake(skill.mistake);
    skill.signs.forEach(fact);
  }
  skill.facts.forEach(fact);
  return claims;
}

/** Whether a claim holds of the goal. */
function holds(claim: GoalClaim, goal: ShopGoal): boolean {
  if (claim.about === 'price') return claim.cents === goal.priceUpperCents;
  const options = Object.entries(goal.options).flatMap(([name, value]) =>
    [shopTerms(value), shopOptionTerms(name, value)].map((t) => t.join(' ')),
  );
  const titleWords = new Set(shopTerms([...goal.attributes, goal.typeName].join(' ')));
  const inTitle = claim.terms.every((w) => w === '-' || titleWords.has(w));
  switch (claim.about) {
    case 'option':
      return options.includes(claim.terms.join(' ')) === claim.wanted;
    case 'title':
      return inTitle === claim.wanted;
    case 'asked':
      return inTitle || options.includes(claim.terms.join(' '));
  }
}

export interface ShopSkillTruth {
  /** Claims about the goal that hold, and that do not. */
  trueClaims: number;
  falseClaims: number;
}

/** What a shop skill text claims about the goal; a skill that does not parse claims nothing. */
export function shopSkillTruth(text: string, goal: ShopGoal): ShopSkillTruth {
  const skill = parseShopSkill(text).skill;
  const claims = skill === null ? [] : goalClaims(skill);
  const trueClaims = claims.filter((c) => holds(c, goal)).length;
  return { trueClaims, falseClaims: claims.length - trueClaims };
}

/** Over skills and their goals: the shares stating a true and a false claim, and the true share of all claims. */
export interface ShopTruthShares {
  claimTrue: number;
  claimFalse: number;
  /** True claims over all claims; null when no skill claims anything. */
  trueShare: number | null;
}

/** The shares over skills and their goals; null when there is none. */
export function shopTruthShares(skills: readonly { text: string; goal: ShopGoal }[]): ShopTruthShares | null {
  if (skills.length === 0) return null;
  const truths = skills.map((s) => shopSkillTruth(s.text, s.goal));
  const trueClaims = truths.reduce((n, t) => n + t.trueClaims, 0);
  const all = truths.reduce((n, t) => n + t.trueClaims + t.falseClaims, 0);
  return {
    claimTrue: truths.filter((t) => t.trueClaims > 0).length / skills.length,
    claimFalse: truths.filter((t) => t.falseClaims > 0).length / skills.length,
    trueShare: all === 0 ? null : trueClaims / all,
  };
}

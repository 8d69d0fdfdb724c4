// Parts of a shop skill, for the controls that give the teacher a part of the trajectory's own skill
// (docs/seed-loss.md, "Part controls"), as the household's parts.ts gives its own. Each reads the skill into its
// structure (parser.ts), keeps one part and writes it back in the grammar's words (the shape's
// transforms are src/text/skill_language/parts.ts; the shop gives what its steps become and state):
// - the procedure: every run of terms (query words, title words, an option's value and name) and every price
//   becomes "this", a word of the vocabulary that no title, option or instruction holds, so that a placeholder
//   does not read as a fact; an option stays one "the this" per option chosen. The fact sentences (pages, the price bound,
//   what the item cost, offered, lacked or was titled, what the instruction asked for) go; the steps, their order
//   ("choose the this before buying"), whether a title says or lacks words, whether a price is under or over,
//   the mistake and "nothing happens after ..." stay.
//   "workflow: search for cotton shirt, click an item whose title says cotton priced under 30 dollars, choose
//   the large size, buy now. the item cost 24 dollars." -> "workflow: search for this, click an item whose title
//   says this priced under this dollars, choose the this, buy now."
// - the facts: the fact sentences, and those its steps state: choosing options says "the item offered" them. A
//   step that did nothing ("nothing happens after ...") or was never taken ("forgetting to ...") states nothing.
//   The example above gives "the item offered the large size. the item cost 24 dollars."; a skill that states no
//   fact gives "".
import { skillParts } from '../../../text/skill_language/parts.ts';
import {
  formatShopFacts,
  formatShopSkill,
  SHOP_SHAPE,
  type ItemDescription,
  type ShopAction,
  type ShopFact,
} from './skill.ts';
import { parseShopSkill } from './parser.ts';

/** The placeholder of every term run and price. */
const SOME = 'this';

function procedureItem(item: ItemDescription): ItemDescription {
  return {
    ...(item.title ? { title: { lacks: item.title.lacks, terms: [SOME] } } : {}),
    ...(item.price ? { price: { over: item.price.over, price: { dollars: SOME } } } : {}),
  };
}

function procedureAction(a: ShopAction): ShopAction {
  switch (a.verb) {
    case 'search':
      return a.terms ? { verb: 'search', terms: [SOME] } : a;
    case 'click':
      return { verb: 'click', item: procedureItem(a.item) };
    case 'next':
    case 'back':
      return a;
    case 'choose':
      return { verb: 'choose', options: a.options.map(() => [SOME]) };
    case 'buy':
      return a.item ? { verb: 'buy', item: procedureItem(a.item) } : a;
  }
}

/** The facts a step states about this game, when it was taken. */
function actionFacts(a: ShopAction): ShopFact[] {
  return a.verb === 'choose' ? [{ kind: 'offered', offered: true, options: a.options }] : [];
}

const PARTS = skillParts({
  name: SHOP_SHAPE.name,
  parse: parseShopSkill,
  formatPart: formatShopSkill,
  formatFacts: formatShopFacts,
  procedureAction,
  procedureOf: procedureAction,
  actionFacts,
});

/** The shop skill's procedure: its fact sentences removed, its terms and prices "this". */
export const shopSkillProcedure = (text: string): string => PARTS.procedure(text);

/** The shop skill's instance facts as sentences, in the skill's order, each once; "" when it states none. */
export const shopSkillFacts = (text: string): string => PARTS.facts(text);

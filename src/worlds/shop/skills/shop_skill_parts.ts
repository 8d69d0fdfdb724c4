// Parts of a shop skill, for the controls that give the teacher a part of the trajectory's own skill
// (docs/seed-loss.md, "Part controls"), as skill_parts.ts gives the household's. Each reads the skill into its
// structure (shop_skill_parser.ts), keeps one part and writes it back in the grammar's words:
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
import {
  formatShopFacts,
  formatShopSkill,
  type ItemDescription,
  type ShopAction,
  type ShopFact,
  type ShopMistake,
  type ShopSkill,
} from './shop_skill.ts';
import { parseShopSkill } from './shop_skill_parser.ts';

/** The placeholder of every term run and price. */
const SOME = 'this';

function parsed(text: string): ShopSkill {
  const { skill, reason } = parseShopSkill(text);
  if (!skill) throw new RangeError(`the shop skill does not parse (${reason}): ${JSON.stringify(text)}`);
  return skill;
}

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

function procedureMistake(m: ShopMistake): ShopMistake {
  switch (m.kind) {
    case 'doing':
    case 'forgetting':
      return { kind: m.kind, action: procedureAction(m.action) };
    case 'before':
      // biome-ignore lint/suspicious/noThenProperty: the grammar's second step, never awaited
      return { kind: 'before', action: procedureAction(m.action), then: procedureAction(m.then) };
    case 'instead':
      return { kind: 'instead', action: procedureAction(m.action), of: procedureAction(m.of) };
    case 'invalid':
    case 'steps':
      return m;
  }
}

/** A fact sentence of the procedure: a rule, an order or a step that did nothing; null for a fact of this game. */
function procedureFact(f: ShopFact): ShopFact | null {
  switch (f.kind) {
    case 'page':
    case 'bound':
    case 'cost':
    case 'offered':
    case 'titled':
    case 'asked':
      return null;
    case 'nothing':
      return f.after ? { kind: 'nothing', after: procedureAction(f.after) } : f;
    case 'first':
      return { kind: 'first', action: procedureAction(f.action) };
    case 'order':
      // biome-ignore lint/suspicious/noThenProperty: the grammar's second step, never awaited
      return { kind: 'order', action: procedureAction(f.action), then: procedureAction(f.then) };
  }
}

function procedureFacts(facts: readonly ShopFact[]): ShopFact[] {
  return facts.map(procedureFact).filter((f): f is ShopFact => f !== null);
}

/** The shop skill's procedure: its fact sentences removed, its terms and prices "this". */
export function shopSkillProcedure(text: string): string {
  const s = parsed(text);
  const facts = procedureFacts(s.facts);
  return formatShopSkill(
    s.kind === 'workflow'
      ? { kind: 'workflow', actions: s.actions.map(procedureAction), facts }
      : { kind: 'avoid', mistake: procedureMistake(s.mistake), signs: procedureFacts(s.signs), facts },
  );
}

/** The facts a step states about this game, when it was taken. */
function actionFacts(a: ShopAction): ShopFact[] {
  return a.verb === 'choose' ? [{ kind: 'offered', offered: true, options: a.options }] : [];
}

function mistakeFacts(m: ShopMistake): ShopFact[] {
  switch (m.kind) {
    case 'doing':
    case 'instead':
      return actionFacts(m.action);
    case 'before':
      return [...actionFacts(m.action), ...actionFacts(m.then)];
    case 'forgetting':
    case 'invalid':
    case 'steps':
      return [];
  }
}

function factFacts(f: ShopFact): ShopFact[] {
  switch (f.kind) {
    case 'nothing':
      return [];
    case 'first':
      return actionFacts(f.action);
    case 'order':
      return [...actionFacts(f.action), ...actionFacts(f.then)];
    default:
      return [f];
  }
}

/** The shop skill's instance facts as sentences, in the skill's order, each once; "" when it states none. */
export function shopSkillFacts(text: string): string {
  const s = parsed(text);
  const head =
    s.kind === 'workflow'
      ? s.actions.flatMap(actionFacts)
      : [...mistakeFacts(s.mistake), ...s.signs.flatMap(factFacts)];
  const sentences = [...head, ...s.facts.flatMap(factFacts)].map((f) => formatShopFacts([f]));
  return [...new Set(sentences)].join(' ');
}

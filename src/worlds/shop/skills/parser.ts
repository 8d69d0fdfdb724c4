// Reading a shop skill's text back into its structure (the grammar is in skill.ts, with the formatter): a
// skill is usable for on-policy distillation only when it parses and holds at least MIN_SHOP_SKILL_WORDS words.
import {
  type SkillCheck,
  type SkillReader,
  type SkillReading,
  skillParser,
} from '../../../text/skill_language/reading.ts';
import {
  isContentWord,
  SHOP_SHAPE,
  type ItemDescription,
  type ShopAction,
  type ShopFact,
  type ShopPrice,
  type ShopSkill,
} from './skill.ts';

/** TERMS: content words, "-" only between two of them. */
const readTerms = (r: SkillReader) => r.run(isContentWord, 'a content word', '-');

function readNumber(r: SkillReader): string {
  const w = r.peek();
  if (w === undefined || !/^[0-9]+$/.test(w)) r.fail('a number');
  r.i++;
  return w;
}

function readPrice(r: SkillReader): ShopPrice {
  const dollars = readNumber(r);
  const price: ShopPrice = r.accept('.') ? { dollars, cents: readNumber(r) } : { dollars };
  r.expect('dollars');
  return price;
}

function readItem(r: SkillReader): ItemDescription {
  const item: ItemDescription = {};
  if (r.accept('whose')) {
    r.expect('title');
    const lacks = r.oneOf(['says', 'lacks']) === 'lacks';
    item.title = { lacks, terms: readTerms(r) };
  }
  if (r.accept('priced')) {
    const over = r.oneOf(['under', 'over']) === 'over';
    item.price = { over, price: readPrice(r) };
  }
  return item;
}

function readOptions(r: SkillReader): string[][] {
  const options: string[][] = [];
  do {
    r.expect('the');
    options.push(readTerms(r));
  } while (r.accept('and'));
  return options;
}

const IMPERATIVES = ['search', 'click', 'go', 'choose', 'buy'] as const;
const GERUNDS = ['searching', 'clicking', 'going', 'choosing', 'buying'] as const;

function readAction(r: SkillReader, gerund: boolean): ShopAction {
  const verb = IMPERATIVES[gerund ? GERUNDS.indexOf(r.oneOf(GERUNDS)) : IMPERATIVES.indexOf(r.oneOf(IMPERATIVES))];
  switch (verb) {
    case 'search':
      if (r.accept('again')) return { verb };
      r.expect('for');
      return { verb, terms: readTerms(r) };
    case 'click':
      if (r.accept('next')) return { verb: 'next' };
      r.expect('an');
      r.expect('item');
      return { verb, item: readItem(r) };
    case 'go':
      for (const w of ['back', 'to', 'search']) r.expect(w);
      return { verb: 'back' };
    case 'choose':
      return { verb, options: readOptions(r) };
    case 'buy':
      if (!gerund) {
        r.expect('now');
        return { verb };
      }
      if (!r.accept('an')) return { verb };
      r.expect('item');
      return { verb, item: readItem(r) };
  }
}

function readTheFact(r: SkillReader): ShopFact {
  const what = r.oneOf(['first', 'next', 'price', 'item', 'instruction']);
  switch (what) {
    case 'first':
    case 'next': {
      r.expect('page');
      r.expect('had');
      const had = r.oneOf(['no', 'an']) === 'an';
      r.expect('item');
      return { kind: 'page', which: what, had, item: readItem(r) };
    }
    case 'price':
      r.expect('bound');
      r.expect('was');
      return { kind: 'bound', price: readPrice(r) };
    case 'item': {
      const verb = r.oneOf(['cost', 'offered', 'lacked', 'was']);
      if (verb === 'cost') return { kind: 'cost', price: readPrice(r) };
      if (verb === 'was') {
        r.expect('titled');
        return { kind: 'titled', terms: readTerms(r) };
      }
      return { kind: 'offered', offered: verb === 'offered', options: readOptions(r) };
    }
    case 'instruction': {
      r.expect('asked');
      r.expect('for');
      const terms = [readTerms(r)];
      while (r.accept('and')) terms.push(readTerms(r));
      return { kind: 'asked', terms };
    }
  }
}

/** A fact of the shop's own (they all start with "the"), or undefined. */
function readOwnFact(r: SkillReader): ShopFact | undefined {
  return r.accept('the') ? readTheFact(r) : undefined;
}

const READING: SkillReading<ShopAction, ShopFact, ShopAction> = {
  readAction,
  readOwnFact,
  startsStep: (r) => (IMPERATIVES as readonly string[]).includes(r.peek() ?? ''),
  readOf: (r) => readAction(r, true),
  factExpected: 'a fact ("the", "nothing happens" or a step)',
};

/** Parses and validates a shop skill: it must follow the grammar of skill.ts and hold at least MIN_SHOP_SKILL_WORDS words. */
export const parseShopSkill: (text: string) => SkillCheck<ShopSkill> = skillParser(SHOP_SHAPE, READING);

// Reading a shop skill's text back into its structure (the grammar is in shop_skill.ts, with the formatter): a
// skill is usable for on-policy distillation only when it parses and holds at least MIN_SHOP_SKILL_WORDS words.
import { isWordPiece, splitPieces } from '../../../text/pieces.ts';
import { skillKindOfPieces, type SkillKind } from '../../../text/skill_kind.ts';
import {
  MIN_SHOP_SKILL_WORDS,
  isContentWord,
  type ItemDescription,
  type ShopAction,
  type ShopFact,
  type ShopMistake,
  type ShopPrice,
  type ShopSkill,
} from './shop_skill.ts';

class ShopSkillSyntaxError extends Error {}

const isNumber = (w: string | undefined) => w !== undefined && /^[0-9]+$/.test(w);

class Reader {
  i = 0;
  constructor(readonly words: readonly string[]) {}

  peek(offset = 0): string | undefined {
    return this.words[this.i + offset];
  }

  fail(expected: string): never {
    const got = this.peek();
    throw new ShopSkillSyntaxError(
      got === undefined
        ? `the skill ends where ${expected} was expected`
        : `expected ${expected} ${this.i === 0 ? 'at the start' : `after "${this.words[this.i - 1]}"`}, got "${got}"`,
    );
  }

  accept(word: string): boolean {
    if (this.peek() !== word) return false;
    this.i++;
    return true;
  }

  expect(word: string): void {
    if (!this.accept(word)) this.fail(`"${word}"`);
  }

  /** One of several words, which it returns. */
  oneOf<T extends string>(words: readonly T[]): T {
    const w = this.peek();
    if (!words.includes(w as T)) this.fail(words.map((x) => `"${x}"`).join(' or '));
    this.i++;
    return w as T;
  }

  /** TERMS: content words, "-" only between two of them. */
  terms(): string[] {
    if (!isContentWord(this.peek() ?? '')) this.fail('a content word');
    const out = [this.words[this.i++]];
    for (;;) {
      if (isContentWord(this.peek() ?? '')) out.push(this.words[this.i++]);
      else if (this.peek() === '-' && isContentWord(this.peek(1) ?? ''))
        out.push(this.words[this.i++], this.words[this.i++]);
      else return out;
    }
  }

  number(): string {
    if (!isNumber(this.peek())) this.fail('a number');
    return this.words[this.i++];
  }
}

function readPrice(r: Reader): ShopPrice {
  const dollars = r.number();
  const price: ShopPrice = r.accept('.') ? { dollars, cents: r.number() } : { dollars };
  r.expect('dollars');
  return price;
}

function readItem(r: Reader): ItemDescription {
  const item: ItemDescription = {};
  if (r.accept('whose')) {
    r.expect('title');
    const lacks = r.oneOf(['says', 'lacks']) === 'lacks';
    item.title = { lacks, terms: r.terms() };
  }
  if (r.accept('priced')) {
    const over = r.oneOf(['under', 'over']) === 'over';
    item.price = { over, price: readPrice(r) };
  }
  return item;
}

function readOptions(r: Reader): string[][] {
  const options: string[][] = [];
  do {
    r.expect('the');
    options.push(r.terms());
  } while (r.accept('and'));
  return options;
}

const IMPERATIVES = ['search', 'click', 'go', 'choose', 'buy'] as const;
const GERUNDS = ['searching', 'clicking', 'going', 'choosing', 'buying'] as const;

function readAction(r: Reader, gerund: boolean): ShopAction {
  const verb = IMPERATIVES[gerund ? GERUNDS.indexOf(r.oneOf(GERUNDS)) : IMPERATIVES.indexOf(r.oneOf(IMPERATIVES))];
  switch (verb) {
    case 'search':
      if (r.accept('again')) return { verb };
      r.expect('for');
      return { verb, terms: r.terms() };
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

function readMistake(r: Reader): ShopMistake {
  if (r.accept('forgetting')) {
    r.expect('to');
    return { kind: 'forgetting', action: readAction(r, false) };
  }
  if (r.accept('invalid')) {
    r.expect('actions');
    return { kind: 'invalid' };
  }
  if (r.accept('running')) {
    for (const w of ['out', 'of', 'steps']) r.expect(w);
    return { kind: 'steps' };
  }
  const action = readAction(r, true);
  if (r.accept('before')) return { kind: 'before', action, then: readAction(r, true) };
  if (r.accept('instead')) {
    r.expect('of');
    return { kind: 'instead', action, of: readAction(r, true) };
  }
  return { kind: 'doing', action };
}

function readTheFact(r: Reader): ShopFact {
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
        return { kind: 'titled', terms: r.terms() };
      }
      return { kind: 'offered', offered: verb === 'offered', options: readOptions(r) };
    }
    case 'instruction': {
      r.expect('asked');
      r.expect('for');
      const terms = [r.terms()];
      while (r.accept('and')) terms.push(r.terms());
      return { kind: 'asked', terms };
    }
  }
}

function readFact(r: Reader): ShopFact {
  if (r.accept('the')) return readTheFact(r);
  if (r.accept('nothing')) {
    r.expect('happens');
    return r.accept('after') ? { kind: 'nothing', after: readAction(r, true) } : { kind: 'nothing' };
  }
  if ((IMPERATIVES as readonly string[]).includes(r.peek() ?? '')) {
    const action = readAction(r, false);
    if (r.accept('before')) return { kind: 'order', action, then: readAction(r, true) };
    r.expect('first');
    return { kind: 'first', action };
  }
  return r.fail('a fact ("the", "nothing happens" or a step)');
}

function readSkill(r: Reader): ShopSkill {
  let skill: ShopSkill;
  if (r.accept('workflow')) {
    r.expect(':');
    const actions = [readAction(r, false)];
    while (r.accept(',')) actions.push(readAction(r, false));
    skill = { kind: 'workflow', actions, facts: [] };
  } else if (r.accept('avoid')) {
    r.expect(':');
    const mistake = readMistake(r);
    const signs: ShopFact[] = [];
    while (r.accept(';')) signs.push(readFact(r));
    skill = { kind: 'avoid', mistake, signs, facts: [] };
  } else {
    return r.fail('"workflow" or "avoid"');
  }
  r.expect('.');
  while (r.peek() !== undefined) {
    skill.facts.push(readFact(r));
    r.expect('.');
  }
  return skill;
}

interface ShopSkillCheck {
  /** True when the skill is usable for on-policy distillation. */
  ok: boolean;
  /** The kind named by the first word, when there is one. */
  kind: SkillKind | null;
  /** Why the skill is unusable; empty when ok. */
  reason: string;
  skill: ShopSkill | null;
}

/** Parses and validates a shop skill: it must follow the grammar of shop_skill.ts and hold at least MIN_SHOP_SKILL_WORDS words. */
export function parseShopSkill(text: string): ShopSkillCheck {
  const words = splitPieces(text.toLowerCase()).filter((p) => p !== '\n');
  const kind = skillKindOfPieces(words);
  const count = words.filter(isWordPiece).length;
  if (count < MIN_SHOP_SKILL_WORDS)
    return {
      ok: false,
      kind,
      reason: `too short: ${count} words, at least ${MIN_SHOP_SKILL_WORDS} needed`,
      skill: null,
    };
  try {
    return { ok: true, kind, reason: '', skill: readSkill(new Reader(words)) };
  } catch (err) {
    if (err instanceof ShopSkillSyntaxError) return { ok: false, kind, reason: err.message, skill: null };
    throw err;
  }
}

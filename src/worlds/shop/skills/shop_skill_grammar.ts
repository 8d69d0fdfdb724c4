// Constrained decoding of a shop skill: the grammar of shop_skill.ts as a finite automaton over symbols (literal
// words, WORD: a content word, NUMBER: a piece of digits), run over tokens, so that the analyzer can only write
// text that parseShopSkill accepts. It is built with the household automaton's builders (skill_automaton.ts)
// and has the interface of SkillGrammar (skill_grammar.ts): a prefix, its allowed-token bitmask in the
// backend's format, next(), complete(), an entity filter and the masks a skill was decoded under.
//
// A token is read by where it stands: as a grammar word where the state has that word's edge, as NUMBER where
// it is digits and the state takes a number, else as WORD where it is a content word (any word piece but the
// CONTENT_STOPS) and the state takes one. The automaton is checked when built so that no state could read a
// token two ways: a state that takes WORD has no literal word edge but a stop, and none takes both WORD and
// NUMBER. The parser's runs of TERMS end exactly where the automaton's do, so both accept the same texts.
// Tokens match grammar words case-insensitively, as parseShopSkill does.
//
// The mask of a prefix holds every token that keeps it completable into a valid skill (it parses and has at
// least MIN_SHOP_SKILL_WORDS words) within maxTokens tokens, and the end token only when the prefix is such a
// skill; below the shortest valid skill the budget is ignored, as in the household. The entity filter limits
// WORD and NUMBER to the words of a trajectory (its instruction, queries, titles, options, prices), leaving a
// class whole when the trajectory has none of it, so that every symbol keeps a token and a mask never leads
// into a dead end.
import { MARKERS } from '../../../text/markers.ts';
import { isWordPiece } from '../../../text/pieces.ts';
import {
  CONTENT_STOPS,
  MIN_SHOP_SKILL_WORDS,
  SHOP_GERUND,
  SHOP_IMPERATIVE,
  isContentWord,
  type ShopAction,
} from './shop_skill.ts';
import {
  ANY_PLACE,
  NUMBER,
  alt,
  determinise,
  distances,
  isWordSymbol,
  opt,
  seq,
  star,
  type Dfa,
  type Distances,
  type Rx,
} from '../../../text/skill_automaton.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';

const WORD = '#word';
/** The most times a content word stands in a row in a skill the decoder writes (allowed()). */
const MAX_WORD_RUN = 2;

// ---- the grammar of shop_skill.ts over symbols ----

// The builders' opt() joins at the end node of its body, and a star's end node loops back into it: a run that
// ends in a star is closed by a one-branch alt (a fresh end node), so that skipping an optional part never
// lands inside the loop.
const closed = (rx: Rx): Rx => alt(rx);
const terms = closed(seq(WORD, star(seq(opt('-'), WORD))));
const price = seq(NUMBER, opt(seq('.', NUMBER)), 'dollars');
const item = seq(
  opt(seq('whose', 'title', alt('says', 'lacks'), terms)),
  opt(seq('priced', alt('under', 'over'), price)),
);
const options = seq('the', terms, star(seq('and', 'the', terms)));

function step(gerund: boolean): Rx {
  const v = (verb: ShopAction['verb']) => (gerund ? SHOP_GERUND[verb] : SHOP_IMPERATIVE[verb]);
  return alt(
    seq(v('search'), alt(seq('for', terms), 'again')),
    seq(v('click'), alt(seq('an', 'item', item), 'next')),
    seq(v('back'), 'back', 'to', 'search'),
    seq(v('choose'), options),
    gerund ? seq(v('buy'), opt(seq('an', 'item', item))) : seq(v('buy'), 'now'),
  );
}

const mistake = alt(
  seq(step(true), opt(alt(seq('before', step(true)), seq('instead', 'of', step(true))))),
  seq('forgetting', 'to', step(false)),
  seq('invalid', 'actions'),
  seq('running', 'out', 'of', 'steps'),
);
const fact = alt(
  seq('the', alt('first', 'next'), 'page', 'had', alt('no', 'an'), 'item', item),
  seq('the', 'price', 'bound', 'was', price),
  seq('the', 'item', alt(seq('cost', price), seq(alt('offered', 'lacked'), options), seq('was', 'titled', terms))),
  seq('the', 'instruction', 'asked', 'for', terms, star(seq('and', terms))),
  seq('nothing', 'happens', opt(seq('after', step(true)))),
  seq(step(false), alt('first', seq('before', step(true)))),
);
const SHOP_SKILL_RX = seq(
  alt(seq('workflow', ':', step(false), star(seq(',', step(false)))), seq('avoid', ':', mistake, star(seq(';', fact)))),
  '.',
  star(seq(fact, '.')),
);

/** Where a decoded shop skill prefix stands. */
export interface ShopSkillPrefix {
  readonly state: number;
  readonly words: number;
  readonly tokens: number;
  /** The content word token the prefix ends on, else -1, and how many times in a row it stands there (allowed()). */
  readonly lastWord: number;
  readonly lastWordRun: number;
}

/** The content tokens a skill may use (entityFilter): bit set for each WORD and NUMBER token it keeps. */
export interface ShopEntityFilter {
  readonly words: Uint32Array;
  readonly numbers: Uint32Array;
}

const bit = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;
const set = (mask: Uint32Array, id: number) => (mask[id >>> 5] |= 1 << (id & 31));

export class ShopSkillGrammar {
  readonly maskWords: number;
  readonly initial: ShopSkillPrefix = { state: 0, words: 0, tokens: 0, lastWord: -1, lastWordRun: 0 };
  /** Tokens (end token excluded) of the shortest valid skill. */
  readonly shortest: number;
  private readonly dfa: Dfa;
  private readonly table: Distances;
  /** Token ids of each symbol (a grammar word: its case variants; WORD and NUMBER: their classes). */
  private readonly symbolTokens = new Map<string, number[]>();
  /** The grammar word each token is (lower case), else undefined. */
  private readonly literal: (string | undefined)[];
  private readonly maskCache = new Map<string, Uint32Array>();

  constructor(private readonly tok: Tokenizer) {
    this.maskWords = Math.ceil(tok.vocabSize / 32);
    this.dfa = determinise(SHOP_SKILL_RX);
    const symbols = new Set<string>();
    for (const edges of this.dfa.next) {
      for (const sym of edges.keys()) symbols.add(sym);
      if (edges.has(WORD) && edges.has(NUMBER))
        throw new RangeError('a state of the shop skill automaton takes both a content word and a number');
      if (!edges.has(WORD)) continue;
      for (const sym of edges.keys()) {
        if (sym !== WORD && isWordPiece(sym) && !CONTENT_STOPS.has(sym))
          throw new RangeError(`the grammar word "${sym}" may follow a content word but is no content stop`);
      }
    }
    const markers = new Set<string>(MARKERS);
    this.literal = tok.tokens.map((t) =>
      !markers.has(t) && symbols.has(t.toLowerCase()) ? t.toLowerCase() : undefined,
    );
    const add = (sym: string, id: number) => this.symbolTokens.set(sym, [...(this.symbolTokens.get(sym) ?? []), id]);
    tok.tokens.forEach((t, id) => {
      if (markers.has(t)) return;
      const literal = this.literal[id];
      if (literal !== undefined) add(literal, id);
      if (isContentWord(t)) add(WORD, id);
      if (/^[0-9]+$/.test(t)) add(NUMBER, id);
    });
    for (const sym of symbols)
      if (!this.symbolTokens.get(sym)?.length)
        throw new RangeError(`the vocabulary has no token for the shop skill symbol "${sym}"`);
    this.table = distances(this.dfa, MIN_SHOP_SKILL_WORDS, 1 << ANY_PLACE);
    this.shortest = this.table.at(0, ANY_PLACE, MIN_SHOP_SKILL_WORDS);
  }

  /** The symbol a token is read as in a state, or undefined when the state has no edge for it. */
  private symbolAt(state: number, token: number): string | undefined {
    const edges = this.dfa.next[state];
    const literal = this.literal[token];
    if (literal !== undefined && edges.has(literal)) return literal;
    const t = this.tok.token(token);
    if (edges.has(NUMBER) && /^[0-9]+$/.test(t)) return NUMBER;
    if (edges.has(WORD) && isContentWord(t)) return WORD;
    return undefined;
  }

  /** The prefix after `token`, or null when the grammar does not allow it (the end token included). */
  next(prefix: ShopSkillPrefix, token: number): ShopSkillPrefix | null {
    const sym = this.symbolAt(prefix.state, token);
    if (sym === undefined) return null;
    return {
      state: this.dfa.next[prefix.state].get(sym)!,
      words: prefix.words + (isWordSymbol(sym) ? 1 : 0),
      tokens: prefix.tokens + 1,
      lastWord: sym === WORD ? token : -1,
      lastWordRun: sym !== WORD ? 0 : token === prefix.lastWord ? prefix.lastWordRun + 1 : 1,
    };
  }

  /** The prefix reached by a token sequence, or null when it leaves the grammar. */
  walk(ids: readonly number[]): ShopSkillPrefix | null {
    let prefix: ShopSkillPrefix | null = this.initial;
    for (const id of ids) {
      prefix = this.next(prefix, id);
      if (prefix === null) return null;
    }
    return prefix;
  }

  /** True when the prefix is a whole valid skill: the end token may follow. */
  complete(prefix: ShopSkillPrefix): boolean {
    return this.dfa.accepting[prefix.state] && prefix.words >= MIN_SHOP_SKILL_WORDS;
  }

  /**
   * The filter of a trajectory's words (compared in lower case): the content words and numbers among them; a
   * class of which they hold no token is left whole, so the grammar can still complete.
   */
  entityFilter(words: Iterable<string>): ShopEntityFilter {
    const named = new Set(Array.from(words, (w) => w.toLowerCase()));
    const keep = (sym: string) => {
      const ids = this.symbolTokens.get(sym) ?? [];
      const mask = new Uint32Array(this.maskWords);
      const kept = ids.filter((id) => named.has(this.tok.token(id).toLowerCase()));
      for (const id of kept.length ? kept : ids) set(mask, id);
      return mask;
    };
    return { words: keep(WORD), numbers: keep(NUMBER) };
  }

  /**
   * The allowed-token bitmask after a prefix, for a skill of at most maxTokens tokens, limited by an entity
   * filter when one is given (without a filter the mask is shared: do not modify).
   */
  allowed(prefix: ShopSkillPrefix, maxTokens: number, filter?: ShopEntityFilter): Uint32Array {
    const mask = this.grammarMask(prefix, maxTokens);
    const edges = this.dfa.next[prefix.state];
    const content = edges.has(WORD) ? WORD : edges.has(NUMBER) ? NUMBER : null;
    const repeat = content === WORD && prefix.lastWordRun >= MAX_WORD_RUN ? prefix.lastWord : -1;
    if ((!filter && repeat < 0) || content === null) return mask;
    const out = mask.slice();
    if (filter) {
      const keep = content === WORD ? filter.words : filter.numbers;
      for (const id of this.symbolTokens.get(content)!) if (!bit(keep, id)) out[id >>> 5] &= ~(1 << (id & 31));
    }
    // A small analyzer's commonest loop is one word again and again ("the price price price ..."); a title may
    // say a word twice in a row ("leather leather loafers": the material, then the type), never three times, so a
    // word written twice in a row is out next, unless it is all that is left.
    if (repeat >= 0 && bit(out, repeat)) {
      out[repeat >>> 5] &= ~(1 << (repeat & 31));
      if (out.every((w) => w === 0)) set(out, repeat);
    }
    return out;
  }

  private grammarMask(prefix: ShopSkillPrefix, maxTokens: number): Uint32Array {
    const need = Math.max(0, MIN_SHOP_SKILL_WORDS - prefix.words);
    const left = maxTokens - prefix.tokens;
    const budget =
      this.table.at(prefix.state, ANY_PLACE, need) <= left ? Math.min(left, this.table.cap) : this.table.cap;
    const key = `${prefix.state},${need},${budget}`;
    let mask = this.maskCache.get(key);
    if (mask === undefined) {
      mask = new Uint32Array(this.maskWords);
      for (const [sym, t] of this.dfa.next[prefix.state]) {
        if (1 + this.table.at(t, ANY_PLACE, Math.max(0, need - (isWordSymbol(sym) ? 1 : 0))) > budget) continue;
        for (const id of this.symbolTokens.get(sym)!) set(mask, id);
      }
      if (this.dfa.accepting[prefix.state] && need === 0) set(mask, this.tok.endId);
      this.maskCache.set(key, mask);
    }
    return mask;
  }

  /**
   * The masks under which a skill's tokens and then the end token were chosen ([ids.length + 1] * maskWords):
   * what re-scoring the skill tokens needs to see the distribution they were sampled from.
   */
  skillMasks(ids: readonly number[], maxTokens: number, filter?: ShopEntityFilter): Uint32Array {
    const out = new Uint32Array((ids.length + 1) * this.maskWords);
    let prefix = this.initial;
    for (let k = 0; k <= ids.length; k++) {
      out.set(this.allowed(prefix, maxTokens, filter), k * this.maskWords);
      if (k === ids.length) break;
      const next = this.next(prefix, ids[k]);
      if (next === null) throw new RangeError(`token ${k} of the skill leaves the shop skill grammar`);
      prefix = next;
    }
    return out;
  }
}

const grammars = new WeakMap<Tokenizer, ShopSkillGrammar>();

/** The shop skill automaton of a tokenizer, built once. */
export function shopSkillGrammar(tok: Tokenizer): ShopSkillGrammar {
  let g = grammars.get(tok);
  if (g === undefined) {
    g = new ShopSkillGrammar(tok);
    grammars.set(tok, g);
  }
  return g;
}

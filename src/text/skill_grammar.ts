// Constrained decoding of a skill: the skill grammar of skill.ts as a finite automaton over words, so that the
// analyzer can only write text that parseSkill accepts, the way the command trie keeps commands admissible.
//
// The grammar has no recursion (an action never holds an action), so it is a regular language. It is written
// below as a regular expression over symbols (literal words, and the classes OBJECT-TYPE, RECEPTACLE-TYPE and
// NUMBER 1..MAX_INSTANCE_NUMBER), compiled to an NFA and determinised once per tokenizer. parseSkill's one-word
// look-ahead (startsThing/startsPlace) never changes what it accepts, because no type name is both an object
// and a receptacle and none is a grammar word (checked when the automaton is built).
//
// A decoding prefix is (automaton state, words so far, tokens so far). Its allowed-token bitmask (the backend's
// format, as CommandTrie.allowed) holds every token that keeps the prefix completable into a valid skill (it
// parses and has at least MIN_SKILL_WORDS words) within maxTokens tokens, and the end token only when the prefix
// is such a skill. Tokens match grammar words case-insensitively, as parseSkill does ("The" is "the"). When a
// prefix cannot be completed within maxTokens at all (maxTokens below the shortest valid skill), the budget is
// ignored: the caller's own cut at maxTokens then ends the skill, unusable, as free decoding would.
//
// An entity filter (entityFilter) further limits the type names to those a trajectory's text mentions, so that a
// skill can only name objects and receptacles the episode showed, and the instance number after a type name to
// the numbers the text gave that type ("cabinet 2" seen: "the cabinet 2", never "the cabinet 3"; a type seen
// without a number takes none). Every object type decodes as the same symbol (and every receptacle type), and the
// number after a type is optional, so the filter never empties a mask while it keeps at least one name of each.
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { MARKERS } from './markers.ts';
import { isWordPiece } from './pieces.ts';
import { GERUND, MIN_SKILL_WORDS, type Verb } from './skill.ts';
import type { Tokenizer } from './tokenizer.ts';

const OBJECT = '#object';
const RECEPTACLE = '#receptacle';
const NUMBER = '#number';

// ---- the grammar as a regular expression over symbols ----

type Rx = string | { seq: Rx[] } | { alt: Rx[] } | { opt: Rx } | { star: Rx };

const seq = (...seq: Rx[]): Rx => ({ seq });
const alt = (...alt: Rx[]): Rx => ({ alt });
const opt = (opt: Rx): Rx => ({ opt });
const star = (star: Rx): Rx => ({ star });
const plus = (rx: Rx): Rx => seq(rx, star(rx));

const thing = alt('it', 'them', seq(alt('the', 'a', 'another'), OBJECT, opt(NUMBER)));
const place = seq(opt(alt(seq('the', opt('same')), 'a')), RECEPTACLE, opt(NUMBER));
const places = seq(place, star(seq('and', place)));

function action(gerund: boolean): Rx {
  const v = (verb: Verb) => (gerund ? GERUND[verb] : verb);
  return alt(
    seq(alt(v('find'), v('use')), thing),
    seq(v('go'), 'to', place),
    seq(alt(v('open'), v('close')), place),
    seq(v('take'), thing, opt(seq('from', place))),
    seq(v('put'), thing, alt('in', 'on'), place),
    seq(alt(v('heat'), v('cool'), v('clean')), thing, opt(seq('with', place))),
    seq(v('examine'), alt(thing, place)),
    seq(v('search'), places),
  );
}

const mistake = alt(
  seq(action(true), opt(alt('twice', 'again', seq('before', action(true)), seq('instead', 'of', thing)))),
  seq('forgetting', 'to', action(false)),
  seq('invalid', 'commands'),
  seq('running', 'out', 'of', 'steps'),
);
const fact = alt(
  seq(thing, 'was', opt('not'), alt('in', 'on'), places),
  seq(place, 'was', alt('closed', 'open', 'empty')),
  seq('you', 'searched', places),
  seq('nothing', 'happens', opt(seq('after', action(true)))),
  seq(action(false), alt('first', seq('before', action(true)))),
);
const SKILL_RX = seq(
  alt(seq('workflow', ':', action(false), star(seq(',', action(false)))), seq('avoid', ':', mistake, plus(seq(';', fact)))),
  '.',
  star(seq(fact, '.')),
);

// ---- compilation: NFA (Thompson), then subset construction ----

interface Nfa {
  eps: number[][];
  edges: [string, number][][];
}

function compile(nfa: Nfa, rx: Rx, from: number): number {
  const node = () => (nfa.eps.push([]), nfa.edges.push([]), nfa.eps.length - 1);
  if (typeof rx === 'string') {
    const to = node();
    nfa.edges[from].push([rx, to]);
    return to;
  }
  if ('seq' in rx) return rx.seq.reduce((at, part) => compile(nfa, part, at), from);
  if ('alt' in rx) {
    const to = node();
    for (const part of rx.alt) nfa.eps[compile(nfa, part, from)].push(to);
    return to;
  }
  if ('opt' in rx) {
    const to = compile(nfa, rx.opt, from);
    nfa.eps[from].push(to);
    return to;
  }
  const loop = node();
  nfa.eps[from].push(loop);
  nfa.eps[compile(nfa, rx.star, loop)].push(loop);
  return loop;
}

function closure(nfa: Nfa, states: Iterable<number>): number[] {
  const seen = new Set(states);
  const stack = [...seen];
  while (stack.length) for (const t of nfa.eps[stack.pop()!]) if (!seen.has(t)) (seen.add(t), stack.push(t));
  return [...seen].sort((a, b) => a - b);
}

interface Dfa {
  next: Map<string, number>[];
  accepting: boolean[];
}

function determinise(rx: Rx): Dfa {
  const nfa: Nfa = { eps: [[]], edges: [[]] };
  const final = compile(nfa, rx, 0);
  const dfa: Dfa = { next: [], accepting: [] };
  const index = new Map<string, number>();
  const sets: number[][] = [];
  const add = (set: number[]): number => {
    const key = set.join(',');
    let id = index.get(key);
    if (id === undefined) {
      id = sets.length;
      index.set(key, id);
      sets.push(set);
      dfa.next.push(new Map());
      dfa.accepting.push(set.includes(final));
    }
    return id;
  };
  add(closure(nfa, [0]));
  for (let d = 0; d < sets.length; d++) {
    const targets = new Map<string, number[]>();
    for (const s of sets[d]) for (const [sym, t] of nfa.edges[s]) targets.set(sym, [...(targets.get(sym) ?? []), t]);
    for (const [sym, ts] of targets) dfa.next[d].set(sym, add(closure(nfa, ts)));
  }
  return dfa;
}

// ---- the automaton over tokens ----

/** Where a decoded skill prefix stands. */
export interface SkillPrefix {
  readonly state: number;
  readonly words: number;
  readonly tokens: number;
  /** The last token (-1 at the start): an instance number is filtered by the type name before it. */
  readonly previous: number;
}

/** Which type names a skill may use, and which instance numbers after each (entityFilter). */
export interface EntityFilter {
  readonly types: Uint32Array;
  /** Type token id -> mask of the number tokens allowed right after it (absent: every number). */
  readonly numbers: ReadonlyMap<number, Uint32Array>;
}

const isWordSymbol = (sym: string) => sym.startsWith('#') || isWordPiece(sym);

export class SkillGrammar {
  readonly maskWords: number;
  readonly initial: SkillPrefix = { state: 0, words: 0, tokens: 0, previous: -1 };
  /** Tokens (end token excluded) of the shortest valid skill. */
  readonly shortest: number;
  private readonly dfa: Dfa;
  /** Token ids of each symbol. */
  private readonly symbolTokens = new Map<string, number[]>();
  /** Symbol of each token id that is a grammar word, else undefined. */
  private readonly tokenSymbol: (string | undefined)[];
  /** distance[state][need]: fewest tokens (end excluded) from the state to a valid skill with `need` more words. */
  private readonly distance: number[][];
  private readonly maskCache = new Map<string, Uint32Array>();
  private readonly cap: number;

  constructor(private readonly tok: Tokenizer) {
    this.maskWords = Math.ceil(tok.vocabSize / 32);
    this.dfa = determinise(SKILL_RX);
    const symbols = new Set<string>();
    for (const map of this.dfa.next) for (const sym of map.keys()) symbols.add(sym);
    const objects = new Set(Object.keys(OBJECT_KINDS));
    const receptacles = new Set(Object.keys(RECEPTACLE_KINDS));
    const numbers = new Set(Array.from({ length: MAX_INSTANCE_NUMBER }, (_, i) => String(i + 1)));
    for (const w of symbols) {
      if (!w.startsWith('#') && (objects.has(w) || receptacles.has(w) || numbers.has(w))) {
        throw new RangeError(`the grammar word "${w}" is also a type name or a number`);
      }
    }
    for (const w of objects) if (receptacles.has(w)) throw new RangeError(`"${w}" is both an object and a receptacle type`);
    const markers = new Set<string>(MARKERS);
    this.tokenSymbol = tok.tokens.map((t) => {
      if (markers.has(t)) return undefined;
      const w = t.toLowerCase();
      if (objects.has(w)) return OBJECT;
      if (receptacles.has(w)) return RECEPTACLE;
      if (numbers.has(t)) return NUMBER;
      return symbols.has(w) ? w : undefined;
    });
    this.tokenSymbol.forEach((sym, id) => sym !== undefined && this.symbolTokens.set(sym, [...(this.symbolTokens.get(sym) ?? []), id]));
    for (const sym of symbols) if (!this.symbolTokens.has(sym)) throw new RangeError(`the vocabulary has no token for the skill symbol "${sym}"`);

    // Fewest tokens to a valid skill, by relaxation (unit edges; the automaton is small). Every state can reach
    // one (each NFA state reaches the final state, and facts add words), so every distance is finite.
    const n = this.dfa.next.length;
    this.distance = Array.from({ length: n }, (_, s) => Array.from({ length: MIN_SKILL_WORDS + 1 }, (_, need) => (this.dfa.accepting[s] && need === 0 ? 0 : Infinity)));
    for (let changed = true; changed; ) {
      changed = false;
      for (let s = 0; s < n; s++) {
        for (let need = 0; need <= MIN_SKILL_WORDS; need++) {
          for (const [sym, t] of this.dfa.next[s]) {
            const d = 1 + this.distance[t][Math.max(0, need - (isWordSymbol(sym) ? 1 : 0))];
            if (d < this.distance[s][need]) (this.distance[s][need] = d), (changed = true);
          }
        }
      }
    }
    this.shortest = this.distance[0][MIN_SKILL_WORDS];
    this.cap = Math.max(...this.distance.flat().filter(Number.isFinite)) + 1;
  }

  /** The prefix after `token`, or null when the token is not allowed by the grammar (the end token included). */
  next(prefix: SkillPrefix, token: number): SkillPrefix | null {
    const sym = this.tokenSymbol[token];
    const state = sym === undefined ? undefined : this.dfa.next[prefix.state].get(sym);
    if (state === undefined) return null;
    return { state, words: prefix.words + (isWordSymbol(sym!) ? 1 : 0), tokens: prefix.tokens + 1, previous: token };
  }

  /** The prefix reached by a token sequence, or null when it leaves the grammar. */
  walk(ids: readonly number[]): SkillPrefix | null {
    let prefix: SkillPrefix | null = this.initial;
    for (const id of ids) if ((prefix = this.next(prefix, id)) === null) return null;
    return prefix;
  }

  /** True when the prefix is a whole valid skill: the end token may follow. */
  complete(prefix: SkillPrefix): boolean {
    return this.dfa.accepting[prefix.state] && prefix.words >= MIN_SKILL_WORDS;
  }

  /**
   * The filter of a text's words (compared in lower case): every token except the object and receptacle type
   * names the words lack (a class of which they name no member is left whole, so the grammar can still
   * complete); after a named type, only the numbers that followed it in the words.
   */
  entityFilter(words: Iterable<string>): EntityFilter {
    const list = Array.from(words, (w) => w.toLowerCase());
    const named = new Set(list);
    const types = new Uint32Array(this.maskWords).fill(0xffffffff);
    for (const sym of [OBJECT, RECEPTACLE]) {
      const ids = this.symbolTokens.get(sym)!;
      if (!ids.some((id) => named.has(this.tok.token(id).toLowerCase()))) continue;
      for (const id of ids) if (!named.has(this.tok.token(id).toLowerCase())) types[id >>> 5] &= ~(1 << (id & 31));
    }
    const numberIds = new Map(this.symbolTokens.get(NUMBER)!.map((id) => [this.tok.token(id), id]));
    const numbers = new Map<number, Uint32Array>();
    for (const sym of [OBJECT, RECEPTACLE]) {
      for (const id of this.symbolTokens.get(sym)!) {
        const name = this.tok.token(id).toLowerCase();
        if (!named.has(name)) continue;
        const mask = new Uint32Array(this.maskWords);
        list.forEach((w, k) => {
          const n = w === name ? numberIds.get(list[k + 1] ?? '') : undefined;
          if (n !== undefined) mask[n >>> 5] |= 1 << (n & 31);
        });
        numbers.set(id, mask);
      }
    }
    return { types, numbers };
  }

  /**
   * The allowed-token bitmask after a prefix, for a skill of at most maxTokens tokens, limited by an entity
   * filter when one is given (without a filter the mask is shared: do not modify).
   */
  allowed(prefix: SkillPrefix, maxTokens: number, filter?: EntityFilter): Uint32Array {
    const mask = this.grammarMask(prefix, maxTokens);
    if (!filter) return mask;
    const out = mask.map((w, k) => w & filter.types[k]);
    const after = filter.numbers.get(prefix.previous);
    if (after) {
      for (const id of this.symbolTokens.get(NUMBER)!) {
        if (!(after[id >>> 5] & (1 << (id & 31)))) out[id >>> 5] &= ~(1 << (id & 31));
      }
    }
    return out;
  }

  private grammarMask(prefix: SkillPrefix, maxTokens: number): Uint32Array {
    const need = Math.max(0, MIN_SKILL_WORDS - prefix.words);
    const left = maxTokens - prefix.tokens;
    const budget = this.distance[prefix.state][need] <= left ? Math.min(left, this.cap) : this.cap;
    const key = `${prefix.state},${need},${budget}`;
    let mask = this.maskCache.get(key);
    if (mask === undefined) {
      mask = new Uint32Array(this.maskWords);
      for (const [sym, t] of this.dfa.next[prefix.state]) {
        if (1 + this.distance[t][Math.max(0, need - (isWordSymbol(sym) ? 1 : 0))] > budget) continue;
        for (const id of this.symbolTokens.get(sym)!) mask[id >>> 5] |= 1 << (id & 31);
      }
      if (this.dfa.accepting[prefix.state] && need === 0) mask[this.tok.endId >>> 5] |= 1 << (this.tok.endId & 31);
      this.maskCache.set(key, mask);
    }
    return mask;
  }

  /**
   * The masks under which a skill's tokens and then the end token were chosen ([ids.length + 1] * maskWords):
   * what re-scoring the skill tokens needs to see the distribution they were sampled from.
   */
  skillMasks(ids: readonly number[], maxTokens: number, filter?: EntityFilter): Uint32Array {
    const out = new Uint32Array((ids.length + 1) * this.maskWords);
    let prefix = this.initial;
    for (let k = 0; k <= ids.length; k++) {
      out.set(this.allowed(prefix, maxTokens, filter), k * this.maskWords);
      if (k === ids.length) break;
      const next = this.next(prefix, ids[k]);
      if (next === null) throw new RangeError(`token ${k} of the skill leaves the skill grammar`);
      prefix = next;
    }
    return out;
  }
}

const grammars = new WeakMap<Tokenizer, SkillGrammar>();

/** The skill automaton of a tokenizer, built once. */
export function skillGrammar(tok: Tokenizer): SkillGrammar {
  let g = grammars.get(tok);
  if (g === undefined) grammars.set(tok, (g = new SkillGrammar(tok)));
  return g;
}

// Constrained decoding of a skill: a world's grammar (grammar.ts) as a finite automaton over symbols
// (automaton.ts), run over tokens (symbols.ts), so that the analyzer can only write text that the world's parser
// accepts, the way the command trie keeps commands admissible. Tokens match grammar words case-insensitively, as
// the parsers do ("The" is "the").
//
// A decoding prefix is (automaton state, words so far, tokens so far, the last token and the symbol it was read
// as, the subject, the run of one word). Its allowed-token bitmask (the backend's format, as CommandTrie.allowed)
// holds every token that keeps the prefix completable into a valid skill (the automaton accepts it and it has at
// least minWords words) within maxTokens tokens, and the end token only when the prefix is such a skill. When a
// prefix cannot be completed within maxTokens at all (maxTokens below the shortest valid skill), the budget is
// ignored: the caller's own cut at maxTokens then ends the skill, unusable, as free decoding would.
//
// An entity filter (entityFilter) limits the named classes to the members a trajectory's words name (a class of
// which they name none is left whole), and the instance number after a name to the numbers the words gave it
// ("cabinet 2" seen: "the cabinet 2", never "the cabinet 3"; a name seen without a number takes none). Each class
// decodes as its own symbol and an instance number is optional, so the filter never empties a mask. With a
// world's context, the filter also holds the slots of every subject it lets a skill name (slots.ts), and the
// distances to a valid skill are taken per slot class (distances.ts), so a mask never leads into a dead end.
//
// The repeat guard: a class with a maxRun never has one member more than maxRun times in a row (a small analyzer's
// commonest loop is one word again and again), unless it is all that is left.
import type { Tokenizer } from '../tokenizer.ts';
import { determinise, isWordSymbol, type Dfa } from './automaton.ts';
import { anySlot, distances, type Distances, type SlotSymbols } from './distances.ts';
import type { SkillGrammarDefinition } from './grammar.ts';
import { slotsMask, subjectSlots, type SlotDecoder, type SlotFilter } from './slots.ts';
import { bit, clear, isEmpty, set, SymbolTable } from './symbols.ts';

/** Where a decoded skill prefix stands. */
export interface SkillPrefix {
  readonly state: number;
  readonly words: number;
  readonly tokens: number;
  /** The last token (-1 at the start) and the symbol it was read as: an instance number is filtered by the name before it. */
  readonly previous: number;
  readonly previousSymbol: string;
  /** The subject "it" stands for: the last subject token named and its instance number token (-1: none named). */
  readonly subject: number;
  readonly subjectNumber: number;
  /** The token of a class with a maxRun that the prefix ends on, else -1, and how many times in a row it stands there. */
  readonly lastWord: number;
  readonly lastWordRun: number;
}

/** Which members a skill may use, which instance numbers after each name, and each subject's slots (entityFilter). */
export interface EntityFilter {
  /** Class index -> the members the words name; a class absent here is whole. */
  readonly members: ReadonlyMap<number, Uint32Array>;
  /** Token id of a named member -> mask of the number tokens allowed right after it (absent: every number). */
  readonly numbers: ReadonlyMap<number, Uint32Array>;
  /** With a world's context: the slots of each subject key the skill may name, and the subject before any. */
  readonly slots?: SlotFilter;
}

export class SkillGrammar<C = never> {
  readonly maskWords: number;
  readonly initial: SkillPrefix = {
    state: 0,
    words: 0,
    tokens: 0,
    previous: -1,
    previousSymbol: '',
    subject: -1,
    subjectNumber: -1,
    lastWord: -1,
    lastWordRun: 0,
  };
  /** Tokens (end token excluded) of the shortest valid skill. */
  readonly shortest: number;
  private readonly dfa: Dfa;
  private readonly table: SymbolTable;
  private readonly slotSymbols: SlotSymbols;
  private readonly maxRuns = new Map<string, number>();
  /** Distances by the slot classes of the subjects a filter allows (bit mask of classes), built when first needed. */
  private readonly distanceTables = new Map<number, Distances>();
  private readonly maskCache = new Map<string, Uint32Array>();
  /** What the mask under a filter with slots reads of this decoder (slots.ts). */
  private readonly slotDecoder: SlotDecoder<SkillPrefix>;

  constructor(
    readonly definition: SkillGrammarDefinition<C>,
    private readonly tok: Tokenizer,
  ) {
    this.dfa = determinise(definition.rx);
    this.table = new SymbolTable(definition, this.dfa, tok);
    this.maskWords = this.table.maskWords;
    this.slotSymbols = { subject: definition.subject?.symbol ?? null, slots: definition.subject?.slots ?? [] };
    for (const slot of this.slotSymbols.slots)
      if (this.table.classOf(slot) === undefined)
        throw new RangeError(`the ${definition.name} grammar's slot "${slot}" is no reading of a word class`);
    definition.classes.forEach((c, k) => {
      if (c.maxRun !== undefined) for (const sym of this.table.classSymbols[k]) this.maxRuns.set(sym, c.maxRun);
    });
    const any = anySlot(this.slotSymbols);
    this.shortest = this.distances(1 << any).at(0, any, definition.minWords);
    this.slotDecoder = {
      table: this.table,
      dfa: this.dfa,
      symbols: this.slotSymbols,
      number: definition.instances?.number,
      name: definition.name,
      minWords: definition.minWords,
      distances: (subjectClasses) => this.distances(subjectClasses),
      budget: (table, prefix, slotClass, maxTokens) => this.budget(table, prefix, slotClass, maxTokens),
      complete: (prefix) => this.complete(prefix),
    };
  }

  private distances(subjectClasses: number): Distances {
    let table = this.distanceTables.get(subjectClasses);
    if (table === undefined) {
      table = distances(this.dfa, this.definition.minWords, this.slotSymbols, subjectClasses);
      this.distanceTables.set(subjectClasses, table);
    }
    return table;
  }

  /** The prefix after `token`, or null when the token is not allowed by the grammar (the end token included). */
  next(prefix: SkillPrefix, token: number): SkillPrefix | null {
    const sym = this.table.symbolAt(this.dfa.next[prefix.state], token);
    if (sym === undefined) return null;
    const subject = sym === this.slotSymbols.subject;
    const instance = sym === this.definition.instances?.number && prefix.previousSymbol === this.slotSymbols.subject;
    const run = this.maxRuns.has(sym);
    return {
      state: this.dfa.next[prefix.state].get(sym)!,
      words: prefix.words + (isWordSymbol(sym) ? 1 : 0),
      tokens: prefix.tokens + 1,
      previous: token,
      previousSymbol: sym,
      subject: subject ? token : prefix.subject,
      subjectNumber: subject ? -1 : instance ? token : prefix.subjectNumber,
      lastWord: run ? token : -1,
      lastWordRun: !run ? 0 : token === prefix.lastWord ? prefix.lastWordRun + 1 : 1,
    };
  }

  /** The prefix reached by a token sequence, or null when it leaves the grammar. */
  walk(ids: readonly number[]): SkillPrefix | null {
    let prefix: SkillPrefix | null = this.initial;
    for (const id of ids) {
      prefix = this.next(prefix, id);
      if (prefix === null) return null;
    }
    return prefix;
  }

  /** True when the prefix is a whole valid skill: the end token may follow. */
  complete(prefix: SkillPrefix): boolean {
    return this.dfa.accepting[prefix.state] && prefix.words >= this.definition.minWords;
  }

  /**
   * The filter of a text's words (compared in lower case): the members of each named class that the words name
   * (a class of which they name none is left whole); after a name, only the numbers that followed it in the
   * words. With the world's context, the slots of every subject the filter lets a skill name.
   */
  entityFilter(words: Iterable<string>, context?: C): EntityFilter {
    const list = Array.from(words, (w) => w.toLowerCase());
    const named = new Set(list);
    const members = new Map<number, Uint32Array>();
    this.definition.classes.forEach((c, k) => {
      const kept = c.named ? this.table.tokensOf(c.symbol).filter((id) => named.has(this.table.name(id))) : [];
      if (kept.length) members.set(k, this.table.maskOf(kept));
    });
    const numbers = new Map<number, Uint32Array>();
    const instances = this.definition.instances;
    if (instances) {
      const numberIds = new Map(this.table.tokensOf(instances.number).map((id) => [this.table.name(id), id]));
      for (const sym of instances.of) {
        for (const id of this.table.tokensOf(sym)) {
          const name = this.table.name(id);
          if (!named.has(name)) continue;
          const mask = new Uint32Array(this.maskWords);
          list.forEach((w, k) => {
            const n = w === name ? numberIds.get(list[k + 1] ?? '') : undefined;
            if (n !== undefined) set(mask, n);
          });
          numbers.set(id, mask);
        }
      }
    }
    const filter = { members, numbers };
    const subject = this.definition.subject;
    if (context === undefined || subject === undefined) return filter;
    return {
      ...filter,
      slots: subjectSlots(this.table, this.slotSymbols, instances?.number, subject, context, filter),
    };
  }

  /**
   * The constrained decoding of one skill under `filter`, from the start (what every world's RlWorld.skillDecoder
   * is): the mask of the next token, and the step past a sampled one, which throws outside the last mask.
   */
  decoder(filter?: EntityFilter): { allowed(maxTokens: number): Uint32Array; advance(token: number): void } {
    let prefix = this.initial;
    return {
      allowed: (maxTokens) => this.allowed(prefix, maxTokens, filter),
      advance: (token) => {
        const next = this.next(prefix, token);
        if (next === null)
          throw new Error(`the decoder sampled token ${token} outside the ${this.definition.name} grammar's mask`);
        prefix = next;
      },
    };
  }

  /**
   * The allowed-token bitmask after a prefix, for a skill of at most maxTokens tokens, limited by an entity
   * filter when one is given (the mask may be shared: do not modify).
   */
  allowed(prefix: SkillPrefix, maxTokens: number, filter?: EntityFilter): Uint32Array {
    if (filter?.slots) {
      const out = slotsMask(this.slotDecoder, prefix, maxTokens, filter, filter.slots);
      return this.withoutRepeat(prefix, out, false);
    }
    const mask = this.grammarMask(prefix, maxTokens);
    if (!filter) return this.withoutRepeat(prefix, mask, true);
    const out = mask.slice();
    const edges = this.dfa.next[prefix.state];
    for (const [k, members] of filter.members) {
      if (!this.table.readsClass(edges, k)) continue;
      for (const id of this.table.tokensOf(this.definition.classes[k].symbol)) if (!bit(members, id)) clear(out, id);
    }
    const after = filter.numbers.get(prefix.previous);
    const number = this.definition.instances?.number;
    if (after && number !== undefined)
      for (const id of this.table.tokensOf(number)) if (!bit(after, id)) clear(out, id);
    return this.withoutRepeat(prefix, out, false);
  }

  /** The mask without the token of a run at its class's maxRun, unless that empties it (shared: copied first). */
  private withoutRepeat(prefix: SkillPrefix, mask: Uint32Array, shared: boolean): Uint32Array {
    if (prefix.lastWord < 0) return mask;
    const edges = this.dfa.next[prefix.state];
    const max = this.maxRuns.get(prefix.previousSymbol);
    if (max === undefined || prefix.lastWordRun < max || !edges.has(prefix.previousSymbol)) return mask;
    if (!bit(mask, prefix.lastWord)) return mask;
    const out = shared ? mask.slice() : mask;
    clear(out, prefix.lastWord);
    if (isEmpty(out)) set(out, prefix.lastWord);
    return out;
  }

  /** The budget that a prefix's remaining tokens set, or the cap when no valid skill fits them. */
  private budget(table: Distances, prefix: SkillPrefix, slotClass: number, maxTokens: number): number {
    const need = Math.max(0, this.definition.minWords - prefix.words);
    const left = maxTokens - prefix.tokens;
    return table.at(prefix.state, slotClass, need) <= left ? Math.min(left, table.cap) : table.cap;
  }

  private grammarMask(prefix: SkillPrefix, maxTokens: number): Uint32Array {
    const any = anySlot(this.slotSymbols);
    const table = this.distances(1 << any);
    const need = Math.max(0, this.definition.minWords - prefix.words);
    const budget = this.budget(table, prefix, any, maxTokens);
    const key = `${prefix.state},${need},${budget}`;
    let mask = this.maskCache.get(key);
    if (mask === undefined) {
      mask = new Uint32Array(this.maskWords);
      for (const [sym, t] of this.dfa.next[prefix.state]) {
        if (1 + table.at(t, any, Math.max(0, need - (isWordSymbol(sym) ? 1 : 0))) > budget) continue;
        for (const id of this.table.tokensOf(sym)) set(mask, id);
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
  skillMasks(ids: readonly number[], maxTokens: number, filter?: EntityFilter): Uint32Array {
    const out = new Uint32Array((ids.length + 1) * this.maskWords);
    let prefix = this.initial;
    for (let k = 0; k <= ids.length; k++) {
      out.set(this.allowed(prefix, maxTokens, filter), k * this.maskWords);
      if (k === ids.length) break;
      const next = this.next(prefix, ids[k]);
      if (next === null) throw new RangeError(`token ${k} of the skill leaves the ${this.definition.name} grammar`);
      prefix = next;
    }
    return out;
  }
}

/** A world's grammar over each tokenizer, built once per tokenizer. */
export function grammarOf<C>(definition: SkillGrammarDefinition<C>): (tok: Tokenizer) => SkillGrammar<C> {
  const grammars = new WeakMap<Tokenizer, SkillGrammar<C>>();
  return (tok) => {
    let g = grammars.get(tok);
    if (g === undefined) {
      g = new SkillGrammar(definition, tok);
      grammars.set(tok, g);
    }
    return g;
  };
}

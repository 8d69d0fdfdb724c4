// How a grammar's automaton reads a vocabulary's tokens: a token is read as the literal its lower case spells,
// where the automaton has that word, and as the symbols of the classes it is a member of (a class's symbol and
// its readings). Markers are read as nothing. Where a state has an edge for one of a token's symbols, the token
// is read as that one; the table is checked when built so that no state could read a token two ways, and that
// every symbol of the automaton has a token.
import { MARKERS } from '../markers.ts';
import type { Tokenizer } from '../tokenizer.ts';
import type { Dfa } from './automaton.ts';
import type { SkillGrammarDefinition } from './grammar.ts';

export const bit = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;
export const set = (mask: Uint32Array, id: number) => {
  mask[id >>> 5] |= 1 << (id & 31);
};
export const clear = (mask: Uint32Array, id: number) => {
  mask[id >>> 5] &= ~(1 << (id & 31));
};
export const isEmpty = (mask: Uint32Array) => mask.every((w) => w === 0);

export class SymbolTable {
  readonly maskWords: number;
  /** The symbols each token may be read as, the literal first; empty for none. */
  private readonly readings: (readonly string[])[];
  private readonly tokens = new Map<string, number[]>();
  /** Class index of each class symbol and reading. */
  private readonly classIndex = new Map<string, number>();
  /** Each class's symbol and readings. */
  readonly classSymbols: readonly (readonly string[])[];

  constructor(
    definition: Pick<SkillGrammarDefinition<unknown>, 'name' | 'classes'>,
    dfa: Dfa,
    readonly tok: Tokenizer,
  ) {
    const { name, classes } = definition;
    this.maskWords = Math.ceil(tok.vocabSize / 32);
    this.classSymbols = classes.map((c) => [c.symbol, ...(c.readings ?? [])]);
    this.classSymbols.forEach((syms, k) => {
      for (const sym of syms) this.classIndex.set(sym, k);
    });
    const symbols = new Set<string>();
    for (const edges of dfa.next) for (const sym of edges.keys()) symbols.add(sym);
    for (const sym of symbols)
      if (sym.startsWith('#') && !this.classIndex.has(sym))
        throw new RangeError(`the ${name} grammar's symbol "${sym}" is no word class of it`);
    const markers = new Set<string>(MARKERS);
    this.readings = tok.tokens.map((t) => {
      if (markers.has(t)) return [];
      const literal = t.toLowerCase();
      const out = symbols.has(literal) && !literal.startsWith('#') ? [literal] : [];
      classes.forEach((c, k) => {
        if (c.member(t)) out.push(...this.classSymbols[k]);
      });
      return out;
    });
    this.readings.forEach((syms, id) => {
      for (const sym of syms) this.tokens.set(sym, [...(this.tokens.get(sym) ?? []), id]);
    });
    // A token of several symbols is read as one of them only where no state has edges for two.
    const kinds = new Set(this.readings.filter((syms) => syms.length > 1).map((syms) => syms.join(' ')));
    for (const syms of kinds) {
      const read = syms.split(' ');
      for (const edges of dfa.next) {
        const both = read.filter((s) => edges.has(s));
        if (both.length > 1)
          throw new RangeError(`a state of the ${name} automaton reads a token two ways, as "${both.join('" and "')}"`);
      }
    }
    for (const sym of symbols)
      if (!this.tokens.get(sym)?.length)
        throw new RangeError(`the vocabulary has no token for the ${name} symbol "${sym}"`);
  }

  /** The token ids read as a symbol (a reading's are its class's members). */
  tokensOf(sym: string): readonly number[] {
    return this.tokens.get(sym) ?? [];
  }

  /** The symbol a token is read as where the state's edges are, or undefined when it has no edge for it. */
  symbolAt(edges: ReadonlyMap<string, number>, token: number): string | undefined {
    for (const sym of this.readings[token] ?? []) if (edges.has(sym)) return sym;
    return undefined;
  }

  /** The index of the class a symbol is the symbol or a reading of; undefined for a literal. */
  classOf(sym: string): number | undefined {
    return this.classIndex.get(sym);
  }

  /** Whether a state's edges read some symbol of class k. */
  readsClass(edges: ReadonlyMap<string, number>, k: number): boolean {
    return this.classSymbols[k].some((s) => edges.has(s));
  }

  /** A token as a filter compares it: lower case. */
  name(id: number): string {
    return this.tok.token(id).toLowerCase();
  }

  /** A fresh mask with the given tokens set. */
  maskOf(ids: Iterable<number>): Uint32Array {
    const out = new Uint32Array(this.maskWords);
    for (const id of ids) set(out, id);
    return out;
  }
}

// A skill grammar as a deterministic finite automaton over symbols. A symbol is a literal word or mark of the
// grammar ("workflow", ":", "the"), or a word class, written with a leading '#' ("#object", "#number", "#word"):
// each world names its classes and says which tokens belong to them (grammar.ts). A world's grammar has no
// recursion (an action never holds an action), so it is a regular language, written as a regular expression over
// those symbols with the builders below, compiled to an NFA (Thompson) and determinised (subset construction).
import { isWordPiece } from '../pieces.ts';

/** A regular expression over symbols. */
export type Rx = string | { seq: Rx[] } | { alt: Rx[] } | { opt: Rx } | { star: Rx };

export const seq = (...seq: Rx[]): Rx => ({ seq });
export const alt = (...alt: Rx[]): Rx => ({ alt });
export const opt = (opt: Rx): Rx => ({ opt });
export const star = (star: Rx): Rx => ({ star });
/** One or more. */
export const plus = (rx: Rx): Rx => seq(rx, star(rx));

/** Symbols that are words of a skill (the punctuation is not): the classes, and the literal word pieces. */
export const isWordSymbol = (sym: string) => sym.startsWith('#') || isWordPiece(sym);

// ---- compilation: NFA (Thompson), then subset construction ----

interface Nfa {
  eps: number[][];
  edges: [string, number][][];
}

function compile(nfa: Nfa, rx: Rx, from: number): number {
  const node = () => {
    nfa.eps.push([]);
    nfa.edges.push([]);
    return nfa.eps.length - 1;
  };
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
    // A fresh end node: skipping the part never lands inside it (a part that ends in a loop would take it back).
    const to = node();
    nfa.eps[compile(nfa, rx.opt, from)].push(to);
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
  while (stack.length)
    for (const t of nfa.eps[stack.pop()!])
      if (!seen.has(t)) {
        seen.add(t);
        stack.push(t);
      }
  return [...seen].sort((a, b) => a - b);
}

/** A deterministic automaton over symbols; state 0 is the start. */
export interface Dfa {
  next: Map<string, number>[];
  accepting: boolean[];
}

export function determinise(rx: Rx): Dfa {
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

// A skill grammar as a deterministic finite automaton over symbols: literal words, and the classes OBJECT-TYPE,
// RECEPTACLE-TYPE and NUMBER 1..MAX_INSTANCE_NUMBER. A world's grammar has no recursion (an action never holds
// an action), so it is a regular language, written as a regular expression over those symbols with the builders
// below (the household's: src/worlds/household/skills/skill_regex.ts; the shop's: shop_skill_grammar.ts),
// compiled to an NFA (Thompson) and determinised (subset construction). Each world's grammar runs it over tokens.
//
// A receptacle type is read as one of four symbols by where it stands, so that a filter can tell the places
// apart: where an object was (WAS_IN: "take the mug from the cabinet 1", "the mug was in the cabinet 1"),
// where it was not (WAS_NOT_IN: "the mug was not in the drawer 1"), where it goes (GOES_TO: "put it in the
// cabinet 1"), and any other place (RECEPTACLE). The four match the same words, so the language is the grammar
// whatever the filter.
import { isWordPiece } from './pieces.ts';

export const OBJECT = '#object';
export const RECEPTACLE = '#receptacle';
/** A receptacle named as where an object was ("take the mug from the cabinet 1", "the mug was in the cabinet 1"). */
export const WAS_IN = '#was-in';
/** A receptacle named as where an object was not ("the mug was not in the drawer 1"). */
export const WAS_NOT_IN = '#was-not-in';
/** A receptacle named as where an object is put ("put it in the cabinet 1"). */
export const GOES_TO = '#goes-to';
export const NUMBER = '#number';
/** The place slots: receptacle symbols that a filter may close for an object. */
export const PLACE_SLOTS = [WAS_IN, WAS_NOT_IN, GOES_TO] as const;
export type PlaceSlot = (typeof PLACE_SLOTS)[number];
/** The symbols a receptacle type's token can be read as; no state of the automaton reads two of them. */
export const RECEPTACLE_SYMBOLS = [RECEPTACLE, ...PLACE_SLOTS] as const;

/** Symbols that are words of a skill (the punctuation is not). */
export const isWordSymbol = (sym: string) => sym.startsWith('#') || isWordPiece(sym);

// ---- the grammar as a regular expression over symbols ----

/** A regular expression over symbols. */
export type Rx = string | { seq: Rx[] } | { alt: Rx[] } | { opt: Rx } | { star: Rx };

export const seq = (...seq: Rx[]): Rx => ({ seq });
export const alt = (...alt: Rx[]): Rx => ({ alt });
export const opt = (opt: Rx): Rx => ({ opt });
export const star = (star: Rx): Rx => ({ star });
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
  while (stack.length)
    for (const t of nfa.eps[stack.pop()!])
      if (!seen.has(t)) {
        seen.add(t);
        stack.push(t);
      }
  return [...seen].sort((a, b) => a - b);
}

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

// ---- fewest tokens to a valid skill ----

/**
 * The place class of an object: bit k set when the filter leaves PLACE_SLOTS[k] open for it (some receptacle may
 * be named there). Without a places filter every slot is open for every object (ANY_PLACE).
 */
export const slotBit = (slot: PlaceSlot) => 1 << PLACE_SLOTS.indexOf(slot);
export const ANY_PLACE = (1 << PLACE_SLOTS.length) - 1;
const CLASSES = ANY_PLACE + 1;

/** Fewest tokens (end excluded) from a state to a valid skill, by the place class of the object "it" stands for. */
export interface Distances {
  /** Infinity when no valid skill can be reached. */
  at(state: number, placeClass: number, needWords: number): number;
  /** One more than the largest finite distance: a budget that constrains nothing. */
  readonly cap: number;
}

/** The bit a symbol needs open in the place class (0: none, the symbol is no place slot). */
const slotBitOf = (sym: string): number =>
  (PLACE_SLOTS as readonly string[]).includes(sym) ? slotBit(sym as PlaceSlot) : 0;

/**
 * The distances when the objects a skill may name have the place classes of `objectClasses` (bit c set: some
 * object has class c) and `minWords` words make a skill. Naming an object makes its class the current one; an
 * instance number after it keeps the class here (a number only narrows the places, and it is optional, so the
 * caller checks each number on its own). By relaxation over unit edges: the automaton is small.
 */
export function distances(dfa: Dfa, minWords: number, objectClasses: number): Distances {
  const n = dfa.next.length;
  const needs = minWords + 1;
  const index = (s: number, c: number, need: number) => (s * CLASSES + c) * needs + need;
  const d = new Float64Array(n * CLASSES * needs).fill(Infinity);
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) for (let c = 0; c < CLASSES; c++) d[index(s, c, 0)] = 0;
  const named = Array.from({ length: CLASSES }, (_, c) => c).filter((c) => objectClasses & (1 << c));
  for (let changed = true; changed; ) {
    changed = false;
    for (let s = 0; s < n; s++) {
      for (const [sym, t] of dfa.next[s]) {
        const word = isWordSymbol(sym) ? 1 : 0;
        const needsOpen = slotBitOf(sym);
        for (let c = 0; c < CLASSES; c++) {
          if ((c & needsOpen) !== needsOpen) continue;
          for (let need = 0; need < needs; need++) {
            const after = Math.max(0, need - word);
            let rest = Infinity;
            if (sym !== OBJECT) rest = d[index(t, c, after)];
            else for (const k of named) rest = Math.min(rest, d[index(t, k, after)]);
            if (1 + rest < d[index(s, c, need)]) {
              d[index(s, c, need)] = 1 + rest;
              changed = true;
            }
          }
        }
      }
    }
  }
  let largest = 0;
  for (const x of d) if (Number.isFinite(x) && x > largest) largest = x;
  return { at: (s, c, need) => d[index(s, c, need)], cap: largest + 1 };
}

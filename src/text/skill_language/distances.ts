// Fewest tokens from a state of a skill automaton to a valid skill (one it accepts, with enough words), which the
// decoder's budget reads (decoder.ts). Where a grammar has a subject and slots (grammar.ts: "the mug was in the
// cabinet 2", the slot being where the mug was), a filter may close a slot for one subject and leave it open for
// another, so the distance is taken per slot class: the set of slots open for the current subject.
import { isWordSymbol, type Dfa } from './automaton.ts';

/** Fewest tokens (end excluded) from a state to a valid skill, by the slot class of the current subject. */
export interface Distances {
  /** Infinity when no valid skill can be reached. */
  at(state: number, slotClass: number, needWords: number): number;
  /** One more than the largest finite distance: a budget that constrains nothing. */
  readonly cap: number;
}

/** The subject symbol (null: none) and the slot symbols; the slot class has bit k set when slots[k] is open. */
export interface SlotSymbols {
  readonly subject: string | null;
  readonly slots: readonly string[];
}

/** The slot class in which every slot is open: the only one of a grammar without slots. */
export const anySlot = (s: SlotSymbols) => (1 << s.slots.length) - 1;

/**
 * The distances when the subjects a skill may name have the slot classes of `subjectClasses` (bit c set: some
 * subject has class c) and `minWords` words make a skill. Naming a subject makes its class the current one; an
 * instance number after it keeps the class here (a number only narrows the slots, and it is optional, so the
 * caller checks each number on its own). By relaxation over unit edges: the automaton is small.
 */
export function distances(dfa: Dfa, minWords: number, symbols: SlotSymbols, subjectClasses: number): Distances {
  const n = dfa.next.length;
  const classes = anySlot(symbols) + 1;
  const needs = minWords + 1;
  const index = (s: number, c: number, need: number) => (s * classes + c) * needs + need;
  const slotBit = (sym: string) => {
    const k = symbols.slots.indexOf(sym);
    return k < 0 ? 0 : 1 << k;
  };
  const d = new Float64Array(n * classes * needs).fill(Infinity);
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) for (let c = 0; c < classes; c++) d[index(s, c, 0)] = 0;
  const named = Array.from({ length: classes }, (_, c) => c).filter((c) => subjectClasses & (1 << c));
  for (let changed = true; changed; ) {
    changed = false;
    for (let s = 0; s < n; s++) {
      for (const [sym, t] of dfa.next[s]) {
        const word = isWordSymbol(sym) ? 1 : 0;
        const needsOpen = slotBit(sym);
        for (let c = 0; c < classes; c++) {
          if ((c & needsOpen) !== needsOpen) continue;
          for (let need = 0; need < needs; need++) {
            const after = Math.max(0, need - word);
            let rest = Infinity;
            if (sym !== symbols.subject) rest = d[index(t, c, after)];
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

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
 * caller checks each number on its own). Every edge counts one token, so the distances are those of a
 * breadth-first search backward from the valid skills, each (state, slot class, words still needed) reached once.
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
  // Per target state, the edges into it: their source state, whether the symbol is a word, the slots it needs
  // open, and whether it names a subject.
  const into: { s: number; word: number; needsOpen: number; subject: boolean }[][] = Array.from(
    { length: n },
    () => [],
  );
  for (let s = 0; s < n; s++)
    for (const [sym, t] of dfa.next[s])
      into[t].push({ s, word: isWordSymbol(sym) ? 1 : 0, needsOpen: slotBit(sym), subject: sym === symbols.subject });
  const d = new Float64Array(n * classes * needs).fill(Infinity);
  const queue = new Int32Array(n * classes * needs);
  let tail = 0;
  const reach = (s: number, c: number, need: number, dist: number) => {
    const i = index(s, c, need);
    if (d[i] !== Infinity) return;
    d[i] = dist;
    queue[tail++] = i;
  };
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) for (let c = 0; c < classes; c++) reach(s, c, 0, 0);
  for (let head = 0; head < tail; head++) {
    const i = queue[head];
    const after = i % needs;
    const c2 = Math.floor(i / needs) % classes;
    const t = Math.floor(i / (needs * classes));
    const dist = d[i] + 1;
    for (const e of into[t]) {
      // A subject edge leads on in the subject's class, which any class the subjects have may be.
      if (e.subject && !(subjectClasses & (1 << c2))) continue;
      for (let c = e.subject ? 0 : c2; c < (e.subject ? classes : c2 + 1); c++) {
        if ((c & e.needsOpen) !== e.needsOpen) continue;
        // need -> max(0, need - word) = after
        if (e.word === 0) reach(e.s, c, after, dist);
        else {
          if (after + 1 < needs) reach(e.s, c, after + 1, dist);
          if (after === 0) reach(e.s, c, 0, dist);
        }
      }
    }
  }
  let largest = 0;
  for (const x of d) if (Number.isFinite(x) && x > largest) largest = x;
  return { at: (s, c, need) => d[index(s, c, need)], cap: largest + 1 };
}

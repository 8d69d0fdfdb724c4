// What a world gives to have its skills decoded under a grammar (decoder.ts): its productions as a regular
// expression over symbols (automaton.ts; skeleton.ts writes the part every world shares), its word classes (which
// tokens each symbol '#...' stands for), the words a skill needs, and optionally its filters' structure: instance
// numbers after a name, and a subject whose slots a trajectory's facts may close. What a slot means (where an
// object was, where it goes) stays the world's: it builds each subject's slots from its own context.
import type { Rx } from './automaton.ts';

/** A class of words that the automaton reads as one symbol: a type name, an instance number, a content word. */
interface WordClass {
  /** The symbol, with a leading '#' ("#object"). */
  readonly symbol: string;
  /** Whether a token, as the vocabulary spells it, is a member. */
  member(token: string): boolean;
  /**
   * More symbols its members are read as, by where they stand, so that a filter can tell the places apart (the
   * household's receptacle: where an object was, was not, goes). They match the same words, so the language is
   * the grammar's whatever the filter; no state of the automaton reads two of them.
   */
  readonly readings?: readonly string[];
  /** The trajectory's words limit it (entityFilter): to the members they name, or every member when they name none. */
  readonly named?: boolean;
  /** The most times one member stands in a row in a skill the decoder writes; the next time is refused unless it is all that is left. */
  readonly maxRun?: number;
}

/** The tokens a slot lets stand, and the instance numbers allowed right after each of them. */
interface SlotMask {
  readonly members: Uint32Array;
  readonly numbers: ReadonlyMap<number, Uint32Array>;
}

/** The slots of one subject key ("mug", "mug 1"): each slot symbol's mask, null where the slot is closed. */
export type SubjectSlots = Readonly<Record<string, SlotMask | null>>;

/** What a world's slot meaning builds its masks with, over the filter's tokens (names compared in lower case). */
export interface SlotBuilder {
  /**
   * The members of the slot's class that the filter allows, each with the instance numbers that `names` give it
   * ("cabinet 2" in names: the cabinet, then 2) and the filter allows; null when no member has one.
   */
  instances(slot: string, names: ReadonlySet<string>): SlotMask | null;
  /** The members of the slot's class that the filter allows and `keep` keeps, with every number the filter allows; null for none. */
  members(slot: string, keep: (name: string) => boolean): SlotMask | null;
}

/**
 * A subject and its slots: naming a member of the subject's class (and an instance number after it) makes it
 * the subject, which the words "it" and "them" then stand for, and a slot symbol can only be filled with what the
 * world's slots of that subject allow. The decoder keeps every path into a closed slot closed (distances.ts).
 */
export interface Subject<C> {
  /** The class symbol whose members are subjects. */
  readonly symbol: string;
  /** The slot symbols: readings of a class (WordClass.readings). */
  readonly slots: readonly string[];
  /** The subject key before a skill names one (the task's object). */
  first(context: C): string;
  /** The world's meaning: from its context, the slots of each subject key, built with `build`. */
  slotsOf(context: C, build: SlotBuilder): (key: string) => SubjectSlots;
}

/** A world's skill grammar, the decoder's parameter; C is the context its slot filter reads (never: none). */
export interface SkillGrammarDefinition<C = never> {
  /** How messages name the grammar ("skill", "shop skill"). */
  readonly name: string;
  /** The productions, over literal words and marks and the classes' symbols. */
  readonly rx: Rx;
  /** The words (word pieces) a usable skill holds at least. */
  readonly minWords: number;
  readonly classes: readonly WordClass[];
  /** Instance numbers: after a member of the `of` classes that the words name, only the numbers they gave it. */
  readonly instances?: { readonly number: string; readonly of: readonly string[] };
  readonly subject?: Subject<C>;
}

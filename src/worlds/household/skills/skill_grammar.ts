// Constrained decoding of a skill: the skill grammar of skill.ts as a finite automaton over words
// (skill_automaton.ts), run over tokens, so that the analyzer can only write text that parseSkill accepts, the
// way the command trie keeps commands admissible. parseSkill's one-word look-ahead (startsThing/startsPlace)
// never changes what it accepts, because no type name is both an object and a receptacle and none is a grammar
// word (checked when the automaton is built).
//
// A decoding prefix is (automaton state, words so far, tokens so far, and the object "it" stands for). Its
// allowed-token bitmask (the backend's format, as CommandTrie.allowed) holds every token that keeps the prefix
// completable into a valid skill (it parses and has at least MIN_SKILL_WORDS words) within maxTokens tokens, and
// the end token only when the prefix is such a skill. Tokens match grammar words case-insensitively, as
// parseSkill does ("The" is "the"). When a prefix cannot be completed within maxTokens at all (maxTokens below
// the shortest valid skill), the budget is ignored: the caller's own cut at maxTokens then ends the skill,
// unusable, as free decoding would.
//
// An entity filter (entityFilter) further limits the type names to those a trajectory's text mentions, so that a
// skill can only name objects and receptacles the episode showed, and the instance number after a type name to
// the numbers the text gave that type ("cabinet 2" seen: "the cabinet 2", never "the cabinet 3"; a type seen
// without a number takes none). Every object type decodes as the same symbol (and every receptacle type), and the
// number after a type is optional, so the filter never empties a mask while it keeps at least one name of each.
//
// With the places the trajectory observed (ObjectPlaces), the filter also limits what a skill says about where an
// object was and goes: as where an object was ("take the mug 1 from the cabinet 2", "a mug was in a cabinet") only a
// receptacle where the trajectory saw that object before it first picked it up, that is where it started; as
// where it was not, only a receptacle it looked into and never saw that object in; as where it is put, only the
// goal receptacle for the task's object (any receptacle for another object). The object is the last one
// the skill named ("it" and "them" stand for it), and the task's object before any (the same reading as
// ../rl/skill_truth.ts). A slot with no such receptacle is closed, and so is every path that would need it: the
// distances to a valid skill are taken per place class of the object (skill_automaton.ts), so a mask never
// leads into a dead end.
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from '../env/knowledge.ts';
import { MARKERS } from '../../../text/markers.ts';
import { MIN_SKILL_WORDS } from './skill.ts';
import {
  ANY_PLACE,
  distances,
  isWordSymbol,
  NUMBER,
  OBJECT,
  RECEPTACLE,
  RECEPTACLE_SYMBOLS,
  GOES_TO,
  PLACE_SLOTS,
  slotBit,
  WAS_IN,
  WAS_NOT_IN,
  type Dfa,
  type Distances,
  type PlaceSlot,
} from '../../../text/skill_automaton.ts';
import { skillAutomaton } from './skill_regex.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';

/** Where a decoded skill prefix stands. */
export interface SkillPrefix {
  readonly state: number;
  readonly words: number;
  readonly tokens: number;
  /** The last token (-1 at the start) and the symbol it was read as: an instance number is filtered by the name before it. */
  readonly previous: number;
  readonly previousSymbol: string;
  /** The object "it" stands for: the last object type token named and its instance number token (-1: none named). */
  readonly subject: number;
  readonly subjectNumber: number;
}

/** What a trajectory observed of where objects were (names as the game prints them: "mug 1", "cabinet 2"). */
export interface ObjectPlaces {
  /** The object type "it" stands for before a skill names an object: the task's object. */
  readonly subject: string;
  /** Receptacles whose contents the trajectory saw. */
  readonly looked: readonly string[];
  /** Object -> the receptacles it was seen in before the trajectory first picked it up (where it started). */
  readonly startedIn: ReadonlyMap<string, readonly string[]>;
  /** Object -> every receptacle it was seen in. */
  readonly seenIn: ReadonlyMap<string, readonly string[]>;
  /** The receptacle type the task's object goes to; null when the task puts it nowhere. */
  readonly goal: string | null;
}

/** Receptacle type tokens allowed in a slot, and the number tokens allowed after each. */
interface PlaceMask {
  readonly types: Uint32Array;
  readonly numbers: ReadonlyMap<number, Uint32Array>;
}

/** The place slots of one object key ("mug", "mug 1"): the receptacles each allows (null: closed). */
type ObjectSlots = Readonly<Record<PlaceSlot, PlaceMask | null>>;

/** Which type names a skill may use, which instance numbers after each, and where objects may be placed (entityFilter). */
export interface EntityFilter {
  readonly types: Uint32Array;
  /** Type token id -> mask of the number tokens allowed right after it (absent: every number). */
  readonly numbers: ReadonlyMap<number, Uint32Array>;
  /** With observed places: the slots of each object key the skill may name, and what "it" first stands for. */
  readonly places?: {
    readonly subject: string;
    readonly slots: ReadonlyMap<string, ObjectSlots>;
    readonly objectClasses: number;
  };
}

const bit = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;
const set = (mask: Uint32Array, id: number) => (mask[id >>> 5] |= 1 << (id & 31));
const placeClass = (slots: ObjectSlots | undefined) =>
  PLACE_SLOTS.reduce((c, slot) => (slots?.[slot] ? c | slotBit(slot) : c), 0);
const isSlot = (sym: string): sym is PlaceSlot => (PLACE_SLOTS as readonly string[]).includes(sym);

export class SkillGrammar {
  readonly maskWords: number;
  readonly initial: SkillPrefix = {
    state: 0,
    words: 0,
    tokens: 0,
    previous: -1,
    previousSymbol: '',
    subject: -1,
    subjectNumber: -1,
  };
  /** Tokens (end token excluded) of the shortest valid skill. */
  readonly shortest: number;
  private readonly dfa: Dfa;
  /** Token ids of each symbol. */
  private readonly symbolTokens = new Map<string, number[]>();
  /** Symbol of each token id that is a grammar word, else undefined (a receptacle type reads as RECEPTACLE here). */
  private readonly tokenSymbol: (string | undefined)[];
  /** Distances by the place classes of the objects a filter allows (bit mask of classes), built when first needed. */
  private readonly distanceTables = new Map<number, Distances>();
  private readonly maskCache = new Map<string, Uint32Array>();

  constructor(private readonly tok: Tokenizer) {
    this.maskWords = Math.ceil(tok.vocabSize / 32);
    this.dfa = skillAutomaton();
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
    for (const w of objects)
      if (receptacles.has(w)) throw new RangeError(`"${w}" is both an object and a receptacle type`);
    for (const map of this.dfa.next) {
      if (RECEPTACLE_SYMBOLS.filter((s) => map.has(s)).length > 1)
        throw new RangeError('a state of the skill automaton reads a receptacle type two ways');
    }
    const markers = new Set<string>(MARKERS);
    this.tokenSymbol = tok.tokens.map((t) => {
      if (markers.has(t)) return undefined;
      const w = t.toLowerCase();
      if (objects.has(w)) return OBJECT;
      if (receptacles.has(w)) return RECEPTACLE;
      if (numbers.has(t)) return NUMBER;
      return symbols.has(w) ? w : undefined;
    });
    this.tokenSymbol.forEach((sym, id) => {
      if (sym !== undefined) this.symbolTokens.set(sym, [...(this.symbolTokens.get(sym) ?? []), id]);
    });
    for (const sym of PLACE_SLOTS) this.symbolTokens.set(sym, this.symbolTokens.get(RECEPTACLE) ?? []);
    for (const sym of symbols)
      if (!this.symbolTokens.get(sym)?.length)
        throw new RangeError(`the vocabulary has no token for the skill symbol "${sym}"`);
    this.shortest = this.distances(1 << ANY_PLACE).at(0, ANY_PLACE, MIN_SKILL_WORDS);
  }

  private distances(objectClasses: number): Distances {
    let table = this.distanceTables.get(objectClasses);
    if (table === undefined) {
      table = distances(this.dfa, MIN_SKILL_WORDS, objectClasses);
      this.distanceTables.set(objectClasses, table);
    }
    return table;
  }

  /** The symbol a token is read as in a state, or undefined when the state has no edge for it. */
  private symbolAt(state: number, token: number): string | undefined {
    const sym = this.tokenSymbol[token];
    const edges = this.dfa.next[state];
    if (sym === RECEPTACLE) return RECEPTACLE_SYMBOLS.find((s) => edges.has(s));
    return sym !== undefined && edges.has(sym) ? sym : undefined;
  }

  /** The prefix after `token`, or null when the token is not allowed by the grammar (the end token included). */
  next(prefix: SkillPrefix, token: number): SkillPrefix | null {
    const sym = this.symbolAt(prefix.state, token);
    if (sym === undefined) return null;
    const objectNumber = sym === NUMBER && prefix.previousSymbol === OBJECT;
    return {
      state: this.dfa.next[prefix.state].get(sym)!,
      words: prefix.words + (isWordSymbol(sym) ? 1 : 0),
      tokens: prefix.tokens + 1,
      previous: token,
      previousSymbol: sym,
      subject: sym === OBJECT ? token : prefix.subject,
      subjectNumber: sym === OBJECT ? -1 : objectNumber ? token : prefix.subjectNumber,
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
    return this.dfa.accepting[prefix.state] && prefix.words >= MIN_SKILL_WORDS;
  }

  /**
   * The filter of a text's words (compared in lower case): every token except the object and receptacle type
   * names the words lack (a class of which they name no member is left whole, so the grammar can still
   * complete); after a named type, only the numbers that followed it in the words. With `places`, the place
   * slots of every object the filter lets a skill name (its type, and each instance number it allows).
   */
  entityFilter(words: Iterable<string>, places?: ObjectPlaces): EntityFilter {
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
          if (n !== undefined) set(mask, n);
        });
        numbers.set(id, mask);
      }
    }
    return places ? { types, numbers, places: this.placeSlots(types, numbers, places) } : { types, numbers };
  }

  private placeSlots(
    types: Uint32Array,
    numbers: ReadonlyMap<number, Uint32Array>,
    places: ObjectPlaces,
  ): NonNullable<EntityFilter['places']> {
    // A receptacle slot's mask: the receptacles of `names` that the type filter allows, each with its numbers.
    const placeMask = (names: ReadonlySet<string>): PlaceMask | null => {
      const out = { types: new Uint32Array(this.maskWords), numbers: new Map<number, Uint32Array>() };
      for (const id of this.symbolTokens.get(RECEPTACLE)!) {
        if (!bit(types, id)) continue;
        const type = this.tok.token(id).toLowerCase();
        const after = new Uint32Array(this.maskWords);
        for (const n of this.symbolTokens.get(NUMBER)!)
          if (names.has(`${type} ${this.tok.token(n)}`) && (!numbers.has(id) || bit(numbers.get(id)!, n)))
            set(after, n);
        if (!after.some((w) => w !== 0)) continue;
        set(out.types, id);
        out.numbers.set(id, after);
      }
      return out.numbers.size ? out : null;
    };
    // Where an object may be put: any receptacle the filter allows; the task's object, only its goal receptacle.
    const receptacles = this.symbolTokens.get(RECEPTACLE)!.filter((id) => bit(types, id));
    const anyOf = (ids: readonly number[]): PlaceMask | null => {
      const out = new Uint32Array(this.maskWords);
      for (const id of ids) set(out, id);
      return ids.length ? { types: out, numbers } : null;
    };
    const anywhere = anyOf(receptacles);
    const goal = anyOf(receptacles.filter((id) => this.tok.token(id).toLowerCase() === places.goal));
    const matching = (map: ReadonlyMap<string, readonly string[]>, key: string) =>
      new Set(
        [...map]
          .filter(([object]) => object === key || object.slice(0, object.lastIndexOf(' ')) === key)
          .flatMap(([, at]) => at),
      );
    const slots = new Map<string, ObjectSlots>();
    const add = (key: string) => {
      const seen = matching(places.seenIn, key);
      const type = key.split(' ')[0];
      slots.set(key, {
        [WAS_IN]: placeMask(matching(places.startedIn, key)),
        [WAS_NOT_IN]: placeMask(new Set(places.looked.filter((r) => !seen.has(r)))),
        [GOES_TO]: type === places.subject && places.goal !== null ? goal : anywhere,
      });
    };
    let objectClasses = 0;
    for (const id of this.symbolTokens.get(OBJECT)!) {
      if (!bit(types, id)) continue;
      const type = this.tok.token(id).toLowerCase();
      add(type);
      objectClasses |= 1 << placeClass(slots.get(type));
      for (const n of this.symbolTokens.get(NUMBER)!)
        if (!numbers.has(id) || bit(numbers.get(id)!, n)) add(`${type} ${this.tok.token(n)}`);
    }
    if (!slots.has(places.subject)) add(places.subject);
    return { subject: places.subject, slots, objectClasses };
  }

  /** The object key ("mug", "mug 1") "it" stands for after the prefix. */
  private subjectKey(prefix: SkillPrefix, subject: string): string {
    if (prefix.subject < 0) return subject;
    const type = this.tok.token(prefix.subject).toLowerCase();
    return prefix.subjectNumber < 0 ? type : `${type} ${this.tok.token(prefix.subjectNumber)}`;
  }

  /**
   * The allowed-token bitmask after a prefix, for a skill of at most maxTokens tokens, limited by an entity
   * filter when one is given (without a filter the mask is shared: do not modify).
   */
  allowed(prefix: SkillPrefix, maxTokens: number, filter?: EntityFilter): Uint32Array {
    if (filter?.places) return this.placesMask(prefix, maxTokens, filter, filter.places);
    const mask = this.grammarMask(prefix, maxTokens);
    if (!filter) return mask;
    const out = mask.map((w, k) => w & filter.types[k]);
    const after = filter.numbers.get(prefix.previous);
    if (after) {
      for (const id of this.symbolTokens.get(NUMBER)!) {
        if (!bit(after, id)) out[id >>> 5] &= ~(1 << (id & 31));
      }
    }
    return out;
  }

  /** The budget that a prefix's remaining tokens set, or the cap when no valid skill fits them. */
  private budget(table: Distances, prefix: SkillPrefix, placeClass: number, maxTokens: number): number {
    const need = Math.max(0, MIN_SKILL_WORDS - prefix.words);
    const left = maxTokens - prefix.tokens;
    return table.at(prefix.state, placeClass, need) <= left ? Math.min(left, table.cap) : table.cap;
  }

  private grammarMask(prefix: SkillPrefix, maxTokens: number): Uint32Array {
    const table = this.distances(1 << ANY_PLACE);
    const need = Math.max(0, MIN_SKILL_WORDS - prefix.words);
    const budget = this.budget(table, prefix, ANY_PLACE, maxTokens);
    const key = `${prefix.state},${need},${budget}`;
    let mask = this.maskCache.get(key);
    if (mask === undefined) {
      mask = new Uint32Array(this.maskWords);
      for (const [sym, t] of this.dfa.next[prefix.state]) {
        if (1 + table.at(t, ANY_PLACE, Math.max(0, need - (isWordSymbol(sym) ? 1 : 0))) > budget) continue;
        for (const id of this.symbolTokens.get(sym)!) set(mask, id);
      }
      if (this.dfa.accepting[prefix.state] && need === 0) set(mask, this.tok.endId);
      this.maskCache.set(key, mask);
    }
    return mask;
  }

  /**
   * allowed() under a filter with places: each token is kept when a valid skill can follow it within the
   * budget. The budget counts an optional instance number as a word it may not get (the filter can refuse the
   * number): when that leaves nothing, the budget is ignored, as when no valid skill fits it.
   */
  private placesMask(
    prefix: SkillPrefix,
    maxTokens: number,
    filter: EntityFilter,
    places: NonNullable<EntityFilter['places']>,
  ): Uint32Array {
    const table = this.distances(places.objectClasses);
    const slots = places.slots.get(this.subjectKey(prefix, places.subject));
    const current = placeClass(slots);
    const budget = this.budget(table, prefix, current, maxTokens);
    const out = this.placesMaskWithin(prefix, filter, places, table, budget);
    if (out.some((w) => w !== 0)) return out;
    const anyLength = this.placesMaskWithin(prefix, filter, places, table, table.cap);
    if (!anyLength.some((w) => w !== 0))
      throw new RangeError('the skill grammar reached a prefix that no valid skill completes under its filter');
    return anyLength;
  }

  private placesMaskWithin(
    prefix: SkillPrefix,
    filter: EntityFilter,
    places: NonNullable<EntityFilter['places']>,
    table: Distances,
    budget: number,
  ): Uint32Array {
    const slots = places.slots.get(this.subjectKey(prefix, places.subject));
    const current = placeClass(slots);
    const need = Math.max(0, MIN_SKILL_WORDS - prefix.words);
    const classOf = (key: string) => placeClass(places.slots.get(key));
    const out = new Uint32Array(this.maskWords);
    for (const [sym, t] of this.dfa.next[prefix.state]) {
      const after = Math.max(0, need - (isWordSymbol(sym) ? 1 : 0));
      const fits = (placeClassAfter: number) => 1 + table.at(t, placeClassAfter, after) <= budget;
      if (sym === OBJECT) {
        for (const id of this.symbolTokens.get(OBJECT)!)
          if (bit(filter.types, id) && fits(classOf(this.tok.token(id).toLowerCase()))) set(out, id);
      } else if (sym === NUMBER) {
        const slot = isSlot(prefix.previousSymbol) ? slots?.[prefix.previousSymbol] : undefined;
        const allowedAfter = slot ? slot.numbers.get(prefix.previous) : filter.numbers.get(prefix.previous);
        const object = prefix.previousSymbol === OBJECT ? this.tok.token(prefix.previous).toLowerCase() : null;
        for (const id of this.symbolTokens.get(NUMBER)!) {
          if (allowedAfter && !bit(allowedAfter, id)) continue;
          if (fits(object === null ? current : classOf(`${object} ${this.tok.token(id)}`))) set(out, id);
        }
      } else if (isSlot(sym)) {
        const slot = slots?.[sym];
        if (slot && fits(current)) for (const id of this.symbolTokens.get(sym)!) if (bit(slot.types, id)) set(out, id);
      } else if (fits(current)) {
        for (const id of this.symbolTokens.get(sym)!) if (sym !== RECEPTACLE || bit(filter.types, id)) set(out, id);
      }
    }
    if (this.complete(prefix)) set(out, this.tok.endId);
    return out;
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
  if (g === undefined) {
    g = new SkillGrammar(tok);
    grammars.set(tok, g);
  }
  return g;
}

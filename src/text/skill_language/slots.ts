// The subject's slots under an entity filter (grammar.ts, Subject): what each subject key the filter lets a skill
// name allows in each slot, built with the world's meaning, and the decoder's mask under them. The subject is
// the last one the skill named ("it" and "them" stand for it), with its instance number when one followed, and
// the world's first subject before any. A slot with nothing allowed is closed, and so is every path that would
// need it: the distances to a valid skill are taken per slot class (distances.ts).
import { isWordSymbol, type Dfa } from './automaton.ts';
import type { Distances, SlotSymbols } from './distances.ts';
import type { SlotBuilder, Subject, SubjectSlots } from './grammar.ts';
import { bit, isEmpty, set, type SymbolTable } from './symbols.ts';

/** The members and instance numbers a filter allows (decoder.ts, EntityFilter). */
interface ClassFilter {
  readonly members: ReadonlyMap<number, Uint32Array>;
  readonly numbers: ReadonlyMap<number, Uint32Array>;
}

/** The slots of each subject key a filter lets a skill name, the subject before any, and their slot classes. */
export interface SlotFilter {
  readonly subject: string;
  readonly slots: ReadonlyMap<string, SubjectSlots>;
  readonly subjectClasses: number;
}

/** What of a decoding prefix the slots read (decoder.ts, SkillPrefix). */
interface Prefix {
  readonly state: number;
  readonly words: number;
  readonly tokens: number;
  readonly previous: number;
  readonly previousSymbol: string;
  readonly subject: number;
  readonly subjectNumber: number;
}

/** What of the decoder the slots' mask needs. */
export interface SlotDecoder<P extends Prefix> {
  readonly table: SymbolTable;
  readonly dfa: Dfa;
  readonly symbols: SlotSymbols;
  /** The instance number symbol, if the grammar has one. */
  readonly number: string | undefined;
  readonly name: string;
  readonly minWords: number;
  distances(subjectClasses: number): Distances;
  budget(table: Distances, prefix: P, slotClass: number, maxTokens: number): number;
  complete(prefix: P): boolean;
}

/** Whether the filter lets token `id` stand as `sym` (a member of a named class that the words named, or a literal). */
function allows(table: SymbolTable, filter: ClassFilter, sym: string, id: number): boolean {
  const k = table.classOf(sym);
  const members = k === undefined ? undefined : filter.members.get(k);
  return members === undefined || bit(members, id);
}

const slotClass = (symbols: SlotSymbols, slots: SubjectSlots | undefined) =>
  symbols.slots.reduce((c, slot, k) => (slots?.[slot] ? c | (1 << k) : c), 0);

/** The slots of every subject key the filter lets a skill name: its members, and each with every number it allows. */
export function subjectSlots<C>(
  table: SymbolTable,
  symbols: SlotSymbols,
  number: string | undefined,
  subject: Subject<C>,
  context: C,
  filter: ClassFilter,
): SlotFilter {
  const numbers = number === undefined ? [] : table.tokensOf(number);
  const classTokens = (slot: string) => table.tokensOf(slot).filter((id) => allows(table, filter, slot, id));
  const build: SlotBuilder = {
    instances(slot, names) {
      const members = new Uint32Array(table.maskWords);
      const byMember = new Map<number, Uint32Array>();
      for (const id of classTokens(slot)) {
        const type = table.name(id);
        const after = new Uint32Array(table.maskWords);
        for (const n of numbers)
          if (
            names.has(`${type} ${table.tok.token(n)}`) &&
            (!filter.numbers.has(id) || bit(filter.numbers.get(id)!, n))
          )
            set(after, n);
        if (isEmpty(after)) continue;
        set(members, id);
        byMember.set(id, after);
      }
      return byMember.size ? { members, numbers: byMember } : null;
    },
    members(slot, keep) {
      const ids = classTokens(slot).filter((id) => keep(table.name(id)));
      return ids.length ? { members: table.maskOf(ids), numbers: filter.numbers } : null;
    },
  };
  const slotsOf = subject.slotsOf(context, build);
  const slots = new Map<string, SubjectSlots>();
  const add = (key: string) => slots.set(key, slotsOf(key));
  let subjectClasses = 0;
  for (const id of table.tokensOf(subject.symbol)) {
    if (!allows(table, filter, subject.symbol, id)) continue;
    const type = table.name(id);
    add(type);
    subjectClasses |= 1 << slotClass(symbols, slots.get(type));
    for (const n of numbers)
      if (!filter.numbers.has(id) || bit(filter.numbers.get(id)!, n)) add(`${type} ${table.tok.token(n)}`);
  }
  const first = subject.first(context);
  if (!slots.has(first)) add(first);
  return { subject: first, slots, subjectClasses };
}

/** The subject key ("mug", "mug 1") "it" stands for after the prefix. */
function subjectKey(table: SymbolTable, prefix: Prefix, first: string): string {
  if (prefix.subject < 0) return first;
  const type = table.name(prefix.subject);
  return prefix.subjectNumber < 0 ? type : `${type} ${table.tok.token(prefix.subjectNumber)}`;
}

/**
 * The allowed tokens under a filter with slots: each token is kept when a valid skill can follow it within the
 * budget. The budget counts an optional instance number as a word it may not get (the filter can refuse the
 * number): when that leaves nothing, the budget is ignored, as when no valid skill fits it.
 */
export function slotsMask<P extends Prefix>(
  d: SlotDecoder<P>,
  prefix: P,
  maxTokens: number,
  filter: ClassFilter,
  slots: SlotFilter,
): Uint32Array {
  const table = d.distances(slots.subjectClasses);
  const current = slotClass(d.symbols, slots.slots.get(subjectKey(d.table, prefix, slots.subject)));
  const out = slotsMaskWithin(d, prefix, filter, slots, table, d.budget(table, prefix, current, maxTokens));
  if (!isEmpty(out)) return out;
  const anyLength = slotsMaskWithin(d, prefix, filter, slots, table, table.cap);
  if (isEmpty(anyLength))
    throw new RangeError(`the ${d.name} grammar reached a prefix that no valid skill completes under its filter`);
  return anyLength;
}

function slotsMaskWithin<P extends Prefix>(
  d: SlotDecoder<P>,
  prefix: P,
  filter: ClassFilter,
  slots: SlotFilter,
  table: Distances,
  budget: number,
): Uint32Array {
  const own = slots.slots.get(subjectKey(d.table, prefix, slots.subject));
  const current = slotClass(d.symbols, own);
  const need = Math.max(0, d.minWords - prefix.words);
  const classOf = (key: string) => slotClass(d.symbols, slots.slots.get(key));
  const isSlot = (sym: string) => d.symbols.slots.includes(sym);
  const out = new Uint32Array(d.table.maskWords);
  for (const [sym, t] of d.dfa.next[prefix.state]) {
    const after = Math.max(0, need - (isWordSymbol(sym) ? 1 : 0));
    const fits = (slotClassAfter: number) => 1 + table.at(t, slotClassAfter, after) <= budget;
    if (sym === d.symbols.subject) {
      for (const id of d.table.tokensOf(sym))
        if (allows(d.table, filter, sym, id) && fits(classOf(d.table.name(id)))) set(out, id);
    } else if (sym === d.number) {
      const slot = isSlot(prefix.previousSymbol) ? own?.[prefix.previousSymbol] : undefined;
      const allowedAfter = slot ? slot.numbers.get(prefix.previous) : filter.numbers.get(prefix.previous);
      const subject = prefix.previousSymbol === d.symbols.subject ? d.table.name(prefix.previous) : null;
      for (const id of d.table.tokensOf(sym)) {
        if ((allowedAfter && !bit(allowedAfter, id)) || !allows(d.table, filter, sym, id)) continue;
        if (fits(subject === null ? current : classOf(`${subject} ${d.table.tok.token(id)}`))) set(out, id);
      }
    } else if (isSlot(sym)) {
      const slot = own?.[sym];
      if (slot && fits(current)) for (const id of d.table.tokensOf(sym)) if (bit(slot.members, id)) set(out, id);
    } else if (fits(current)) {
      for (const id of d.table.tokensOf(sym)) if (allows(d.table, filter, sym, id)) set(out, id);
    }
  }
  if (d.complete(prefix)) set(out, d.table.tok.endId);
  return out;
}

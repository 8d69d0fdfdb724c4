// The search-QA world's episode skills. What a finished trajectory teaches here is a procedure (which entity to
// search with which relation word, in which order, what to answer) and the facts its pages showed (who was born
// when and where, what a country's capital is, who founded what, where an organisation is based). A success
// gives a workflow, a failure the core mistake and its warning signs; both may add those facts. Names are the
// encyclopedia's (its closed stock, name_stock.ts), written as the pages print them, capitalised, so that a name
// in a skill is the same token as on the page and in the command that copies it; years are the pages' years.
// Only a skill that parses and has at least MIN_QA_SKILL_WORDS words is used for on-policy distillation.
//
// The world fills the shape every world's skills share (src/text/skill_language/skeleton.ts: workflow,
// avoidance, mistakes, "nothing happens", rules) with its steps, facts and words:
//
//   step       := ["then"] ("search" target [RELATION] | "answer" value)   search Marno Nular born, then search Thamia capital
//   gerund     := "searching" target [RELATION] | "answering" value        answering Zaemdrei before searching Thamia capital
//   target     := NAME+ | "the" KIND                                       the person, the country (the procedure's words)
//   value      := NAME+ | YEAR | "the" ROLE                                the year
//   KIND       := "person" | "country" | "city" | "organisation";  ROLE := KIND | "year"
//   RELATION   := "born" | "capital" | "city" | "founded" | "based" | "worked" | "borders"
//   HOW, OF    := none; gerund
//   INVALID    := "actions"; an avoidance rule may have no warning sign
//   own fact   := NAME+ "was" "born" "in" YEAR "in" NAME+                  Marno Nular was born in 1847 in Thamia
//               | NAME+ "is" "a" "city" "in" NAME+
//               | "the" "capital" "of" NAME+ "is" NAME+
//               | "the" NAME+ "was" "founded" "in" YEAR "by" NAME+
//               | "the" NAME+ "is" "based" "in" NAME+
//
// "then" belongs to a step, so that a workflow reads as an order ("search the person born, then search the
// country capital"); the shared rule facts say the order apart ("search the person first.", "search the person
// before searching the country"), "first" never part of a step. NAME is any word of the name stock, YEAR any
// year the encyclopedia prints; the grammar's own words are none of them. Text is read in pieces (pieces.ts),
// case-insensitively; the formatter writes a name as the stock spells it. This file holds the structure and the
// formatter; parser.ts reads a text back, grammar.ts holds the grammar as an automaton for
// constrained decoding, parts.ts takes a skill apart.
import { splitPieces } from '../../../text/pieces.ts';
import {
  factsText,
  type Mistake,
  type RuleFact,
  ruleFactWords,
  type Skill,
  type SkillShape,
  skillText,
  type SkillWriting,
} from '../../../text/skill_language/skeleton.ts';
import { FIRST_YEAR, LAST_YEAR, NAMES, ORGANISATION_KINDS } from '../env/name_stock.ts';

export const MIN_QA_SKILL_WORDS = 4;

export const QA_KINDS = ['person', 'country', 'city', 'organisation'] as const;
export type QaKind = (typeof QA_KINDS)[number];
export const QA_ROLES = [...QA_KINDS, 'year'] as const;
type QaRole = (typeof QA_ROLES)[number];
/** The relation words a search may end with: each passage frame's word for what it states (expert.ts). */
export const QA_RELATIONS = ['born', 'capital', 'city', 'founded', 'based', 'worked', 'borders'] as const;
export type QaRelation = (typeof QA_RELATIONS)[number];

/** Who or what a search is about: named (the words in lower case), or by its kind (the procedure). */
export type QaTarget = { names: string[] } | { role: QaKind };
/** What an answer says: a name, a year, or by its role (the procedure). */
export type QaValue = { names: string[] } | { year: string } | { role: QaRole };

/** A step; `follows` writes "then" before an imperative step (a gerund has none). */
export type QaAction =
  | { verb: 'search'; target: QaTarget; relation?: QaRelation; follows?: true }
  | { verb: 'answer'; value: QaValue; follows?: true };

export type QaMistake = Mistake<QaAction, QaAction>;

/** The facts a page prints, one per passage frame the questions read (names in lower case). */
export type QaOwnFact =
  | { kind: 'born'; person: string[]; year: string; country: string[] }
  | { kind: 'city'; city: string[]; country: string[] }
  | { kind: 'capital'; country: string[]; city: string[] }
  | { kind: 'founded'; organisation: string[]; year: string; founder: string[] }
  | { kind: 'based'; organisation: string[]; city: string[] };

export type QaFact = QaOwnFact | RuleFact<QaAction>;

export type QaSkill = Skill<QaAction, QaFact, QaMistake>;

const KIND_OF_POOL: Readonly<Record<keyof typeof NAMES, QaKind>> = {
  firstNames: 'person',
  surnames: 'person',
  countries: 'country',
  cities: 'city',
  organisationWords: 'organisation',
};

/** Every name word by its lower-case form: how the stock spells it, and the kind of entity it names. */
const NAME_WORDS: ReadonlyMap<string, { spelled: string; kind: QaKind }> = new Map([
  ...(Object.keys(NAMES) as (keyof typeof NAMES)[]).flatMap((pool) =>
    NAMES[pool].map((w) => [w.toLowerCase(), { spelled: w, kind: KIND_OF_POOL[pool] }] as const),
  ),
  ...ORGANISATION_KINDS.map((w) => [w.toLowerCase(), { spelled: w, kind: 'organisation' as const }] as const),
]);

/** Whether a piece is a word of the name stock (in any case). */
export function isNameWord(piece: string): boolean {
  return NAME_WORDS.has(piece.toLowerCase());
}

/** Whether a piece is a year the encyclopedia prints. */
export function isYear(piece: string): boolean {
  return /^[0-9]{4}$/.test(piece) && Number(piece) >= FIRST_YEAR && Number(piece) <= LAST_YEAR;
}

/** The kind of entity a name names, by its first word; null for words of no name. */
export function kindOfName(names: readonly string[]): QaKind | null {
  return NAME_WORDS.get(names[0]?.toLowerCase() ?? '')?.kind ?? null;
}

/** A name as a skill holds it: its words in lower case ("Marno Nular" is marno, nular). */
export function nameOf(text: string): string[] {
  return splitPieces(text).map((p) => p.toLowerCase());
}

export const QA_IMPERATIVE = { search: 'search', answer: 'answer' } as const;
export const QA_GERUND = { search: 'searching', answer: 'answering' } as const;

/** Every word and mark of the grammar, for the world's vocabulary (names and years are the world's own). */
export const QA_SKILL_WORDS: readonly string[] = [
  ...new Set([
    ...Object.values(QA_IMPERATIVE),
    ...Object.values(QA_GERUND),
    ...QA_ROLES,
    ...QA_RELATIONS,
    ...'workflow avoid then the was in is a of by before instead forgetting to invalid actions running out steps'.split(
      ' ',
    ),
    ...'first nothing happens after'.split(' '),
    ...': , ; .'.split(' '),
  ]),
];

/** What the world adds to its vocabulary (src/worlds/languages.ts): its skill words. */
export const SEARCHQA_LANGUAGE = { skillWords: QA_SKILL_WORDS, notWords: [] };

// ---- formatting ----

function nameWords(names: readonly string[]): string[] {
  if (names.length === 0) throw new RangeError('a name needs at least one word');
  return names.map((w) => NAME_WORDS.get(w.toLowerCase())?.spelled ?? w);
}

/** A name's words as the pages print it ("Marno Nular" for marno, nular). */
export function spellName(names: readonly string[]): string {
  return nameWords(names).join(' ');
}

function targetWords(t: QaTarget | QaValue): string[] {
  if ('names' in t) return nameWords(t.names);
  if ('year' in t) return [t.year];
  return ['the', t.role];
}

function actionWords(a: QaAction, gerund: boolean): string[] {
  const verb = gerund ? QA_GERUND[a.verb] : QA_IMPERATIVE[a.verb];
  const then = a.follows && !gerund ? ['then'] : [];
  if (a.verb === 'answer') return [...then, verb, ...targetWords(a.value)];
  return [...then, verb, ...targetWords(a.target), ...(a.relation ? [a.relation] : [])];
}

function ownFactWords(f: QaOwnFact): string[] {
  switch (f.kind) {
    case 'born':
      return [...nameWords(f.person), 'was', 'born', 'in', f.year, 'in', ...nameWords(f.country)];
    case 'city':
      return [...nameWords(f.city), 'is', 'a', 'city', 'in', ...nameWords(f.country)];
    case 'capital':
      return ['the', 'capital', 'of', ...nameWords(f.country), 'is', ...nameWords(f.city)];
    case 'founded':
      return ['the', ...nameWords(f.organisation), 'was', 'founded', 'in', f.year, 'by', ...nameWords(f.founder)];
    case 'based':
      return ['the', ...nameWords(f.organisation), 'is', 'based', 'in', ...nameWords(f.city)];
  }
}

function factWords(f: QaFact): string[] {
  return f.kind === 'nothing' || f.kind === 'first' || f.kind === 'order'
    ? ruleFactWords(f, actionWords)
    : ownFactWords(f);
}

/** The world's skills in the shape every world shares (skill_language/skeleton.ts). */
export const QA_SHAPE: SkillShape = {
  name: 'search-QA skill',
  minWords: MIN_QA_SKILL_WORDS,
  step: 'step',
  invalid: 'actions',
  signsRequired: false,
  how: [],
};

const WRITING: SkillWriting<QaAction, QaFact, QaAction> = {
  actionWords,
  factWords,
  ofWords: (a) => actionWords(a, true),
};

/** The text of a search-QA skill, its names spelled as the pages print them, spaced as pieces.ts joins. */
export function formatQaSkill(s: QaSkill, part = false): string {
  return skillText(s, QA_SHAPE, WRITING, part);
}

/** Fact sentences, each closed by a period, with no head: a skill's facts alone (parts.ts). */
export function formatQaFacts(facts: readonly QaFact[]): string {
  return factsText(facts, factWords);
}

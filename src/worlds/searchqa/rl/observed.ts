// What a search-QA trajectory observed, read back from its text: the question (its kind and the names it asks
// about, read from the question's own frames) and the facts its results pages printed (each passage read back
// through the encyclopedia's frames). From these alone, never from the encyclopedia, the hops of the question are
// followed as far as the pages allow (hopChain) and its answer found once they all are (answerOf). The annotator,
// the explorer and the truth test read only this, so a skill says nothing the trajectory did not see.
import { splitPieces } from '../../../text/pieces.ts';
import { PASSAGE_FRAMES, type Relation } from '../env/encyclopedia.ts';
import type { QaStepRecord } from '../env/game.ts';
import { OBSERVATIONS } from '../env/observations.ts';
import { KINDS, QUESTION_KINDS, type QuestionKind } from '../env/questions.ts';
import { isNameWord, type QaRelation } from '../skills/skill.ts';

/** A question as its text states it. */
export interface ReadQuestion {
  kind: QuestionKind;
  subjects: string[];
}

/** A passage read back: what it states, of which entity, with its frame's slots filled as printed. */
export interface PageFact {
  relation: Relation;
  entity: string;
  slots: Readonly<Record<string, string>>;
}

/** The slot of each frame that names the passage's entity (encyclopedia.ts PASSAGE_FRAMES). */
const ENTITY_SLOT: Readonly<Record<Relation, string>> = {
  capital: 'country',
  borders: 'country',
  city: 'city',
  born: 'person',
  work: 'person',
  founded: 'organisation',
  based: 'organisation',
};

/** The word a search adds to an entity's name to find the passage of a relation (the expert's, expert.ts). */
export const RELATION_WORD: Readonly<Record<Relation, QaRelation>> = {
  capital: 'capital',
  borders: 'borders',
  city: 'city',
  born: 'born',
  work: 'worked',
  founded: 'founded',
  based: 'based',
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A frame as a pattern whose named groups take its slots, each group named "_" and the slot ("_0", "_person"). */
function framePattern(frame: string): RegExp {
  const parts = frame.split(/\{(\w+)\}/);
  return new RegExp(`^${parts.map((p, i) => (i % 2 === 1 ? `(?<_${p}>.+?)` : escapeRegExp(p))).join('')}$`);
}

/** A match's slots by their names, or null for no match. */
function slotsOf(m: RegExpExecArray | null): Record<string, string> | null {
  if (!m?.groups) return null;
  return Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k.slice(1), v]));
}

const PASSAGE_PATTERNS = (Object.keys(PASSAGE_FRAMES) as Relation[]).map(
  (relation) => [relation, framePattern(PASSAGE_FRAMES[relation])] as const,
);
const QUESTION_PATTERNS = QUESTION_KINDS.map((kind) => [kind, framePattern(KINDS[kind].frame)] as const);

/** Whether a text is a name: one or more words of the name stock, nothing else. */
const isName = (text: string) => {
  const pieces = splitPieces(text);
  return pieces.length > 0 && pieces.every(isNameWord);
};

/** The question a text asks, or null for a text of no question frame. */
export function readQuestion(text: string): ReadQuestion | null {
  for (const [kind, pattern] of QUESTION_PATTERNS) {
    const slots = slotsOf(pattern.exec(text.trim()));
    if (slots === null) continue;
    const subjects = Object.keys(slots)
      .sort()
      .map((slot) => slots[slot]);
    if (subjects.every(isName)) return { kind, subjects };
  }
  return null;
}

/** The fact a passage's text states, or null for a text of no frame. */
export function readPassage(text: string): PageFact | null {
  for (const [relation, pattern] of PASSAGE_PATTERNS) {
    const slots = slotsOf(pattern.exec(text));
    if (slots) return { relation, entity: slots[ENTITY_SLOT[relation]], slots };
  }
  return null;
}

/** The facts a results page printed, best first (none on another observation). */
function pageFacts(observation: string): PageFact[] {
  const doc = new RegExp(`^${OBSERVATIONS.doc} [0-9]+: (.*)$`);
  return observation.split('\n').flatMap((line) => {
    const m = doc.exec(line);
    const fact = m ? readPassage(m[1]) : null;
    return fact ? [fact] : [];
  });
}

export const factKey = (entity: string, relation: Relation) => `${entity}/${relation}`;

/** Every fact the trajectory's pages printed, by entity and relation, the first time each was shown. */
export function observedFacts(records: readonly Pick<QaStepRecord, 'observation' | 'valid'>[]): Map<string, PageFact> {
  const book = new Map<string, PageFact>();
  for (const r of records.slice(1)) {
    if (!r.valid) continue;
    for (const f of pageFacts(r.observation))
      if (!book.has(factKey(f.entity, f.relation))) book.set(factKey(f.entity, f.relation), f);
  }
  return book;
}

/** A hop of the question as far as the facts know it: whose fact it needs (null while a bridge is unknown). */
export interface KnownHop {
  entity: string | null;
  relation: Relation;
  fact: PageFact | null;
}

type HopFrom = { subject: number } | { slot: string };
interface KindPlan {
  hops: readonly { relation: Relation; from: HopFrom }[];
  /** The answer: a slot of the last hop's fact, or the entity of the earlier of two facts by year. */
  answer: { slot: string } | 'earlier';
}

const one = (relation: Relation, slot: string): KindPlan => ({
  hops: [{ relation, from: { subject: 0 } }],
  answer: { slot },
});
const bridge = (first: Relation, via: string, second: Relation, slot: string): KindPlan => ({
  hops: [
    { relation: first, from: { subject: 0 } },
    { relation: second, from: { slot: via } },
  ],
  answer: { slot },
});
const compare = (relation: Relation): KindPlan => ({
  hops: [
    { relation, from: { subject: 0 } },
    { relation, from: { subject: 1 } },
  ],
  answer: 'earlier',
});

/** How each kind of question is answered from what pages print, as the question's text says it (questions.ts). */
const PLANS: Readonly<Record<QuestionKind, KindPlan>> = {
  'birth-year': one('born', 'year'),
  'birth-country': one('born', 'country'),
  capital: one('capital', 'city'),
  founder: one('founded', 'person'),
  'founding-year': one('founded', 'year'),
  'capital-of-birth-country': bridge('born', 'country', 'capital', 'city'),
  'founder-birth-year': bridge('founded', 'person', 'born', 'year'),
  'founder-birth-country': bridge('founded', 'person', 'born', 'country'),
  'seat-country': bridge('based', 'city', 'city', 'country'),
  'born-first': compare('born'),
  'founded-first': compare('founded'),
};

/** The question's hops in order, each with its entity and its fact where `facts` know them. */
export function hopChain(question: ReadQuestion, facts: ReadonlyMap<string, PageFact>): KnownHop[] {
  const chain: KnownHop[] = [];
  for (const hop of PLANS[question.kind].hops) {
    const from = hop.from;
    const entity =
      'subject' in from ? (question.subjects[from.subject] ?? null) : (chain.at(-1)?.fact?.slots[from.slot] ?? null);
    chain.push({
      entity,
      relation: hop.relation,
      fact: entity === null ? null : (facts.get(factKey(entity, hop.relation)) ?? null),
    });
  }
  return chain;
}

/** The answer the facts give the question, or null while a hop's fact is unknown. */
export function answerOf(question: ReadQuestion, facts: ReadonlyMap<string, PageFact>): string | null {
  const chain = hopChain(question, facts);
  if (chain.some((h) => h.fact === null)) return null;
  const plan = PLANS[question.kind].answer;
  if (plan !== 'earlier') return chain.at(-1)!.fact!.slots[plan.slot] ?? null;
  const [a, b] = chain.map((h) => h.fact!);
  const year = (f: PageFact) => Number(f.slots.year);
  return year(a) === year(b) ? null : year(a) < year(b) ? a.entity : b.entity;
}

/** The pieces of the question, the queries and the pages of a trajectory: the words its skill may use. */
export function qaTrajectoryWords(
  goal: string,
  records: readonly Pick<QaStepRecord, 'observation' | 'action'>[],
): string[] {
  return [goal, ...records.map((r) => `${r.observation} ${r.action}`)]
    .flatMap((t) => splitPieces(t))
    .filter((p) => p !== '\n');
}

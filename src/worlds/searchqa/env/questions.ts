// The questions, in HotpotQA's three forms: single-hop (one fact: "In which year was X born?"), bridge (two
// facts, the second about an entity the first names: "What is the capital of the country where X was born?")
// and comparison (the same fact of two entities: "Who was born first, X or Y?"). A question is its kind and its
// subjects (the entities it names); its text, gold answer, the entities it needs (subjects, bridge entities and
// the answer) and its hops (the facts, in order, that answer it) follow from the encyclopedia.
import { quote } from '../../../common/json.ts';
import {
  cityOf,
  countryOf,
  type Encyclopedia,
  type EntityKind,
  organisationOf,
  passageKey,
  type Passage,
  personOf,
  type Relation,
} from './encyclopedia.ts';

export const QA_TASK_TYPES = ['single-hop', 'bridge', 'comparison'] as const;
export type QaTaskType = (typeof QA_TASK_TYPES)[number];

export const QUESTION_KINDS = [
  'birth-year',
  'birth-country',
  'capital',
  'founder',
  'founding-year',
  'capital-of-birth-country',
  'founder-birth-year',
  'founder-birth-country',
  'seat-country',
  'born-first',
  'founded-first',
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export function isQuestionKind(name: string): name is QuestionKind {
  return (QUESTION_KINDS as readonly string[]).includes(name);
}

/** A fact a question needs: the passage stating `relation` of `entity` holds it. */
export interface Hop {
  entity: string;
  relation: Relation;
}

interface KindSpec {
  type: QaTaskType;
  /** The kinds of the entities the question names, in order. */
  subjects: readonly EntityKind[];
  /** The question's text; {0} and {1} take the subjects' names. */
  frame: string;
  /** The gold answer, the bridge entities between the subjects and the answer, and the hops. */
  solve(enc: Encyclopedia, subjects: readonly string[]): { answer: string; bridges: string[]; hops: Hop[] };
}

const earlier = (a: string, b: string, year: (name: string) => number) => (year(a) <= year(b) ? a : b);

export const KINDS: Readonly<Record<QuestionKind, KindSpec>> = {
  'birth-year': {
    type: 'single-hop',
    subjects: ['person'],
    frame: 'In which year was {0} born?',
    solve: (enc, [p]) => ({
      answer: String(personOf(enc, p).born),
      bridges: [],
      hops: [{ entity: p, relation: 'born' }],
    }),
  },
  'birth-country': {
    type: 'single-hop',
    subjects: ['person'],
    frame: 'In which country was {0} born?',
    solve: (enc, [p]) => ({ answer: personOf(enc, p).country, bridges: [], hops: [{ entity: p, relation: 'born' }] }),
  },
  capital: {
    type: 'single-hop',
    subjects: ['country'],
    frame: 'What is the capital of {0}?',
    solve: (enc, [c]) => ({
      answer: countryOf(enc, c).capital,
      bridges: [],
      hops: [{ entity: c, relation: 'capital' }],
    }),
  },
  founder: {
    type: 'single-hop',
    subjects: ['organisation'],
    frame: 'Who founded the {0}?',
    solve: (enc, [o]) => ({
      answer: organisationOf(enc, o).founder,
      bridges: [],
      hops: [{ entity: o, relation: 'founded' }],
    }),
  },
  'founding-year': {
    type: 'single-hop',
    subjects: ['organisation'],
    frame: 'In which year was the {0} founded?',
    solve: (enc, [o]) => ({
      answer: String(organisationOf(enc, o).founded),
      bridges: [],
      hops: [{ entity: o, relation: 'founded' }],
    }),
  },
  'capital-of-birth-country': {
    type: 'bridge',
    subjects: ['person'],
    frame: 'What is the capital of the country where {0} was born?',
    solve: (enc, [p]) => {
      const country = personOf(enc, p).country;
      return {
        answer: countryOf(enc, country).capital,
        bridges: [country],
        hops: [
          { entity: p, relation: 'born' },
          { entity: country, relation: 'capital' },
        ],
      };
    },
  },
  'founder-birth-year': {
    type: 'bridge',
    subjects: ['organisation'],
    frame: 'In which year was the founder of the {0} born?',
    solve: (enc, [o]) => {
      const founder = organisationOf(enc, o).founder;
      return {
        answer: String(personOf(enc, founder).born),
        bridges: [founder],
        hops: [
          { entity: o, relation: 'founded' },
          { entity: founder, relation: 'born' },
        ],
      };
    },
  },
  'founder-birth-country': {
    type: 'bridge',
    subjects: ['organisation'],
    frame: 'In which country was the founder of the {0} born?',
    solve: (enc, [o]) => {
      const founder = organisationOf(enc, o).founder;
      return {
        answer: personOf(enc, founder).country,
        bridges: [founder],
        hops: [
          { entity: o, relation: 'founded' },
          { entity: founder, relation: 'born' },
        ],
      };
    },
  },
  'seat-country': {
    type: 'bridge',
    subjects: ['organisation'],
    frame: 'In which country is the city where the {0} is based?',
    solve: (enc, [o]) => {
      const city = organisationOf(enc, o).city;
      return {
        answer: cityOf(enc, city).country,
        bridges: [city],
        hops: [
          { entity: o, relation: 'based' },
          { entity: city, relation: 'city' },
        ],
      };
    },
  },
  'born-first': {
    type: 'comparison',
    subjects: ['person', 'person'],
    frame: 'Who was born first, {0} or {1}?',
    solve: (enc, [p, q]) => ({
      answer: earlier(p, q, (name) => personOf(enc, name).born),
      bridges: [],
      hops: [
        { entity: p, relation: 'born' },
        { entity: q, relation: 'born' },
      ],
    }),
  },
  'founded-first': {
    type: 'comparison',
    subjects: ['organisation', 'organisation'],
    frame: 'Which was founded first, the {0} or the {1}?',
    solve: (enc, [o, r]) => ({
      answer: earlier(o, r, (name) => organisationOf(enc, name).founded),
      bridges: [],
      hops: [
        { entity: o, relation: 'founded' },
        { entity: r, relation: 'founded' },
      ],
    }),
  },
};

export interface QaQuestion {
  kind: QuestionKind;
  type: QaTaskType;
  subjects: readonly string[];
  text: string;
  answer: string;
  /** Every entity the question needs: its subjects, its bridge entities and the entity it answers. */
  needed: readonly string[];
  hops: readonly Hop[];
}

/** Why a question's subjects are refused: the subject at fault (null for the list as a whole) and why. */
export interface SubjectsRefusal {
  index: number | null;
  why: string;
}

/**
 * Why `subjects` cannot be the subjects of a `kind` question in `enc`, or null: a name that is not an entity of
 * the kind wanted, or a comparison of one entity with itself or of two with the same year, which has no single
 * answer.
 */
export function subjectsRefusal(
  enc: Encyclopedia,
  kind: QuestionKind,
  subjects: readonly string[],
): SubjectsRefusal | null {
  const spec = KINDS[kind];
  const wanted = spec.subjects.length;
  if (subjects.length !== wanted)
    return {
      index: null,
      why: `a ${kind} question names ${wanted} ${wanted === 1 ? 'entity' : 'entities'}, got ${subjects.length}`,
    };
  for (const [i, name] of subjects.entries()) {
    const found = enc.kinds.get(name);
    if (found !== spec.subjects[i]) {
      const is = found ? `a ${found}` : 'no entity of the encyclopedia';
      return { index: i, why: `${quote(name)} is ${is}, not a ${spec.subjects[i]}` };
    }
  }
  if (spec.type !== 'comparison') return null;
  const [a, b] = subjects;
  if (a === b) return { index: 1, why: `${a} is compared with itself` };
  const year = (name: string) =>
    spec.subjects[0] === 'person' ? personOf(enc, name).born : organisationOf(enc, name).founded;
  if (year(a) === year(b))
    return { index: null, why: `${a} and ${b} share the year ${year(a)}: the comparison has no single answer` };
  return null;
}

/** The question of a kind about `subjects`; throws a RangeError with subjectsRefusal's reason. */
export function makeQuestion(enc: Encyclopedia, kind: QuestionKind, subjects: readonly string[]): QaQuestion {
  const refusal = subjectsRefusal(enc, kind, subjects);
  if (refusal !== null)
    throw new RangeError(`subjects${refusal.index === null ? '' : `[${refusal.index}]`}: ${refusal.why}`);
  const spec = KINDS[kind];
  const { answer, bridges, hops } = spec.solve(enc, subjects);
  const text = spec.frame.replace(/\{(\d)\}/g, (_, i: string) => subjects[Number(i)]);
  const needed = [...new Set([...subjects, ...bridges, ...(enc.kinds.has(answer) ? [answer] : [])])];
  return { kind, type: spec.type, subjects: [...subjects], text, answer, needed, hops };
}

export function hopPassage(enc: Encyclopedia, hop: Hop): Passage {
  return enc.passageOf.get(passageKey(hop.entity, hop.relation))!;
}

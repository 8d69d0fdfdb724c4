// Reading a search-QA skill's text back into its structure (the grammar is in skill.ts, with the formatter): a
// skill is usable for on-policy distillation only when it parses and holds at least MIN_QA_SKILL_WORDS words.
// The text is read in lower case (skill_language/reading.ts), so the names come back as lower-case words.
import {
  type SkillCheck,
  type SkillReader,
  type SkillReading,
  skillParser,
} from '../../../text/skill_language/reading.ts';
import {
  isNameWord,
  isYear,
  QA_KINDS,
  QA_RELATIONS,
  QA_ROLES,
  QA_SHAPE,
  type QaAction,
  type QaFact,
  type QaOwnFact,
  type QaRelation,
  type QaSkill,
  type QaTarget,
  type QaValue,
} from './skill.ts';

const readName = (r: SkillReader) => r.run(isNameWord, 'a name');

function readYear(r: SkillReader): string {
  const w = r.peek();
  if (w === undefined || !isYear(w)) r.fail('a year');
  r.i++;
  return w;
}

function readTarget(r: SkillReader): QaTarget {
  return r.accept('the') ? { role: r.oneOf(QA_KINDS) } : { names: readName(r) };
}

function readValue(r: SkillReader): QaValue {
  if (r.accept('the')) return { role: r.oneOf(QA_ROLES) };
  return isYear(r.peek() ?? '') ? { year: readYear(r) } : { names: readName(r) };
}

function readAction(r: SkillReader, gerund: boolean): QaAction {
  const follows = !gerund && r.accept('then');
  const verb = r.oneOf(gerund ? ['searching', 'answering'] : ['search', 'answer']);
  const then = follows ? { follows: true as const } : {};
  if (verb === 'answer' || verb === 'answering') return { verb: 'answer', value: readValue(r), ...then };
  const target = readTarget(r);
  const relation = (QA_RELATIONS as readonly string[]).includes(r.peek() ?? '') ? r.oneOf(QA_RELATIONS) : undefined;
  return { verb: 'search', target, ...(relation ? { relation: relation as QaRelation } : {}), ...then };
}

/** The rest of a fact that starts with a name: a birth or a city. */
function readNamedFact(r: SkillReader): QaOwnFact {
  const first = readName(r);
  if (r.accept('was')) {
    for (const w of ['born', 'in']) r.expect(w);
    const year = readYear(r);
    r.expect('in');
    return { kind: 'born', person: first, year, country: readName(r) };
  }
  for (const w of ['is', 'a', 'city', 'in']) r.expect(w);
  return { kind: 'city', city: first, country: readName(r) };
}

/** The rest of a fact after "the": a capital, a founding or a seat. */
function readTheFact(r: SkillReader): QaOwnFact {
  if (r.accept('capital')) {
    r.expect('of');
    const country = readName(r);
    r.expect('is');
    return { kind: 'capital', country, city: readName(r) };
  }
  const organisation = readName(r);
  if (r.accept('was')) {
    for (const w of ['founded', 'in']) r.expect(w);
    const year = readYear(r);
    r.expect('by');
    return { kind: 'founded', organisation, year, founder: readName(r) };
  }
  for (const w of ['is', 'based', 'in']) r.expect(w);
  return { kind: 'based', organisation, city: readName(r) };
}

function readOwnFact(r: SkillReader): QaFact | undefined {
  if (isNameWord(r.peek() ?? '')) return readNamedFact(r);
  return r.accept('the') ? readTheFact(r) : undefined;
}

const READING: SkillReading<QaAction, QaFact, QaAction> = {
  readAction,
  readOwnFact,
  startsStep: (r) => ['then', 'search', 'answer'].includes(r.peek() ?? ''),
  readOf: (r) => readAction(r, true),
  factExpected: 'a fact (a name, "the", "nothing happens" or a step)',
};

/** Parses and validates a search-QA skill: it must follow the grammar of skill.ts and hold at least MIN_QA_SKILL_WORDS words. */
export const parseQaSkill: (text: string) => SkillCheck<QaSkill> = skillParser(QA_SHAPE, READING);

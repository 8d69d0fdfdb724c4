// The search-QA world's rule-based annotator: it reads a finished trajectory (the question and its step records)
// and writes one skill in the grammar of ../skills/skill.ts, from what the trajectory observed (observed.ts):
// the question's own words and the facts its pages printed, never a fact of the encyclopedia no page showed.
//   success -> "workflow:" a search of each hop the pages let it name (the entity and the relation word), in the
//              question's order, each after the first with "then", then the answer it gave; then the hops' facts
//              as the pages printed them.
//   failure -> "avoid:" the core mistake, the first that applies:
//              1. more than 2 invalid actions               -> "invalid actions" (nothing happens)
//              2. answered, every hop's fact on a page      -> "answering X instead of answering Y", Y what they give
//              3. answered, a hop's fact never shown        -> "answering X before searching <entity> <relation>"
//              4. no answer, every hop's fact on a page     -> "forgetting to answer Y"
//              5. no answer, a hop's fact never shown       -> "forgetting to search <entity> <relation>"
//              with the hops' facts the pages showed as warning signs.
// When a skill must be cut to a token budget, its facts go first, then its signs (annotateQa).
import type { QaStepRecord } from '../env/game.ts';
import {
  formatQaSkill,
  isNameWord,
  isYear,
  nameOf,
  type QaAction,
  type QaFact,
  type QaMistake,
  type QaSkill,
  type QaValue,
} from '../skills/skill.ts';
import { parseQaSkill } from '../skills/parser.ts';
import {
  answerOf,
  hopChain,
  observedFacts,
  type KnownHop,
  type PageFact,
  RELATION_WORD,
  readQuestion,
} from './observed.ts';

/** A fact a page printed, as a skill states it; null for a relation no skill fact says (work, borders). */
function skillFact(f: PageFact): QaFact | null {
  const s = f.slots;
  switch (f.relation) {
    case 'born':
      return { kind: 'born', person: nameOf(s.person), year: s.year, country: nameOf(s.country) };
    case 'capital':
      return { kind: 'capital', country: nameOf(s.country), city: nameOf(s.city) };
    case 'city':
      return { kind: 'city', city: nameOf(s.city), country: nameOf(s.country) };
    case 'founded':
      return { kind: 'founded', organisation: nameOf(s.organisation), year: s.year, founder: nameOf(s.person) };
    case 'based':
      return { kind: 'based', organisation: nameOf(s.organisation), city: nameOf(s.city) };
    default:
      return null;
  }
}

/** An answer as a skill writes it: a year, or the name words it holds; null when it holds neither. */
function answerValue(text: string): QaValue | null {
  if (isYear(text.trim())) return { year: text.trim() };
  const names = nameOf(text).filter(isNameWord);
  return names.length ? { names } : null;
}

const searchOf = (hop: KnownHop & { entity: string }): QaAction => ({
  verb: 'search',
  target: { names: nameOf(hop.entity) },
  relation: RELATION_WORD[hop.relation],
});

/** Steps after the first read "then ...". */
const chained = (actions: QaAction[]): QaAction[] => actions.map((a, i) => (i === 0 ? a : { ...a, follows: true }));

const hopFacts = (chain: readonly KnownHop[]) =>
  chain.flatMap((h) => {
    const f = h.fact && skillFact(h.fact);
    return f ? [f] : [];
  });

function workflow(chain: readonly KnownHop[], answer: QaValue | null): QaSkill {
  const searches = chain.filter((h): h is KnownHop & { entity: string } => h.entity !== null).map(searchOf);
  const actions = [...searches, ...(answer ? [{ verb: 'answer' as const, value: answer }] : [])];
  return { kind: 'workflow', actions: chained(actions), facts: hopFacts(chain) };
}

function avoidance(records: readonly QaStepRecord[], chain: readonly KnownHop[], derived: string | null): QaSkill {
  const steps = records.slice(1);
  const signs = hopFacts(chain);
  if (steps.filter((r) => !r.valid).length > 2)
    return { kind: 'avoid', mistake: { kind: 'invalid' }, signs: [{ kind: 'nothing' }], facts: [] };
  const given = records.at(-1)?.answer ?? null;
  const givenValue = given === null ? null : answerValue(given);
  const missing = chain.find((h): h is KnownHop & { entity: string } => h.fact === null && h.entity !== null);
  const right = derived === null ? null : answerValue(derived);
  let mistake: QaMistake;
  if (givenValue && right) {
    mistake = {
      kind: 'instead',
      action: { verb: 'answer', value: givenValue },
      of: { verb: 'answer', value: right },
    };
  } else if (givenValue && missing) {
    // biome-ignore lint/suspicious/noThenProperty: the grammar's second step, never awaited
    mistake = { kind: 'before', action: { verb: 'answer', value: givenValue }, then: searchOf(missing) };
  } else if (right) {
    mistake = { kind: 'forgetting', action: { verb: 'answer', value: right } };
  } else if (missing) {
    mistake = { kind: 'forgetting', action: searchOf(missing) };
  } else {
    mistake = { kind: 'steps' };
  }
  return { kind: 'avoid', mistake, signs, facts: [] };
}

/** One cut that shortens a skill by what carries least, or false when nothing is left to cut. */
function shorten(skill: QaSkill): boolean {
  if (skill.facts.length) return skill.facts.pop() !== undefined;
  return skill.kind === 'avoid' && skill.signs.pop() !== undefined;
}

/**
 * The skill of a finished search-QA trajectory (records[0] is the question's page) asking `question` (its text).
 * A won episode's answer is its last record's; with `length` (tokens of a text) and `maxTokens`, facts and then
 * signs are dropped from the end until the skill fits, never so many that it has too few words to be usable.
 */
export function annotateQa(
  records: readonly QaStepRecord[],
  question: string,
  won: boolean,
  fit?: { length: (text: string) => number; maxTokens: number },
): string {
  const read = readQuestion(question);
  if (read === null) throw new RangeError(`not a search-QA question: ${JSON.stringify(question)}`);
  const facts = observedFacts(records);
  const chain = hopChain(read, facts);
  const given = records.at(-1)?.answer ?? null;
  let skill = won
    ? workflow(chain, given === null ? null : answerValue(given))
    : avoidance(records, chain, answerOf(read, facts));
  while (fit && fit.length(formatQaSkill(skill)) > fit.maxTokens) {
    const shorter = structuredClone(skill);
    if (!shorten(shorter) || !parseQaSkill(formatQaSkill(shorter)).ok) break;
    skill = shorter;
  }
  return formatQaSkill(skill);
}

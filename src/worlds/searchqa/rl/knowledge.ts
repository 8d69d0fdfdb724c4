// What a search-QA skill states, as the primed explorer acts on it (explorer.ts): the facts it states (the
// pages' sentences, with the names spelled as pages print them), the answer it says is right, the answers it
// says were wrong and the searches it says were needed. Read from the skill's text only (../skills/skill.ts).
import type { QaAction, QaFact, QaValue } from '../skills/skill.ts';
import { spellName } from '../skills/skill.ts';
import { parseQaSkill } from '../skills/parser.ts';
import { factKey, type PageFact } from './observed.ts';

/** What a skill states, as the explorer's knowledge of one game. */
export interface QaPrior {
  /** The facts it states, by entity and relation, as a page would have shown them. */
  facts: ReadonlyMap<string, PageFact>;
  /** The answer it says is right: a workflow's, or the one a mistake should have given. */
  answer: string | null;
  /** Answers it says were wrong. */
  avoid: readonly string[];
  /** Searches it names, in order ("forgetting to search ...", a workflow's steps). */
  searches: readonly string[];
}

export const NO_QA_PRIOR: Readonly<QaPrior> = { facts: new Map(), answer: null, avoid: [], searches: [] };

/** A fact of a skill as the page that printed it would be read (observed.ts readPassage). */
export function pageFactOf(f: QaFact): PageFact | null {
  switch (f.kind) {
    case 'born':
      return {
        relation: 'born',
        entity: spellName(f.person),
        slots: { person: spellName(f.person), year: f.year, country: spellName(f.country) },
      };
    case 'capital':
      return {
        relation: 'capital',
        entity: spellName(f.country),
        slots: { country: spellName(f.country), city: spellName(f.city) },
      };
    case 'city':
      return {
        relation: 'city',
        entity: spellName(f.city),
        slots: { city: spellName(f.city), country: spellName(f.country) },
      };
    case 'founded':
      return {
        relation: 'founded',
        entity: spellName(f.organisation),
        slots: { organisation: spellName(f.organisation), year: f.year, person: spellName(f.founder) },
      };
    case 'based':
      return {
        relation: 'based',
        entity: spellName(f.organisation),
        slots: { organisation: spellName(f.organisation), city: spellName(f.city) },
      };
    default:
      return null;
  }
}

/** An answer's text as the pages print it; null for an answer by role (the procedure's). */
function valueText(v: QaValue): string | null {
  return 'names' in v ? spellName(v.names) : 'year' in v ? v.year : null;
}

/** A search step's query as the world takes it; null for a search by role. */
function queryText(a: QaAction): string | null {
  if (a.verb !== 'search' || !('names' in a.target)) return null;
  return [spellName(a.target.names), ...(a.relation ? [a.relation] : [])].join(' ');
}

/** What a skill states; a skill that does not parse states nothing. */
export function qaSkillKnowledge(text: string): QaPrior {
  const skill = parseQaSkill(text).skill;
  if (!skill) return NO_QA_PRIOR;
  const facts = new Map<string, PageFact>();
  const searches: string[] = [];
  const avoid: string[] = [];
  let answer: string | null = null;
  const fact = (f: QaFact) => {
    const page = pageFactOf(f);
    if (page && !facts.has(factKey(page.entity, page.relation))) facts.set(factKey(page.entity, page.relation), page);
  };
  const search = (a: QaAction) => {
    const q = queryText(a);
    if (q !== null && !searches.includes(q)) searches.push(q);
  };
  const wrong = (a: QaAction) => {
    const t = a.verb === 'answer' ? valueText(a.value) : null;
    if (t !== null) avoid.push(t);
  };
  if (skill.kind === 'workflow') {
    for (const a of skill.actions) {
      if (a.verb === 'answer') answer = valueText(a.value) ?? answer;
      else search(a);
    }
  } else {
    const m = skill.mistake;
    if (m.kind === 'doing') wrong(m.action);
    if (m.kind === 'instead') {
      wrong(m.action);
      if (m.of.verb === 'answer') answer = valueText(m.of.value);
    }
    if (m.kind === 'before') {
      wrong(m.action);
      search(m.then);
    }
    if (m.kind === 'forgetting') {
      if (m.action.verb === 'answer') answer = valueText(m.action.value);
      else search(m.action);
    }
    skill.signs.forEach(fact);
  }
  skill.facts.forEach(fact);
  return { facts, answer, avoid, searches };
}

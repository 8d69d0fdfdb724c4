// The expert: Search-R1's search agent played perfectly. For each hop of the question in order (the subject's
// fact, then the bridge entity's), it searches with the entity's name and the relation's word ("Marno Thandar
// born", then "Krovia capital") unless a passage stating that fact is already on a page the episode has shown,
// then answers with the gold answer, which the last hop's passage prints, so the answer is one the game lists.
// A search's pages are replayed while planning, so a search that happens to show a later hop's passage too
// saves the later search. Every generated question is one whose hops its searches find (splits.ts), and the
// scene reader refuses any other (scene.ts).
import type { Encyclopedia, Relation } from './encyclopedia.ts';
import { type Hop, hopPassage, type QaQuestion } from './questions.ts';
import { searchEngineOf } from './search.ts';

/** The word of a passage's frame that names its relation, which the expert adds to the entity's name. */
const RELATION_WORDS: Readonly<Record<Relation, string>> = {
  capital: 'capital',
  borders: 'borders',
  city: 'city',
  born: 'born',
  work: 'worked',
  founded: 'founded',
  based: 'based',
};

export function expertQuery(hop: Hop): string {
  return `${hop.entity} ${RELATION_WORDS[hop.relation]}`;
}

/** The hops whose expert search does not show the passage stating the hop's fact (none for a fair question). */
export function unfoundHops(enc: Encyclopedia, question: Pick<QaQuestion, 'hops'>): Hop[] {
  const engine = searchEngineOf(enc);
  return question.hops.filter(
    (hop) => !engine.search(expertQuery(hop)).some((p) => p.index === hopPassage(enc, hop).index),
  );
}

/** The commands from a state whose pages have shown the passages `shown` to the answer. */
export function expertPlan(enc: Encyclopedia, question: QaQuestion, shown: ReadonlySet<number>): string[] {
  const engine = searchEngineOf(enc);
  const seen = new Set(shown);
  const plan: string[] = [];
  for (const hop of question.hops) {
    if (seen.has(hopPassage(enc, hop).index)) continue;
    const query = expertQuery(hop);
    plan.push(`search[${query}]`);
    for (const p of engine.search(query)) seen.add(p.index);
  }
  return [...plan, `answer[${question.answer}]`];
}

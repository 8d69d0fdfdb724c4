// The encyclopedia's search engine, as Search-R1's retriever returns the top passages of a query: MiniSearch
// (BM25+, the library the shop's search uses) over the passages' text, every query term optional (OR), so a
// query that names the entity and the relation ("Marno Thandar born") ranks the passage stating that fact
// first. Ties in score go to the earlier passage of the encyclopedia, so a query gives the same pages on every
// run. A page holds TOP_K passages: three short sentences keep a results page near 50 tokens, a tenth of the
// tiny model's context, where Search-R1's three Wikipedia paragraphs would not fit at all.
import MiniSearch from 'minisearch';
import type { Encyclopedia, Passage } from './encyclopedia.ts';

export const TOP_K = 3;

export class QaSearch {
  private readonly index: MiniSearch<{ id: number; text: string }>;

  constructor(private readonly passages: readonly Passage[]) {
    this.index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], idField: 'id' });
    this.index.addAll(passages.map((p) => ({ id: p.index, text: p.text })));
  }

  /** The passages that match the query, best first, at most `limit`. */
  search(query: string, limit = TOP_K): Passage[] {
    const hits = this.index.search(query, { combineWith: 'OR' });
    hits.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
    return hits.slice(0, limit).map((hit) => this.passages[hit.id as number]);
  }
}

const engines = new WeakMap<Encyclopedia, QaSearch>();

/** The search engine of an encyclopedia, built once. */
export function searchEngineOf(enc: Encyclopedia): QaSearch {
  let engine = engines.get(enc);
  if (!engine) {
    engine = new QaSearch(enc.passages);
    engines.set(enc, engine);
  }
  return engine;
}

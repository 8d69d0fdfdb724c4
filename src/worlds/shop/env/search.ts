// The shop's search engine: MiniSearch (BM25+) over each product's title and attributes, every query term
// optional (OR), as WebShop's Lucene search is. Ties in score go to the earlier product in the catalogue, so
// a query gives the same result list on every run. WebShop keeps the top 50 results; so does this.
import MiniSearch from 'minisearch';
import { checkCatalogue, type Product } from './catalogue.ts';

const MAX_RESULTS = 50;

interface IndexedProduct {
  id: number;
  title: string;
  attributes: string;
}

export class ShopSearch {
  private readonly index: MiniSearch<IndexedProduct>;

  /** Throws CatalogueError when the catalogue cannot be served. */
  constructor(private readonly products: readonly Product[]) {
    checkCatalogue(products);
    this.index = new MiniSearch<IndexedProduct>({ fields: ['title', 'attributes'], idField: 'id' });
    this.index.addAll(products.map((p, i) => ({ id: i, title: p.title, attributes: p.attributes.join(' ') })));
  }

  /** The products that match the query, best first, at most `limit`. */
  search(query: string, limit = MAX_RESULTS): Product[] {
    const hits = this.index.search(query, { combineWith: 'OR' });
    hits.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
    return hits.slice(0, limit).map((hit) => this.products[hit.id as number]);
  }
}

const engines = new WeakMap<readonly Product[], ShopSearch>();

/** The search engine of a catalogue, built once. */
export function searchEngineOf(products: readonly Product[]): ShopSearch {
  let engine = engines.get(products);
  if (!engine) {
    engine = new ShopSearch(products);
    engines.set(products, engine);
  }
  return engine;
}

// The shop's pages read back into their parts: every page the shop renders, at both of its scales, gives the
// products, options, choices, prices and item tabs it was rendered from, pages recorded before the shop had tabs
// and a search bar on every page read as well, and a text that is no page stays text.
import { describe, expect, it } from 'vitest';
import { environmentOf } from '../../environments.ts';
import { catalogueOf, DEFAULT_CATALOGUE } from '../env/catalogue.ts';
import { formatPrice, renderPage } from '../env/pages.ts';
import { productText } from '../env/product_text.ts';
import { SHOP_SCALES } from '../env/scale.ts';
import { readShopPage } from './page.ts';

const products = catalogueOf(DEFAULT_CATALOGUE);
const INSTRUCTION =
  'i need a canvas duffel bag, adjustable strap, in black, size large, and price lower than 60.00 dollars';

describe('shop pages in the episode view', () => {
  for (const scale of Object.values(SHOP_SCALES)) {
    const head = scale.instructionOnEveryPage ? INSTRUCTION : null;

    it(`reads the ${scale.name} shop's search page, with its instruction set apart`, () => {
      expect(readShopPage(renderPage({ kind: 'search' }, INSTRUCTION, scale))).toEqual({
        page: { kind: 'search' },
        instruction: INSTRUCTION,
        searchBar: false,
      });
    });

    it(`reads the ${scale.name} shop's results pages as their products, with the page buttons`, () => {
      const results = products.slice(0, scale.maxResults);
      const last = Math.ceil(results.length / scale.resultsPerPage);
      for (const page of [1, 2, last]) {
        const read = readShopPage(
          renderPage({ kind: 'results', query: 'duffel bag', results, page }, INSTRUCTION, scale),
        );
        const shown = results.slice((page - 1) * scale.resultsPerPage, page * scale.resultsPerPage);
        expect(read).toEqual({
          instruction: head,
          searchBar: true,
          page: {
            kind: 'results',
            page,
            total: results.length,
            prev: page > 1,
            next: page < last,
            results: shown.map((p) => ({ id: p.id, title: p.title, price: formatPrice(p.priceCents) })),
          },
        });
      }
    });

    it(`reads the ${scale.name} shop's item page as its options, the chosen ones marked, and its price`, () => {
      const product = products.find((p) => Object.keys(p.options).length >= 2)!;
      const [first, second] = Object.entries(product.options);
      const chosen = { [first[0]]: first[1][1], [second[0]]: second[1][0] };
      for (const picked of [{}, { [first[0]]: first[1][1] }, chosen]) {
        const read = readShopPage(
          renderPage(
            { kind: 'item', query: 'q', results: [product], page: 1, product, chosen: picked },
            INSTRUCTION,
            scale,
          ),
        );
        expect(read.instruction).toBe(head);
        expect(read.searchBar).toBe(true);
        expect(read.page).toEqual({
          kind: 'item',
          title: product.title,
          price: formatPrice(product.priceCents),
          tabs: true,
          // WebShop lists every option with the chosen values marked; the tiny shop the options not yet chosen,
          // then each chosen one as its value.
          options: scale.chosenOptionsListed
            ? Object.entries(product.options).map(([name, values]) => ({
                name,
                values: values.map((value) => ({ value, chosen: (picked as Record<string, string>)[name] === value })),
              }))
            : [
                ...Object.entries(product.options)
                  .filter(([name]) => !(name in picked))
                  .map(([name, values]) => ({ name, values: values.map((value) => ({ value, chosen: false })) })),
                ...Object.entries(picked).map(([name, value]) => ({ name, values: [{ value, chosen: true }] })),
              ],
        });
      }
    });

    it(`reads the ${scale.name} shop's Description tab as its text and its Features tab as its list`, () => {
      for (const product of products.slice(0, 40)) {
        const item = { query: 'q', results: [product], page: 1, product, chosen: {} };
        const { description, features } = productText(product);
        const read = (kind: 'description' | 'features') =>
          readShopPage(renderPage({ ...item, kind }, INSTRUCTION, scale));
        expect(read('description')).toEqual({
          instruction: head,
          searchBar: true,
          page: { kind: 'description', text: description },
        });
        expect(read('features')).toEqual({ instruction: head, searchBar: true, page: { kind: 'features', features } });
      }
    });
  }

  it('reads the pages of runs recorded before the item tabs and the search bar on every page', () => {
    const product = products[0];
    const [name, values] = Object.entries(product.options)[0];
    const price = formatPrice(product.priceCents);
    const old = ['Back to Search', '< Prev', name, ...values, product.title, `Price: ${price}`, 'Buy Now'];
    expect(readShopPage(old.join(' [SEP] '))).toMatchObject({
      searchBar: false,
      page: { kind: 'item', title: product.title, price, tabs: false, options: [{ name }] },
    });
    const results = ['Back to Search', 'Page 1 (Total results: 1)', product.id, product.title, price];
    expect(readShopPage(results.join(' [SEP] ')).page).toMatchObject({
      kind: 'results',
      results: [{ id: product.id }],
    });
  });

  it('reads every page of an expert episode, the purchase with its score, and leaves other text as text', () => {
    const env = environmentOf('shop');
    const episode = env.episode(env.trainScene(0, 4));
    for (const command of episode.expertPlan()) episode.step(command);
    const kinds = episode.records.map((r) => readShopPage(r.observation).page.kind);
    expect(kinds[0]).toBe('search');
    expect(kinds).toContain('results');
    expect(kinds).toContain('item');
    expect(kinds.slice(1, -1)).not.toContain('text');
    expect(readShopPage(episode.records.at(-1)!.observation).page).toMatchObject({ kind: 'purchase', score: '1.00' });
    expect(readShopPage('Nothing happens.')).toEqual({
      page: { kind: 'text', text: 'Nothing happens.' },
      instruction: null,
      searchBar: false,
    });
    // A page cut short (a results page missing a price) is shown as the text it is rather than misread.
    const results = renderPage(
      { kind: 'results', query: 'q', results: products.slice(0, 2), page: 1 },
      INSTRUCTION,
      SHOP_SCALES.tiny,
    );
    expect(readShopPage(results.slice(0, results.lastIndexOf(' [SEP] '))).page.kind).toBe('text');
    // So is an item page cut short before its Buy Now: it is no Features tab.
    const product = products[1];
    const item = renderPage(
      { kind: 'item', query: 'q', results: [product], page: 1, product, chosen: {} },
      INSTRUCTION,
      SHOP_SCALES.tiny,
    );
    for (const cut of [1, 2, 3])
      expect(readShopPage(item.split(' [SEP] ').slice(0, -cut).join(' [SEP] ')).page.kind).toBe('text');
  });
});

// A shop page in the episode view (page.ts reads its text): the results as a list of products, an item
// with its options (the chosen ones marked) and price, its Description tab as text and its Features tab as a
// list, the purchase with its score. The instruction is the task line's, so a page that prints it again says
// only that it does; the search bar is one more button.
import { BUTTONS, SEARCH_BAR } from '../env/buttons.ts';
import { readShopPage, type ShopPageView } from './page.ts';

export function ShopPage({ text }: { text: string }) {
  const { page, instruction, searchBar } = readShopPage(text);
  return (
    <div className="shop-page" data-testid="shop-page" data-kind={page.kind} title={text}>
      <PageBody page={page} bar={searchBar ? [SEARCH_BAR] : []} />
      {instruction !== null && page.kind !== 'search' ? (
        <p className="muted">(the page repeats the instruction)</p>
      ) : null}
    </div>
  );
}

/** The page's buttons, as WebShop labels them. */
function Buttons({ labels }: { labels: readonly string[] }) {
  return (
    <span className="muted">
      {labels.map((label) => (
        <span key={label} className="shop-button">
          [{label}]
        </span>
      ))}
    </span>
  );
}

/** The buttons every tab of an item shows. */
const TAB_BUTTONS = [BUTTONS.backToSearch, BUTTONS.prev];

function PageBody({ page, bar }: { page: ShopPageView; bar: readonly string[] }) {
  switch (page.kind) {
    case 'search':
      return (
        <p>
          <strong>Search page</strong>{' '}
          <span className="muted">(the instruction, the task above, and a search box)</span>
        </p>
      );
    case 'results':
      return (
        <>
          <p>
            <strong>Results</strong>, page {page.page} ({page.total} in all){' '}
            <Buttons
              labels={[
                ...bar,
                BUTTONS.backToSearch,
                ...(page.prev ? [BUTTONS.prev] : []),
                ...(page.next ? [BUTTONS.next] : []),
              ]}
            />
          </p>
          <ol className="shop-results" data-testid="shop-results">
            {page.results.map((r) => (
              <li key={r.id} data-testid="shop-result">
                <code>{r.id}</code> {r.title} <span className="shop-price">{r.price}</span>
              </li>
            ))}
          </ol>
        </>
      );
    case 'item':
      return (
        <>
          <p>
            <strong data-testid="shop-item-title">{page.title}</strong> <span className="shop-price">{page.price}</span>{' '}
            <Buttons
              labels={[
                ...bar,
                BUTTONS.backToSearch,
                BUTTONS.prev,
                ...(page.tabs ? [BUTTONS.description, BUTTONS.features] : []),
                BUTTONS.buyNow,
              ]}
            />
          </p>
          <ul className="shop-options">
            {page.options.map((o) => (
              <li key={o.name}>
                {o.name}:{' '}
                {o.values.map((v) => (
                  <span
                    key={v.value}
                    className={`shop-option ${v.chosen ? 'chosen' : ''}`}
                    data-testid="shop-option"
                    data-chosen={v.chosen}
                  >
                    {v.chosen ? `✓ ${v.value}` : v.value}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </>
      );
    case 'description':
      return (
        <>
          <p>
            <strong>Description</strong> <Buttons labels={[...bar, ...TAB_BUTTONS]} />
          </p>
          <p data-testid="shop-description">{page.text}</p>
        </>
      );
    case 'features':
      return (
        <>
          <p>
            <strong>Features</strong> <Buttons labels={[...bar, ...TAB_BUTTONS]} />
          </p>
          <ul className="shop-options" data-testid="shop-features">
            {page.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      );
    case 'purchase':
      return (
        <p>
          <strong>Bought</strong> <code>{page.id}</code>
          {page.score !== null ? `: score ${page.score} (min 0.0, max 1.0)` : ''}
        </p>
      );
    case 'text':
      return <p className="observation">{page.text}</p>;
  }
}

// The shop's buttons as WebShop labels them (pages.ts writes them on its pages; the catalogue keeps them out of
// its product names), apart from the pages so that both read them without importing each other.
export const BUTTONS = {
  backToSearch: 'Back to Search',
  next: 'Next >',
  prev: '< Prev',
  description: 'Description',
  features: 'Features',
  buyNow: 'Buy Now',
} as const;

/** The search bar as its button reads: the search page ends with it, and every other page but the last shows it. */
export const SEARCH_BAR = 'Search';

// The shop's sizes, as the household has room scales. WebShop's pages list 10 results, 50 in all, and print the
// instruction on every page; a results page is then about 330 tokens, and an episode outgrows a tiny model's
// 512-token context in two steps. The tiny shop lists 5 results a page, 25 in all, and prints the instruction
// on the search page only (the policy reads it on its task line): the same site, grammar, reward and splits,
// with a results page of about 160 tokens. WebShop's item page keeps listing an option's values after one is
// chosen (a click changes the choice); the tiny shop's lists the options not yet chosen, so that the value
// still to choose is the only one of the instruction's on the page: a tiny model that copies the instruction's
// values learns the first choice and not the later ones when the chosen value stays listed
// (bench/notes/shop.md).
export interface ShopScale {
  name: 'tiny' | 'webshop';
  resultsPerPage: number;
  maxResults: number;
  /** WebShop prints "Instruction: [SEP] ..." at the head of every page; the tiny shop on the search page only. */
  instructionOnEveryPage: boolean;
  /** An item page lists (and can click) the values of an option already chosen (WebShop), or only the others. */
  chosenOptionsListed: boolean;
}

export const TINY_SHOP: ShopScale = {
  name: 'tiny',
  resultsPerPage: 5,
  maxResults: 25,
  instructionOnEveryPage: false,
  chosenOptionsListed: false,
};
export const WEBSHOP: ShopScale = {
  name: 'webshop',
  resultsPerPage: 10,
  maxResults: 50,
  instructionOnEveryPage: true,
  chosenOptionsListed: true,
};
export const SHOP_SCALES: Readonly<Record<ShopScale['name'], ShopScale>> = { tiny: TINY_SHOP, webshop: WEBSHOP };

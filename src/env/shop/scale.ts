// The shop's sizes, as the household has room scales. WebShop's pages list 10 results, 50 in all, and print the
// instruction on every page; a results page is then about 330 tokens, and an episode outgrows a tiny model's
// 512-token context in two steps. The tiny shop lists 5 results a page, 25 in all, and prints the instruction
// on the search page only (the policy reads it on its task line): the same site, grammar, reward and splits,
// with a results page of about 160 tokens.
export interface ShopScale {
  name: 'tiny' | 'webshop';
  resultsPerPage: number;
  maxResults: number;
  /** WebShop prints "Instruction: [SEP] ..." at the head of every page; the tiny shop on the search page only. */
  instructionOnEveryPage: boolean;
}

export const TINY_SHOP: ShopScale = { name: 'tiny', resultsPerPage: 5, maxResults: 25, instructionOnEveryPage: false };
export const WEBSHOP: ShopScale = { name: 'webshop', resultsPerPage: 10, maxResults: 50, instructionOnEveryPage: true };
export const SHOP_SCALES: Readonly<Record<ShopScale['name'], ShopScale>> = { tiny: TINY_SHOP, webshop: WEBSHOP };

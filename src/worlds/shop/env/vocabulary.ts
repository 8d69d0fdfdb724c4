// Every text the shop can print or accept, for the shop's tokenizer (text/tokenizer.ts splits them into pieces):
// the pages' fixed words, the words of the items' Descriptions and Features (product_text.ts), every brand,
// type, attribute, option name, value and phrase of the categories (in the title case the titles print and the
// lower case instructions and clicks use), the instruction's frame, the numbers prices, bounds and page counts
// print, and the characters of product ids (upper case on pages, lower case in clicks). The list is built from
// the categories, not from one catalogue, so a catalogue of any seed and size prints nothing outside it.
import { NOTHING_HAPPENS } from './site.ts';
import { BRANDS, CATEGORIES } from './categories.ts';
import { titleCase } from './catalogue.ts';
import { BUTTONS, SEARCH_BAR } from './buttons.ts';
import { PURCHASE_TEXTS, SEP } from './pages.ts';
import { productTextWords } from './product_text.ts';

/** Prices, price bounds and result counts print no number above this (the dearest category ends at 120 dollars). */
const LARGEST_NUMBER = 199;
const ID_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The characters of ids as pieces.ts spells them (a first character, then continuations): "Q0" and "0Q" give
 * "Q", "##0", "0" and "##Q", so a letter beside a digit (and a digit beside a letter) gives every first
 * character and every continuation.
 */
function idTexts(): string[] {
  return [...ID_CHARACTERS, ...ID_CHARACTERS.toLowerCase()].flatMap((c) => {
    const partner = /[0-9]/.test(c) ? 'A' : '0';
    return [`${c}${partner}`, `${partner}${c}`];
  });
}

/** The words a search query may hold: brands and every type, attribute and option value, in lower case. */
export function queryTexts(): string[] {
  const texts = BRANDS.map((b) => b.toLowerCase());
  for (const category of CATEGORIES) {
    texts.push(category.query, ...category.types.map((t) => t.name), ...category.attributes.flatMap((g) => g.values));
    texts.push(...category.options.flatMap((o) => o.values));
  }
  return texts;
}

export function shopTexts(): string[] {
  const texts: string[] = [
    'WebShop',
    'Instruction:',
    SEARCH_BAR,
    'Page 1 (Total results: 50)',
    'Selected: color: black, size: large',
    'Price: $12.34',
    SEP,
    NOTHING_HAPPENS,
    ...Object.values(PURCHASE_TEXTS),
    'search[query]',
    'click[item]',
    'i need a shirt, and an item, and price lower than 30.00 dollars',
  ];
  for (const label of Object.values(BUTTONS)) texts.push(label, label.toLowerCase());
  texts.push(...BRANDS, ...queryTexts(), ...productTextWords());
  for (const category of CATEGORIES) {
    // Skills name title words in lower case ("men's").
    texts.push(category.audience, category.audience.toLowerCase(), category.query);
    for (const type of category.types) texts.push(type.name, titleCase(type.name));
    for (const value of category.attributes.flatMap((g) => g.values)) texts.push(value, titleCase(value));
    for (const option of category.options) texts.push(option.name, option.phrase.replace('{v}', ''), ...option.values);
  }
  for (let n = 0; n <= LARGEST_NUMBER; n++) texts.push(String(n));
  for (let n = 0; n < 10; n++) texts.push(`0${n}`);
  texts.push(...idTexts());
  return texts.filter((t) => t !== '');
}

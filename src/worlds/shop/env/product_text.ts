// The text behind an item's Description and Features tabs, as WebShop's products carry it (`Description`,
// `BulletPoints`), generated from the product alone: its category, its type's nouns and its attributes. A
// template and the wording of what the product is for are drawn from the product's id (itself drawn from the
// catalogue's seed), so the same catalogue always reads the same. The Features list names every attribute the
// product has, one bullet each, so each attribute an instruction can ask for is readable on a page, the ones no
// title shows ("touch control", "machine washable") included. Every word comes from the closed lists here and
// in categories.ts: vocabulary.ts adds `productTextWords` to the shop's texts.
import { Rng, hashString } from '../../../common/rng.ts';
import type { Product } from './catalogue.ts';
import { CATEGORIES, type Category } from './categories.ts';

export interface ProductText {
  /** A sentence or two, ending with a full stop. */
  description: string;
  /** One bullet per attribute, in the category's group order; no bullet ends with a full stop. */
  features: readonly string[];
}

/** What each category's products are for, as a description says it ("made for work and travel"). */
const USES: Readonly<Record<string, readonly string[]>> = {
  shirts: ['work and weekend wear', 'everyday wear', 'the office'],
  shoes: ['everyday wear', 'long walks', 'work and weekend wear'],
  bags: ['work and travel', 'daily use', 'school and work'],
  lamps: ['home and office', 'reading at night', 'the living room'],
  mugs: ['coffee and tea', 'hot drinks', 'home and office'],
};

interface Grammar {
  /** "This" or "These", "is" or "are", "It" or "They", "has" or "have". */
  this: string;
  is: string;
  it: string;
  has: string;
}

const SINGULAR: Grammar = { this: 'this', is: 'is', it: 'It', has: 'has' };
const PLURAL: Grammar = { this: 'these', is: 'are', it: 'They', has: 'have' };

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** The first sentences a description opens with: the type, its material and what it is for. */
const OPENINGS: readonly ((type: string, material: string, use: string, g: Grammar) => string)[] = [
  (type, material, use, g) => `${capital(g.this)} ${type} ${g.is} made of ${material} for ${use}.`,
  (type, material, use, g) => `Made of ${material}, ${g.this} ${type} ${g.is} built for ${use}.`,
  (type, material, use, g) => `${capital(g.this)} ${material} ${type} ${g.is} a good pick for ${use}.`,
];

/** The bullet of an attribute: the material's, a style shown in titles, or a feature as it is named. */
function bullet(value: string, group: number, category: Category): string {
  if (group === 0) return `made of ${value}`;
  return category.attributes[group].inTitle ? `${value} design` : value;
}

function categoryOf(product: Product): Category {
  const category = CATEGORIES.find((c) => c.name === product.category);
  if (!category) throw new RangeError(`product ${product.id} has unknown category "${product.category}"`);
  return category;
}

const texts = new WeakMap<Product, ProductText>();

/** The Description and Features of a product, the same on every call and every run. */
export function productText(product: Product): ProductText {
  const known = texts.get(product);
  if (known) return known;
  const category = categoryOf(product);
  const rng = new Rng(hashString(`shop/product-text/${product.id}`));
  const type = product.nouns.join(' ');
  // A plural type ("hiking boots") reads "these ... are", as an instruction gives it no article.
  const grammar = /[^s]s$/.test(type) ? PLURAL : SINGULAR;
  const grouped = category.attributes.map((g) => product.attributes.filter((a) => g.values.includes(a)));
  const material = grouped[0][0];
  if (!Object.hasOwn(USES, category.name)) throw new RangeError(`the category "${category.name}" lists no uses`);
  const use = rng.pick(USES[category.name]);
  // Generated products always have a material; one built by hand may not, and its description says no material.
  const opening =
    material === undefined
      ? `${capital(grammar.this)} ${type} ${grammar.is} made for ${use}.`
      : rng.pick(OPENINGS)(type, material, use, grammar);
  const styles = category.attributes.flatMap((g, i) => (i > 0 && g.inTitle ? grouped[i] : []));
  const style =
    styles.length > 0 ? ` ${grammar.it} ${grammar.has} ${article(styles[0])} ${styles.join(' and ')} design.` : '';
  const features = grouped.flatMap((values, group) => values.map((v) => bullet(v, group, category)));
  const text = { description: opening + style, features };
  texts.set(product, text);
  return text;
}

/** Every word a description or a feature can hold beyond the categories' own: the templates and the uses. */
export function productTextWords(): string[] {
  const words: string[] = Object.values(USES).flat();
  for (const g of [SINGULAR, PLURAL]) {
    for (const open of OPENINGS) words.push(open('', '', '', g));
    words.push(`${capital(g.this)} ${g.is} made for.`, `${g.it} ${g.has} a an and design.`);
  }
  words.push('made of');
  return words;
}

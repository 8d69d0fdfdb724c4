// The product categories of the synthetic catalogue: for each, WebShop's type data (the search query a product
// was listed under, its category path, the nouns of its product type), its attribute groups and its options.
// Every word here is a closed list, so attributes and option values match exactly (see reward.ts).

export interface AttributeGroup {
  /** The group's values; a product has at most one of each group. */
  values: readonly string[];
  /** Whether the chosen value is written in the title (material and style are; care and features are not). */
  inTitle: boolean;
  /** Whether every product of the category has one (the material); otherwise half of them do. */
  always: boolean;
}

interface OptionSpec {
  name: string;
  values: readonly string[];
  /** How an instruction asks for a value: `{v}` is replaced by it ("in {v}", "size {v}"). */
  phrase: string;
}

interface ProductType {
  /** As written in titles and instructions ("oxford shirt"). */
  name: string;
  /** The nouns of the type, WebShop's title nouns for the type match. */
  nouns: readonly string[];
}

export interface Category {
  name: string;
  /** WebShop's `query`: the search under which the product was listed. */
  query: string;
  /** WebShop's `product_category`, split at '›'. */
  path: readonly string[];
  /** Written before the type in titles ("Men's"), or empty. */
  audience: string;
  types: readonly ProductType[];
  attributes: readonly AttributeGroup[];
  options: readonly OptionSpec[];
  /** Price range in whole dollars, [lowest, highest). */
  price: readonly [number, number];
}

function types(...names: string[]): ProductType[] {
  return names.map((name) => ({ name, nouns: name.split(' ') }));
}

export const CATEGORIES: readonly Category[] = [
  {
    name: 'shirts',
    query: 'shirts',
    audience: "Men's",
    path: ['clothing, shoes & jewelry', 'men', 'clothing', 'shirts'],
    types: types('oxford shirt', 'polo shirt', 'henley shirt', 'flannel shirt', 'dress shirt'),
    attributes: [
      { values: ['cotton', 'linen', 'polyester', 'bamboo'], inTitle: true, always: true },
      { values: ['long sleeve', 'short sleeve'], inTitle: true, always: false },
      { values: ['slim fit', 'regular fit', 'relaxed fit'], inTitle: true, always: false },
      { values: ['machine washable', 'wrinkle free', 'moisture wicking'], inTitle: false, always: false },
    ],
    options: [
      { name: 'color', values: ['black', 'white', 'navy', 'grey', 'olive', 'burgundy'], phrase: 'in {v}' },
      { name: 'size', values: ['small', 'medium', 'large', 'x-large', 'xx-large'], phrase: 'size {v}' },
    ],
    price: [12, 60],
  },
  {
    name: 'shoes',
    query: 'shoes',
    audience: "Men's",
    path: ['clothing, shoes & jewelry', 'men', 'shoes'],
    types: types('running shoes', 'canvas sneakers', 'leather loafers', 'hiking boots', 'boat shoes'),
    attributes: [
      { values: ['leather', 'suede', 'mesh', 'knit'], inTitle: true, always: true },
      { values: ['lace up', 'slip on'], inTitle: true, always: false },
      { values: ['rubber sole', 'non slip', 'waterproof', 'lightweight'], inTitle: false, always: false },
    ],
    options: [
      { name: 'color', values: ['black', 'brown', 'white', 'grey', 'navy', 'tan'], phrase: 'in {v}' },
      { name: 'size', values: ['7', '8', '9', '10', '11', '12'], phrase: 'size {v}' },
    ],
    price: [25, 120],
  },
  {
    name: 'bags',
    query: 'bags',
    audience: '',
    path: ['clothing, shoes & jewelry', 'luggage & travel gear', 'bags'],
    types: types('backpack', 'tote bag', 'messenger bag', 'duffel bag', 'crossbody bag'),
    attributes: [
      { values: ['leather', 'canvas', 'nylon', 'polyester'], inTitle: true, always: true },
      { values: ['vintage', 'casual', 'travel'], inTitle: true, always: false },
      {
        values: ['water resistant', 'laptop compartment', 'adjustable strap', 'zipper closure'],
        inTitle: false,
        always: false,
      },
    ],
    options: [
      { name: 'color', values: ['black', 'brown', 'navy', 'grey', 'green', 'red'], phrase: 'in {v}' },
      { name: 'size', values: ['small', 'medium', 'large'], phrase: 'size {v}' },
    ],
    price: [15, 90],
  },
  {
    name: 'lamps',
    query: 'lamps',
    audience: '',
    path: ['home & kitchen', 'lighting & ceiling fans', 'lamps & shades'],
    types: types('desk lamp', 'floor lamp', 'table lamp', 'bedside lamp', 'reading lamp'),
    attributes: [
      { values: ['metal', 'wood', 'ceramic', 'glass'], inTitle: true, always: true },
      { values: ['modern', 'industrial', 'farmhouse', 'minimalist'], inTitle: true, always: false },
      { values: ['dimmable', 'usb charging port', 'touch control', 'energy saving'], inTitle: false, always: false },
    ],
    options: [
      { name: 'color', values: ['black', 'white', 'gold', 'silver', 'bronze'], phrase: 'in {v}' },
      { name: 'light color', values: ['warm light', 'daylight', 'cool light'], phrase: 'with {v}' },
    ],
    price: [18, 110],
  },
  {
    name: 'mugs',
    query: 'mugs',
    audience: '',
    path: ['home & kitchen', 'kitchen & dining', 'dining & entertaining', 'mugs'],
    types: types('coffee mug', 'travel mug', 'camping mug', 'tea mug', 'soup mug'),
    attributes: [
      { values: ['ceramic', 'stainless steel', 'glass', 'enamel'], inTitle: true, always: true },
      { values: ['insulated', 'handmade', 'stackable'], inTitle: true, always: false },
      { values: ['dishwasher safe', 'microwave safe', 'with lid', 'bpa free'], inTitle: false, always: false },
    ],
    options: [
      { name: 'color', values: ['white', 'black', 'blue', 'green', 'pink'], phrase: 'in {v}' },
      { name: 'capacity', values: ['12 oz', '16 oz', '20 oz'], phrase: '{v}' },
    ],
    price: [8, 40],
  },
];

export const BRANDS: readonly string[] = [
  'Northfold',
  'Amberline',
  'Kestrel',
  'Halden',
  'Brightwater',
  'Oakhurst',
  'Lumio',
  'Carraway',
  'Fenwick',
  'Sorrel',
  'Tidewell',
  'Marlowe',
];

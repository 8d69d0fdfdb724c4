// The encyclopedia's closed word stock. Names are invented from syllables by a stream of their own, fixed for
// every encyclopedia: an encyclopedia's seed chooses which names go together and what is true of them, never
// which words exist, so the vocabulary (vocabulary.ts) is the same for every seed and a policy's tokenizer has
// one token per name word. Invented names rather than real ones keep a model from answering out of what it
// might know of the real world, and every name is one capitalised run of letters: one word piece.
import { Rng, hashString } from '../../../common/rng.ts';

const ONSETS = [
  'b',
  'br',
  'd',
  'dr',
  'f',
  'g',
  'gr',
  'h',
  'k',
  'kr',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'th',
  'v',
  'z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ae', 'ei', 'ou'];
const CODAS = ['', '', '', 'l', 'n', 'r', 's', 'nd', 'rn', 'st', 'v', 'm', 'k'];
/** Put between a syllable and an ending that both sound a vowel, which would otherwise run together ("Ziey"). */
const LINKS = ['l', 'n', 'r', 'v', 'd'];

interface PoolSpec {
  count: number;
  /** Syllables before the ending. */
  syllables: number;
  /** One is drawn per name: how the names of a pool sound alike (countries end in "ia", "and", "ora"). */
  endings: readonly string[];
}

/**
 * Words the world's frames print in sentence case or that normalisation drops; no name may coincide with one,
 * so that a name is never read as a frame word or an article.
 */
const RESERVED = new Set(['the', 'doc', 'question', 'your', 'nothing', 'search', 'answer', 'born', 'city', 'based']);

function capitalise(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}

function drawName(rng: Rng, spec: PoolSpec): string {
  let word = '';
  for (let s = 0; s < spec.syllables; s++) word += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
  const ending = rng.pick(spec.endings);
  const vowel = /[aeiou]/;
  if (vowel.test(word.at(-1)!) && vowel.test(ending.charAt(0))) word += rng.pick(LINKS);
  return capitalise(word + ending);
}

function drawPools<K extends string>(specs: Readonly<Record<K, PoolSpec>>): Record<K, readonly string[]> {
  const rng = new Rng(hashString('searchqa/names'));
  const used = new Set<string>(RESERVED);
  const pools = {} as Record<K, readonly string[]>;
  for (const key of Object.keys(specs) as K[]) {
    const names: string[] = [];
    while (names.length < specs[key].count) {
      const name = drawName(rng, specs[key]);
      if (name.length < 4 || name.length > 9 || used.has(name.toLowerCase())) continue;
      used.add(name.toLowerCase());
      names.push(name);
    }
    pools[key] = Object.freeze(names);
  }
  return pools;
}

export const NAMES = drawPools({
  firstNames: { count: 20, syllables: 1, endings: ['a', 'o', 'en', 'ir', 'is'] },
  surnames: { count: 30, syllables: 1, endings: ['', 'e', 'ar', 'ey', 'ow'] },
  countries: { count: 10, syllables: 1, endings: ['ia', 'and', 'ora', 'eth'] },
  cities: { count: 20, syllables: 2, endings: ['', 'a', 'holm', 'ard'] },
  organisationWords: { count: 16, syllables: 1, endings: ['ine', 'ane', 'ock', 'wick'] },
});

/** What an organisation is; its name is a word of organisationWords and one of these ("Drandine Society"). */
export const ORGANISATION_KINDS = ['Society', 'Guild', 'Academy', 'Company', 'Museum', 'Library'] as const;
/** Each starts with a consonant, as the frame's article "a" before it needs. */
export const OCCUPATIONS = [
  'painter',
  'poet',
  'surveyor',
  'physician',
  'sculptor',
  'composer',
  'merchant',
  'scholar',
] as const;

/** The years the encyclopedia prints: births from FIRST_YEAR, foundings up to LAST_YEAR. One word piece each. */
export const FIRST_YEAR = 1800;
export const LAST_YEAR = 1899;

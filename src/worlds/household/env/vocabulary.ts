// The closed word list of the household: every word it can print or accept, for the tokenizer.
//
// Word-splitting rule (`splitWords`): the text is lower-cased; whitespace (spaces, newlines) separates words
// and is not itself a word; the literal "in/on" of the put command and the banner's "-=" and "=-" are
// one word each; a run of letters, digits and apostrophes is a word ("there's", "cabinet", "12"); every other
// character is a word of its own ("." "," ":" "!"). Joining the words with spaces does not restore the text;
// the tokenizer decides how words are glued back together.
import { MAX_INSTANCE_NUMBER, OBJECT_KINDS, RECEPTACLE_KINDS } from './knowledge.ts';
import { allTemplateTexts } from './text.ts';

const WORD = /in\/on|-=|=-|[a-z0-9']+|[^\sa-z0-9']/g;

export function splitWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

let cached: string[] | null = null;

/**
 * Every word of the environment, sorted (code-unit order): the type names of objects and receptacles, the
 * instance numbers 1..MAX_INSTANCE_NUMBER, and the words of every observation, goal and command template.
 */
export function environmentWords(): string[] {
  if (cached) return cached.slice();
  const words = new Set<string>();
  for (const type of Object.keys(OBJECT_KINDS)) words.add(type);
  for (const type of Object.keys(RECEPTACLE_KINDS)) words.add(type);
  for (let n = 1; n <= MAX_INSTANCE_NUMBER; n++) words.add(String(n));
  for (const text of allTemplateTexts()) for (const w of splitWords(text)) if (w !== 'x') words.add(w);
  cached = [...words].sort();
  return cached.slice();
}

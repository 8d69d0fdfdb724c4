// Degenerate skills: a policy that writes a skill can loop on a phrase ("open the drawer 1, open the drawer 1,
// open the drawer 1", "in the bed 1 and the bed 1 and the bed 1"). Such a text may still parse (skill.ts), so
// it would count as valid; it says nothing more than its first copy.
//
// A skill repeats a phrase when a run of at least two words (punctuation marks within it allowed) comes again
// right after itself, the two copies joined by nothing, by "and" or "then", or by a punctuation mark. Phrases
// that recur apart are ordinary ("go to the cabinet 1, open the cabinet 1"), and so is a clause that ends on a
// place when the next one starts with it ("avoid: opening the fridge 1; the fridge 1 was empty."): a copy after
// a punctuation mark counts only when the first copy starts a clause as well.

const JOINING_WORDS = new Set(['and', 'then']);
const PUNCTUATION = new Set([',', ';', '.', ':']);
const MIN_PHRASE_WORDS = 2;

function pieces(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+|[,;.:]/g) ?? [];
}

function startsClause(tokens: readonly string[], at: number): boolean {
  return at === 0 || PUNCTUATION.has(tokens[at - 1]);
}

function sameRun(tokens: readonly string[], a: number, b: number, length: number): boolean {
  if (b + length > tokens.length) return false;
  for (let j = 0; j < length; j++) if (tokens[a + j] !== tokens[b + j]) return false;
  return true;
}

/**
 * The first phrase the text repeats right after itself, or null when none: its words and inner punctuation
 * marks joined by spaces ("open the drawer 1 , close the drawer 1" for a loop of two commands).
 */
export function repeatedPhrase(text: string): string | null {
  const tokens = pieces(text);
  for (let start = 0; start < tokens.length; start++) {
    if (PUNCTUATION.has(tokens[start])) continue;
    for (let length = MIN_PHRASE_WORDS; start + 2 * length <= tokens.length; length++) {
      const phrase = tokens.slice(start, start + length);
      if (PUNCTUATION.has(phrase[length - 1]) || phrase.filter((t) => !PUNCTUATION.has(t)).length < MIN_PHRASE_WORDS)
        continue;
      const after = start + length;
      const gap = tokens[after];
      const copyAt = JOINING_WORDS.has(gap)
        ? [after, after + 1]
        : PUNCTUATION.has(gap) && startsClause(tokens, start)
          ? [after + 1]
          : [after];
      if (copyAt.some((at) => sameRun(tokens, start, at, length))) return phrase.join(' ');
    }
  }
  return null;
}

/** Whether a skill's text loops on a phrase (repeatedPhrase). */
export function isDegenerateSkill(text: string): boolean {
  return repeatedPhrase(text) !== null;
}

// The world's two commands, in Search-R1's form: search[query] and answer[text]. Spaces around the brackets
// and inside them are not significant, so a command a tokenizer wrote back with its spacing
// ("search [ Marno Thandar born ]") reads as the written form. A query or an answer holds at most a policy's
// worth of word pieces: the game answers a longer one "Nothing happens.", and a person's is refused before
// the game reads it (commandRefusal).

/** Word pieces a search holds at most: a two-word name and its relation word fit twice over. */
export const MAX_QUERY_PIECES = 8;
/** Word pieces an answer holds at most: every answer the encyclopedia gives is one or two. */
export const MAX_ANSWER_PIECES = 8;

export type Verb = 'search' | 'answer';

export function parseCommand(command: string): { verb: Verb; argument: string } | null {
  const match = /^(search|answer)\s*\[(.*)\]$/s.exec(command.trim());
  return match ? { verb: match[1] as Verb, argument: match[2].trim().replace(/\s+/g, ' ') } : null;
}

/** The command in its written form ("search[Marno Thandar born]"); text that is no command comes back trimmed. */
export function canonicalCommand(command: string): string {
  const parsed = parseCommand(command);
  return parsed ? `${parsed.verb}[${parsed.argument}]` : command.trim();
}

/**
 * The project tokenizer's rule for splitting text into word pieces (text/pieces.ts, which the environment
 * layer does not import): "in/on", "-=" and "=-" are one piece each; so is a run of letters, digits and
 * apostrophes, or one per character where it mixes letters and digits; a newline is a piece; other whitespace
 * separates pieces; every other character is one.
 */
const PIECE = /in\/on|-=|=-|[A-Za-z0-9']+|\n|[^\sA-Za-z0-9']/g;
const mixed = (run: string) => /[A-Za-z]/.test(run) && /[0-9]/.test(run);

/** The word pieces of `text`, a mixed run spelled as the tokenizer spells it ("B", "##0", ...). */
export function wordPieces(text: string): string[] {
  return (text.match(PIECE) ?? []).flatMap((run) =>
    mixed(run) ? [run[0], ...[...run.slice(1)].map((c) => `##${c}`)] : [run],
  );
}

/** Whether `text` holds more than `limit` word pieces; counting stops past the limit, so a text of megabytes costs one scan up to there. */
export function overPieces(text: string, limit: number): boolean {
  const piece = new RegExp(PIECE);
  let count = 0;
  for (let m = piece.exec(text); m !== null; m = piece.exec(text)) {
    count += mixed(m[0]) ? m[0].length : 1;
    if (count > limit) return true;
  }
  return false;
}

export function pieceLimit(verb: Verb): number {
  return verb === 'search' ? MAX_QUERY_PIECES : MAX_ANSWER_PIECES;
}

/**
 * Why the world cannot take `command` from a player, or null: a search or an answer of more word pieces than
 * a policy writes, or of more than `maxChars` characters (that many of the longest words, spaced: one run of
 * letters is one piece however long, and no policy writes one of megabytes).
 */
export function commandRefusal(command: string, maxChars: number): string | null {
  const parsed = parseCommand(command);
  if (parsed === null) return null;
  const limit = pieceLimit(parsed.verb);
  if (parsed.argument.length <= maxChars && !overPieces(parsed.argument, limit)) return null;
  return (
    `${parsed.verb === 'search' ? 'a search query' : 'an answer'} holds at most ${limit} word pieces ` +
    `(each word, number and mark is one) and ${maxChars} characters, as a policy writes it; ` +
    `this one holds more (${parsed.argument.length} characters)`
  );
}

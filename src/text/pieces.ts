// How text becomes word pieces and how pieces become text again. The tokenizer maps each piece to one token.
//
// Splitting (the environment's rule, src/env/vocabulary.ts, without lower-casing): "in/on", "-=" and "=-" are
// one piece each; a run of letters, digits and apostrophes is a piece ("There's", "cabinet", "12"); a newline is
// a piece; any other whitespace separates pieces and is dropped; every other character is a piece of its own.
// Case is kept, so "You" and "you" are different pieces.
//
// Joining: pieces are separated by one space, except that no space goes before . , : ; ! ? and none on either
// side of a newline. ALFWorld's text follows exactly these spacing rules, so joining the pieces of any text the
// environment prints gives the text back; other text comes back with its whitespace normalised.

const PIECE = /in\/on|-=|=-|[A-Za-z0-9']+|\n|[^\sA-Za-z0-9']/g;
const NO_SPACE_BEFORE = new Set(['.', ',', ':', ';', '!', '?']);

export function splitPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

export function joinPieces(pieces: readonly string[]): string {
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (i > 0 && p !== '\n' && pieces[i - 1] !== '\n' && !NO_SPACE_BEFORE.has(p)) out += ' ';
    out += p;
  }
  return out;
}

/** A piece that is a word (letters or digits), as opposed to punctuation or a newline. */
export function isWordPiece(piece: string): boolean {
  return /^[A-Za-z0-9]/.test(piece);
}

// How text becomes word pieces and how pieces become text again. The tokenizer maps each piece to one token.
//
// Splitting (the environment's rule, src/worlds/household/env/vocabulary.ts, without lower-casing): "in/on", "-=" and "=-" are
// one piece each; a run of letters, digits and apostrophes is a piece ("There's", "cabinet", "12"); a newline is
// a piece; any other whitespace separates pieces and is dropped; every other character is a piece of its own.
// Case is kept, so "You" and "you" are different pieces. A run that mixes letters and digits (a product id such
// as "B07X4KQ2ZM") is spelled one character per piece, every character after the first marked as a continuation
// ("B", "##0", "##7", ...), as WordPiece marks them: an id is then a few dozen tokens of the vocabulary, never one
// token per id, and a policy can copy it character by character.
//
// Joining: pieces are separated by one space, except that no space goes before . , : ; ! ? or a continuation
// (which loses its mark), and none on either side of a newline. ALFWorld's text follows exactly these spacing
// rules, so joining the pieces of any text the environment prints gives the text back; other text comes back
// with its whitespace normalised.

import type { Rng } from '../common/rng.ts';

const PIECE = /in\/on|-=|=-|[A-Za-z0-9']+|\n|[^\sA-Za-z0-9']/g;
const NO_SPACE_BEFORE = new Set(['.', ',', ':', ';', '!', '?']);
const CONTINUATION = '##';

function spell(piece: string): string[] {
  if (!/[A-Za-z]/.test(piece) || !/[0-9]/.test(piece)) return [piece];
  return [piece[0], ...[...piece.slice(1)].map((c) => CONTINUATION + c)];
}

export function splitPieces(text: string): string[] {
  return (text.match(PIECE) ?? []).flatMap(spell);
}

export function joinPieces(pieces: readonly string[]): string {
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (i > 0 && p.startsWith(CONTINUATION) && p.length > CONTINUATION.length) {
      out += p.slice(CONTINUATION.length);
      continue;
    }
    if (i > 0 && p !== '\n' && pieces[i - 1] !== '\n' && !NO_SPACE_BEFORE.has(p)) out += ' ';
    out += p;
  }
  return out;
}

/** A piece that is a word (letters or digits), as opposed to punctuation or a newline. */
export function isWordPiece(piece: string): boolean {
  return /^[A-Za-z0-9]/.test(piece);
}

/**
 * The text's pieces in a random order, drawn from `rng`; a spelled run (a piece and its continuations) moves as
 * one, so that the text encodes to the same tokens as the original, permuted.
 */
export function shufflePieces(text: string, rng: Rng): string {
  const units: string[][] = [];
  for (const p of splitPieces(text)) {
    if (p.startsWith(CONTINUATION) && p.length > CONTINUATION.length && units.length > 0) units.at(-1)!.push(p);
    else units.push([p]);
  }
  return joinPieces(rng.shuffle(units).flat());
}

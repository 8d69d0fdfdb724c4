// A closed word-level tokenizer. One token per piece of text (pieces.ts): the vocabulary holds the markers, then
// every piece the environment can print or accept (its word list and the case-kept forms of its sentences), the
// skill grammar's words and the prompt builders' words, sorted. Anything else encodes to the explicit UNK token.
// The vocabulary has a stable hash (FNV-1a, hex, over the token list joined by spaces), written into checkpoints
// and exports so that weights are never paired with another vocabulary.
import { hashString } from '../common/rng.ts';
import type { Environment } from '../env/environment.ts';
import { environmentOf } from '../worlds/environments.ts';
import { languageOf } from '../worlds/languages.ts';
import { DEFAULT_WORLD, type EnvironmentName, worldNames } from '../worlds/names.ts';
import { END, MARKERS, NEWLINE, PAD, PROMPT_TEXTS, UNK } from './markers.ts';
import { joinPieces, splitPieces } from './pieces.ts';

export class Tokenizer {
  readonly tokens: readonly string[];
  readonly vocabSize: number;
  /** FNV-1a of the token list, 8 hex digits. */
  readonly hash: string;
  readonly padId: number;
  readonly unkId: number;
  readonly endId: number;
  private readonly ids: Map<string, number>;

  constructor(tokens: readonly string[]) {
    this.ids = new Map();
    tokens.forEach((t, i) => {
      if (t === '' || /\s/.test(t))
        throw new RangeError(`token ${i} ${JSON.stringify(t)} is empty or holds whitespace`);
      if (this.ids.has(t)) throw new RangeError(`token ${JSON.stringify(t)} appears twice in the vocabulary`);
      this.ids.set(t, i);
    });
    for (const m of [PAD, UNK, END, NEWLINE]) {
      if (!this.ids.has(m)) throw new RangeError(`the vocabulary lacks the marker ${m}`);
    }
    this.tokens = Object.freeze([...tokens]);
    this.vocabSize = tokens.length;
    this.hash = hashString(tokens.join(' ')).toString(16).padStart(8, '0');
    this.padId = this.id(PAD);
    this.unkId = this.id(UNK);
    this.endId = this.id(END);
  }

  has(token: string): boolean {
    return this.ids.has(token);
  }

  /** The id of a token of the vocabulary (a marker such as "<act>" or a piece such as "cabinet"). */
  id(token: string): number {
    const id = this.ids.get(token);
    if (id === undefined) throw new RangeError(`${JSON.stringify(token)} is not a token of the vocabulary`);
    return id;
  }

  token(id: number): string {
    const t = this.tokens[id];
    if (t === undefined) throw new RangeError(`token id ${id} outside the vocabulary of ${this.vocabSize}`);
    return t;
  }

  /** Text to ids, one per piece; an unknown piece becomes UNK. */
  encode(text: string): number[] {
    return splitPieces(text).map((p) => this.ids.get(p === '\n' ? NEWLINE : p) ?? this.unkId);
  }

  /** Ids to text: pieces joined by the spacing rule of pieces.ts; markers appear by name ("<act>"). */
  decode(ids: ArrayLike<number>): string {
    const pieces: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const t = this.token(ids[i]);
      pieces.push(t === NEWLINE ? '\n' : t);
    }
    return joinPieces(pieces);
  }

  /** The unknown pieces of a text, in order (empty when it encodes without UNK). */
  unknownPieces(text: string): string[] {
    return splitPieces(text).filter((p) => p !== '\n' && !this.ids.has(p));
  }
}

/**
 * A world's vocabulary: the markers in their fixed order, then the sorted (code-unit order) set of the pieces of
 * every text the world prints or accepts (for the household its word list and sentence templates, which add the
 * capitalised forms such as "You"), the skill grammar's words and the prompt builders' words, less the world's
 * pieces that are no words (the household's "x", its templates' name slot).
 */
function vocabularyOf(
  texts: readonly string[],
  skillWords: readonly string[],
  notWords: readonly string[] = [],
): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const p of splitPieces(text)) words.add(p);
  for (const w of skillWords) words.add(w);
  for (const text of PROMPT_TEXTS) for (const p of splitPieces(text)) words.add(p);
  words.delete('\n');
  for (const w of notWords) words.delete(w);
  for (const m of MARKERS) words.delete(m);
  return [...MARKERS, ...[...words].sort()];
}

/** A world's vocabulary: its texts' pieces and its skill language's words (src/worlds/languages.ts). */
function worldVocabulary(env: Pick<Environment, 'name' | 'texts'>): string[] {
  const { skillWords, notWords } = languageOf(env.name);
  return vocabularyOf(env.texts(), skillWords, notWords);
}

/** The default world's vocabulary, which its shipped checkpoints were trained with. */
export function defaultVocabulary(): string[] {
  return worldVocabulary(environmentOf(DEFAULT_WORLD));
}

const cached = new Map<EnvironmentName, Tokenizer>();

/** The tokenizer of a world, built once. */
export function tokenizerOf(env: Pick<Environment, 'name' | 'texts'>): Tokenizer {
  let tok = cached.get(env.name);
  if (!tok) {
    tok = new Tokenizer(worldVocabulary(env));
    cached.set(env.name, tok);
  }
  return tok;
}

/** The world whose vocabulary hashes to `hash` (each world has its own), or null for none of them. */
export function worldOfVocabulary(hash: string): EnvironmentName | null {
  return worldNames().find((name) => tokenizerOf(environmentOf(name)).hash === hash) ?? null;
}

/**
 * Why a checkpoint of world `of` does not load where world `here` is played, and how to load it (`remedy`: the
 * command line's "pass --env shop", the page's "switch World to the shop"): one wording for both.
 */
export function otherWorldCheckpoint(of: EnvironmentName, here: EnvironmentName, remedy: string): string {
  return `it is a ${of} checkpoint, not a ${here} one: ${remedy}`;
}

/** The default world's tokenizer (src/worlds/names.ts DEFAULT_WORLD): what a benchmark or a test of no world reads with. */
export function defaultTokenizer(): Tokenizer {
  return tokenizerOf(environmentOf(DEFAULT_WORLD));
}

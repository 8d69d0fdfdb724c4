// Constrained decoding of a command: a trie over the tokenized admissible commands of one state. Each node is
// a token prefix; its allowed-token bitmask (the backend's mask format: ceil(vocab/32) u32 words, bit v of
// word v >> 5) holds every token that continues some admissible command, plus the end-of-command token when the
// prefix is itself a complete command. Any walk that only takes allowed tokens and stops at the end token spells
// an admissible command, so a constrained policy can never say anything else.
//
// A state that also takes free text (the shop's search bar, env/environment.ts FreeTextCommand) adds a slot:
// the opening tokens ("search [") lead into it, then 1..maxPieces tokens of the slot's word set, then the
// closing token ("]") and the end token. Slot nodes follow the trie's nodes; a walk through the slot spells no
// listed command (completedCommand is -1 there) and the caller decodes it.
import type { FreeTextCommand } from '../env/environment.ts';
import { MARKERS } from './markers.ts';
import type { Tokenizer } from './tokenizer.ts';

/** A free-text slot in token ids. */
export interface CommandSlot {
  open: readonly number[];
  words: readonly number[];
  close: number;
  maxPieces: number;
}

export class CommandTrie {
  /** children[node]: token -> child node. Node 0 is the empty prefix. */
  private readonly children: Map<number, number>[] = [new Map()];
  /** Index into `commands` of the command that a node completes, or -1. */
  private readonly complete: number[] = [-1];
  private readonly masks: Uint32Array[] = [];
  readonly maskWords: number;
  /** The trie node the slot's opening tokens reach, the first slot node, and the slot's word set; -1 without a slot. */
  private readonly slotEntry: number = -1;
  private readonly slotBase: number = -1;
  private readonly slotWords = new Set<number>();

  /**
   * @param commands token ids of each admissible command, without the end token (duplicates are merged)
   * @param endId the end-of-command token
   * @param vocabSize size of the vocabulary, which fixes the mask width
   */
  constructor(
    readonly commands: readonly (readonly number[])[],
    readonly endId: number,
    readonly vocabSize: number,
    readonly slot: CommandSlot | null = null,
  ) {
    this.maskWords = Math.ceil(vocabSize / 32);
    if (!(endId >= 0 && endId < vocabSize)) throw new RangeError(`end token ${endId} outside the vocabulary`);
    commands.forEach((ids, c) => {
      if (ids.length === 0) throw new RangeError(`admissible command ${c} is empty`);
      const node = this.insertPath(ids, `admissible command ${c}`);
      if (this.complete[node] < 0) this.complete[node] = c;
    });
    if (slot) this.slotEntry = this.insertPath(slot.open, 'the free-text opening');
    for (let node = 0; node < this.children.length; node++) {
      const mask = new Uint32Array(this.maskWords);
      for (const id of this.children[node].keys()) mask[id >>> 5] |= 1 << (id & 31);
      if (this.complete[node] >= 0) mask[endId >>> 5] |= 1 << (endId & 31);
      this.masks.push(mask);
    }
    if (slot) {
      if (slot.open.length === 0 || slot.words.length === 0 || !(slot.maxPieces >= 1))
        throw new RangeError('a free-text slot needs opening tokens, words and room for one');
      for (const id of [...slot.words, slot.close]) {
        if (!(Number.isInteger(id) && id >= 0 && id < vocabSize) || id === endId)
          throw new RangeError(`free-text token ${id} cannot be part of a command`);
      }
      for (const id of slot.words) this.slotWords.add(id);
      this.slotBase = this.children.length;
      const words = new Uint32Array(this.maskWords);
      for (const id of this.slotWords) words[id >>> 5] |= 1 << (id & 31);
      for (let w = 0; w < this.maskWords; w++) this.masks[this.slotEntry][w] |= words[w];
      // Slot node slotBase + k - 1: k pieces written (1..maxPieces); then the closed node.
      for (let k = 1; k <= slot.maxPieces; k++) {
        const mask = k < slot.maxPieces ? words.slice() : new Uint32Array(this.maskWords);
        mask[slot.close >>> 5] |= 1 << (slot.close & 31);
        this.masks.push(mask);
        this.complete.push(-1);
      }
      const closed = new Uint32Array(this.maskWords);
      closed[endId >>> 5] |= 1 << (endId & 31);
      this.masks.push(closed);
      this.complete.push(-1);
    }
  }

  /** The node a token path reaches, created as needed; `what` names the path in a refusal. */
  private insertPath(ids: readonly number[], what: string): number {
    let node = 0;
    for (const id of ids) {
      if (!(Number.isInteger(id) && id >= 0 && id < this.vocabSize) || id === this.endId) {
        throw new RangeError(`${what} holds token ${id}, which cannot be part of a command`);
      }
      let next = this.children[node].get(id);
      if (next === undefined) {
        next = this.children.length;
        this.children.push(new Map());
        this.complete.push(-1);
        this.children[node].set(id, next);
      }
      node = next;
    }
    return node;
  }

  /** The trie of a state's admissible commands, as the environment lists them, and of its free text if any. */
  static fromCommands(
    tok: Tokenizer,
    commands: readonly string[],
    freeText: FreeTextCommand | null = null,
  ): CommandTrie {
    const encode = (text: string, what: string) => {
      const encoded = tok.encode(text);
      if (encoded.includes(tok.unkId))
        throw new RangeError(
          `${what} "${text}" has words outside the vocabulary: ${tok.unknownPieces(text).join(', ')}`,
        );
      return encoded;
    };
    return CommandTrie.fromEncoded(
      tok,
      commands.map((c) => encode(c, 'admissible command')),
      freeText && slotOf(tok, freeText, encode),
    );
  }

  /** The trie of commands already encoded, with a free-text slot in token ids (`freeTextSlot`). */
  static fromEncoded(
    tok: Pick<Tokenizer, 'endId' | 'vocabSize'>,
    commands: readonly (readonly number[])[],
    slot: CommandSlot | null = null,
  ): CommandTrie {
    return new CommandTrie(commands, tok.endId, tok.vocabSize, slot);
  }

  get nodeCount(): number {
    return this.masks.length;
  }

  /** The allowed-token bitmask at a node (shared: do not modify). */
  allowed(node: number): Uint32Array {
    return this.masks[node];
  }

  isAllowed(node: number, token: number): boolean {
    return token >= 0 && token < this.vocabSize && (this.masks[node][token >>> 5] & (1 << (token & 31))) !== 0;
  }

  /** The allowed tokens at a node, in increasing id order. */
  allowedTokens(node: number): number[] {
    const out: number[] = [];
    const mask = this.masks[node];
    for (let w = 0; w < mask.length; w++) {
      for (let bits = mask[w]; bits !== 0; bits &= bits - 1) out.push(w * 32 + (31 - Math.clz32(bits & -bits)));
    }
    return out;
  }

  /** The node after taking `token` at `node`, or -1 when the token is not a continuation (the end token included). */
  child(node: number, token: number): number {
    const slot = this.slot;
    if (slot) {
      const written = node === this.slotEntry ? 0 : node >= this.slotBase ? node - this.slotBase + 1 : -1;
      if (written >= 0 && written <= slot.maxPieces) {
        if (written < slot.maxPieces && this.slotWords.has(token)) return this.slotBase + written;
        if (written > 0 && token === slot.close) return this.slotBase + slot.maxPieces;
        if (written > 0) return -1;
      }
      if (node >= this.slotBase) return -1;
    }
    return this.children[node].get(token) ?? -1;
  }

  /** Whether a command may end at `node`: a listed command, or a closed free-text slot. */
  isComplete(node: number): boolean {
    return this.complete[node] >= 0 || (this.slot !== null && node === this.slotBase + this.slot.maxPieces);
  }

  /** Index of the admissible command that `node` spells completely, or -1 (a free-text command included). */
  completedCommand(node: number): number {
    return this.complete[node];
  }

  /** The node reached by a token prefix, or -1 when it leaves the trie. */
  walk(prefix: readonly number[]): number {
    let node = 0;
    for (const id of prefix) {
      node = this.child(node, id);
      if (node < 0) return -1;
    }
    return node;
  }

  /**
   * The masks under which a command's tokens and then the end token were chosen, one after another
   * ([ids.length + 1] * maskWords): what training needs to re-score the command under the same constraint.
   */
  commandMasks(ids: readonly number[]): Uint32Array {
    const out = new Uint32Array((ids.length + 1) * this.maskWords);
    let node = 0;
    for (let k = 0; k <= ids.length; k++) {
      out.set(this.masks[node], k * this.maskWords);
      if (k === ids.length) break;
      node = this.child(node, ids[k]);
      if (node < 0) throw new RangeError(`token ${k} of the command leaves the admissible commands`);
    }
    if (!this.isComplete(node)) throw new RangeError('the command is a prefix of an admissible command, not one');
    return out;
  }
}

/** A state's free text in token ids, built once per free text (the shop's search bar is one object). */
const slots = new WeakMap<FreeTextCommand, WeakMap<object, CommandSlot>>();

function slotOf(
  tok: Tokenizer,
  freeText: FreeTextCommand,
  encode: (text: string, what: string) => number[],
): CommandSlot {
  let byTok = slots.get(freeText);
  if (!byTok) {
    byTok = new WeakMap();
    slots.set(freeText, byTok);
  }
  let slot = byTok.get(tok);
  if (!slot) {
    const close = encode(freeText.close, 'free-text closing');
    if (close.length !== 1) throw new RangeError(`free text must close with one token, not "${freeText.close}"`);
    const words = new Set<number>();
    for (const text of freeText.words)
      for (const id of encode(text, 'free-text word')) if (id !== close[0]) words.add(id);
    slot = {
      open: encode(freeText.open, 'free-text opening'),
      words: [...words],
      close: close[0],
      maxPieces: freeText.maxPieces,
    };
    byTok.set(tok, slot);
  }
  return slot;
}

/** A state's free text in token ids, every word checked against the vocabulary. */
export function freeTextSlot(tok: Tokenizer, freeText: FreeTextCommand): CommandSlot {
  return slotOf(tok, freeText, (text, what) => {
    const encoded = tok.encode(text);
    if (encoded.includes(tok.unkId))
      throw new RangeError(`${what} "${text}" has words outside the vocabulary: ${tok.unknownPieces(text).join(', ')}`);
    return encoded;
  });
}

/**
 * The mask of free decoding (skills, and commands when decoding is not constrained): every text token and the
 * end token. The other markers (padding, the unknown token and newline among them) can never be written.
 */
export function freeDecodingMask(tok: Tokenizer): Uint32Array {
  const mask = new Uint32Array(Math.ceil(tok.vocabSize / 32));
  const markers = new Set<string>(MARKERS);
  for (let id = 0; id < tok.vocabSize; id++) {
    if (id === tok.endId || !markers.has(tok.token(id))) mask[id >>> 5] |= 1 << (id & 31);
  }
  return mask;
}

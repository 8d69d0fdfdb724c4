// Constrained decoding of a command: a trie over the tokenized admissible commands of one state. Each node is
// a token prefix; its allowed-token bitmask (the backend's mask format: ceil(vocab/32) u32 words, bit v of
// word v >> 5) holds every token that continues some admissible command, plus the end-of-command token when the
// prefix is itself a complete command. Any walk that only takes allowed tokens and stops at the end token spells
// an admissible command, so a constrained policy can never say anything else.
import { MARKERS } from './markers.ts';
import type { Tokenizer } from './tokenizer.ts';

export class CommandTrie {
  /** children[node]: token -> child node. Node 0 is the empty prefix. */
  private readonly children: Map<number, number>[] = [new Map()];
  /** Index into `commands` of the command that a node completes, or -1. */
  private readonly complete: number[] = [-1];
  private readonly masks: Uint32Array[] = [];
  readonly maskWords: number;

  /**
   * @param commands token ids of each admissible command, without the end token (duplicates are merged)
   * @param endId the end-of-command token
   * @param vocabSize size of the vocabulary, which fixes the mask width
   */
  constructor(
    readonly commands: readonly (readonly number[])[],
    readonly endId: number,
    readonly vocabSize: number,
  ) {
    this.maskWords = Math.ceil(vocabSize / 32);
    if (!(endId >= 0 && endId < vocabSize)) throw new RangeError(`end token ${endId} outside the vocabulary`);
    commands.forEach((ids, c) => {
      if (ids.length === 0) throw new RangeError(`admissible command ${c} is empty`);
      let node = 0;
      for (const id of ids) {
        if (!(Number.isInteger(id) && id >= 0 && id < vocabSize) || id === endId) {
          throw new RangeError(`admissible command ${c} holds token ${id}, which cannot be part of a command`);
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
      if (this.complete[node] < 0) this.complete[node] = c;
    });
    for (let node = 0; node < this.children.length; node++) {
      const mask = new Uint32Array(this.maskWords);
      for (const id of this.children[node].keys()) mask[id >>> 5] |= 1 << (id & 31);
      if (this.complete[node] >= 0) mask[endId >>> 5] |= 1 << (endId & 31);
      this.masks.push(mask);
    }
  }

  /** The trie of a state's admissible commands, as the environment lists them. */
  static fromCommands(tok: Tokenizer, commands: readonly string[]): CommandTrie {
    const ids = commands.map((c) => {
      const encoded = tok.encode(c);
      if (encoded.includes(tok.unkId)) {
        throw new RangeError(`admissible command "${c}" has words outside the vocabulary: ${tok.unknownPieces(c).join(', ')}`);
      }
      return encoded;
    });
    return new CommandTrie(ids, tok.endId, tok.vocabSize);
  }

  get nodeCount(): number {
    return this.children.length;
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
    return this.children[node].get(token) ?? -1;
  }

  /** Index of the admissible command that `node` spells completely, or -1. */
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
    if (this.complete[node] < 0) throw new RangeError('the command is a prefix of an admissible command, not one');
    return out;
  }
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

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Game } from '../worlds/household/env/game.ts';
import { generateScene } from '../worlds/household/env/splits.ts';
import { CommandTrie, freeDecodingMask } from './command_trie.ts';
import { MARKERS } from './markers.ts';
import { defaultTokenizer } from './tokenizer.ts';

const END = 1;

describe('CommandTrie', () => {
  // Commands over ids: [5 7] "go to", then the receptacle; [9] "look" is a prefix of [9 40] "look 40".
  const commands = [
    [5, 7, 33],
    [5, 7, 34],
    [9],
    [9, 40],
    [5, 7, 33], // a duplicate is merged
  ];
  const trie = new CommandTrie(commands, END, 70);

  it('allows exactly the continuations of the admissible commands', () => {
    expect(trie.maskWords).toBe(3);
    expect(trie.allowedTokens(0)).toEqual([5, 9]);
    expect(Array.from(trie.allowed(0))).toEqual([(1 << 5) | (1 << 9), 0, 0]);
    const goTo = trie.walk([5, 7]);
    expect(trie.allowedTokens(goTo)).toEqual([33, 34]);
    expect(Array.from(trie.allowed(goTo))).toEqual([0, (1 << 1) | (1 << 2), 0]);
    // "look" is complete and continues: the end token and 40 (bit 8 of word 1) are both allowed.
    const look = trie.walk([9]);
    expect(trie.allowedTokens(look)).toEqual([END, 40]);
    expect(trie.completedCommand(look)).toBe(2);
    expect(trie.allowedTokens(trie.walk([9, 40]))).toEqual([END]);
    expect(trie.completedCommand(trie.walk([5, 7, 33]))).toBe(0);
    expect(trie.walk([5, 8])).toBe(-1);
    expect(trie.child(look, END)).toBe(-1);
    expect(trie.nodeCount).toBe(7);
  });

  it('gives the masks under which a command was chosen, end token included', () => {
    const masks = trie.commandMasks([9]);
    expect(masks.length).toBe(2 * 3);
    expect(Array.from(masks.subarray(0, 3))).toEqual(Array.from(trie.allowed(0)));
    expect(Array.from(masks.subarray(3, 6))).toEqual([(1 << END) | 0, 1 << 8, 0]);
    expect(() => trie.commandMasks([5, 7])).toThrow(/prefix/);
    expect(() => trie.commandMasks([5, 6])).toThrow(/leaves/);
  });

  it('refuses empty commands and tokens outside the vocabulary or equal to the end token', () => {
    expect(() => new CommandTrie([[]], END, 10)).toThrow(/empty/);
    expect(() => new CommandTrie([[3, 10]], END, 10)).toThrow(/token 10/);
    expect(() => new CommandTrie([[3, END]], END, 10)).toThrow(/token 1/);
    expect(() => new CommandTrie([[3]], 10, 10)).toThrow(/end token/);
  });

  it('spells only admissible commands on any walk through allowed tokens, and reaches every one', () => {
    const vocab = fc.integer({ min: 2, max: 300 });
    fc.assert(
      fc.property(
        vocab.chain((v) =>
          fc.record({
            vocabSize: fc.constant(v),
            end: fc.integer({ min: 0, max: v - 1 }),
            commands: fc.array(fc.array(fc.integer({ min: 0, max: v - 1 }), { minLength: 1, maxLength: 6 }), {
              minLength: 1,
              maxLength: 25,
            }),
            choices: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
          }),
        ),
        ({ vocabSize, end, commands, choices }) => {
          const cleaned = commands.map((c) => c.map((id) => (id === end ? (id + 1) % vocabSize : id)));
          const trie = new CommandTrie(cleaned, end, vocabSize);
          const admissible = new Set(cleaned.map((c) => c.join(' ')));

          // A random walk: at each node take one of the allowed tokens, until the end token.
          const walked: number[] = [];
          let node = 0;
          for (let step = 0; ; step++) {
            const allowed = trie.allowedTokens(node);
            expect(allowed.length).toBeGreaterThan(0);
            const token = allowed[choices[step % choices.length] % allowed.length];
            if (token === end) break;
            walked.push(token);
            node = trie.child(node, token);
            expect(node).toBeGreaterThanOrEqual(0);
          }
          expect(admissible.has(walked.join(' '))).toBe(true);
          expect(cleaned[trie.completedCommand(node)]).toEqual(walked);

          // Every admissible command can be spelled, and its masks allow each of its tokens in turn.
          for (const c of cleaned) {
            const masks = trie.commandMasks(c);
            [...c, end].forEach((id, k) => {
              expect((masks[k * trie.maskWords + (id >>> 5)] >>> (id & 31)) & 1).toBe(1);
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('CommandTrie of a game', () => {
  const tok = defaultTokenizer();

  it('constrains decoding to the admissible commands of the state', () => {
    const game = new Game(generateScene('train', 3));
    const commands = game.admissibleCommands();
    const trie = CommandTrie.fromCommands(tok, commands);
    // The first token of every command, and nothing else, is allowed at the root.
    const firsts = [...new Set(commands.map((c) => tok.encode(c)[0]))].sort((a, b) => a - b);
    expect(trie.allowedTokens(0)).toEqual(firsts);
    expect(trie.allowedTokens(0)).toContain(tok.id('go'));
    expect(trie.allowedTokens(0)).not.toContain(tok.endId);
    // Greedy walk on the lowest allowed id spells one of the commands.
    let node = 0;
    const ids: number[] = [];
    for (;;) {
      const next = trie.allowedTokens(node)[0];
      if (next === tok.endId) break;
      ids.push(next);
      node = trie.child(node, next);
    }
    expect(commands).toContain(tok.decode(ids));
    expect(() => CommandTrie.fromCommands(tok, ['go to unicorn 1'])).toThrow(
      /"go to unicorn 1" has words outside the vocabulary: unicorn/,
    );
  });

  it('has a free-decoding mask of every text token and the end token', () => {
    const mask = freeDecodingMask(tok);
    const allowed = (id: number) => ((mask[id >>> 5] >>> (id & 31)) & 1) === 1;
    expect(mask.length).toBe(Math.ceil(tok.vocabSize / 32));
    for (const m of MARKERS) expect(allowed(tok.id(m))).toBe(m === '<end>');
    let count = 0;
    for (let id = 0; id < tok.vocabSize; id++) if (allowed(id)) count++;
    expect(count).toBe(tok.vocabSize - MARKERS.length + 1);
    // No bit beyond the vocabulary is set.
    for (let id = tok.vocabSize; id < mask.length * 32; id++) expect(allowed(id)).toBe(false);
  });
});

describe('CommandTrie with a free-text slot', () => {
  // Listed: [3 4] "click x"; free text: [6 7] "search [" then 1..2 of the words 20, 21, then 8 "]".
  const slot = { open: [6, 7], words: [20, 21], close: 8, maxPieces: 2 };
  const trie = new CommandTrie([[3, 4]], END, 40, slot);

  it('leads from the opening tokens into the slot, and closes it after one to maxPieces words', () => {
    expect(trie.allowedTokens(0)).toEqual([3, 6]);
    const entry = trie.walk([6, 7]);
    expect(trie.allowedTokens(entry)).toEqual([20, 21]);
    const one = trie.child(entry, 21);
    expect(trie.allowedTokens(one)).toEqual([8, 20, 21]);
    const two = trie.child(one, 20);
    expect(trie.allowedTokens(two)).toEqual([8]);
    expect(trie.child(two, 20)).toBe(-1);
    const closed = trie.child(two, 8);
    expect(trie.allowedTokens(closed)).toEqual([END]);
    expect(trie.isComplete(closed)).toBe(true);
    expect(trie.completedCommand(closed)).toBe(-1);
    expect(trie.child(closed, 20)).toBe(-1);
    expect(trie.isComplete(one)).toBe(false);
    expect(trie.completedCommand(trie.walk([3, 4]))).toBe(0);
  });

  it('gives the masks of a free-text command, and refuses one that does not close', () => {
    const masks = trie.commandMasks([6, 7, 20, 8]);
    expect(masks.length).toBe(5 * trie.maskWords);
    expect(() => trie.commandMasks([6, 7, 20])).toThrow(/prefix/);
    expect(() => trie.commandMasks([6, 7, 8])).toThrow(/leaves/);
  });

  it('refuses a slot without words or with the end token in it', () => {
    expect(() => new CommandTrie([[3]], END, 40, { ...slot, words: [] })).toThrow(/needs/);
    expect(() => new CommandTrie([[3]], END, 40, { ...slot, words: [END] })).toThrow(/cannot be part/);
  });
});

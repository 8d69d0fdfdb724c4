import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { wordPieces } from './commands.ts';
import { encyclopediaOf } from './encyclopedia.ts';
import { QaGame } from './game.ts';
import { renderPassages } from './observations.ts';
import { generateQaScene } from './splits.ts';
import { qaTexts, queryWords } from './vocabulary.ts';

const vocabulary = new Set(qaTexts().flatMap(wordPieces));
// A newline is the tokenizer's newline marker, as tokenizer.ts's unknownPieces reads it.
const unknown = (text: string) => wordPieces(text).filter((p) => p !== '\n' && !vocabulary.has(p));

describe('the search-QA vocabulary', () => {
  it('is small and closed: 259 pieces, no spelled ids, no whitespace', () => {
    expect(vocabulary.size).toBe(259);
    for (const piece of vocabulary) {
      expect(piece.startsWith('##')).toBe(false);
      expect(piece).not.toMatch(/\s/);
    }
  });

  it('holds every piece of every passage of any encyclopedia', () => {
    for (const seed of [0, 1, 77, 4_000_000_000])
      for (const p of encyclopediaOf({ seed }).passages) expect(unknown(p.text), p.text).toEqual([]);
  });

  it('holds every observation, question and command of many games', () => {
    const rng = new Rng(3);
    const words = queryWords();
    let observations = 0;
    let longest = 0;
    for (let i = 0; i < 200; i++) {
      const scene = generateQaScene(rng.pick(['train', 'seen', 'unseen'] as const), i, 9);
      const game = new QaGame(scene, { maxSteps: 10 });
      expect(unknown(scene.question.text)).toEqual([]);
      const commands = [
        `search[${rng.pick(words)} ${rng.pick(words)}]`,
        'look',
        ...game.expertPlan().slice(0, -1),
        'search[velvet]',
      ];
      for (const command of commands) {
        game.step(command);
        for (const c of game.admissibleCommands()) expect(unknown(c)).toEqual([]);
      }
      const answer = rng.pick([game.expertPlan()[0], ...game.admissibleCommands()]);
      game.step(answer);
      for (const r of game.records) {
        expect(unknown(r.observation), r.observation).toEqual([]);
        // What a policy writes: its searches of the bar's words, its listed answers (not "look" or "velvet").
        if (r.valid && r.query !== 'velvet') expect(unknown(r.action), r.action).toEqual([]);
        observations++;
        longest = Math.max(longest, wordPieces(r.observation).length);
      }
    }
    expect(observations).toBeGreaterThan(1000);
    // No observation is longer than the longest results page (below).
    expect(longest).toBeLessThanOrEqual(44);
  });

  it("holds the search bar's words and the commands' frames", () => {
    for (const w of queryWords()) expect(unknown(w)).toEqual([]);
    for (const c of ['search[', 'answer[', ']']) expect(unknown(c)).toEqual([]);
  });

  it('keeps a results page short: the three longest passages make 44 pieces', () => {
    const passages = [...encyclopediaOf().passages].sort(
      (a, b) => wordPieces(b.text).length - wordPieces(a.text).length,
    );
    // Three lines of "Doc i:" and an 11-piece passage, and the two newlines between them (one token each).
    expect(wordPieces(renderPassages(passages.slice(0, 3))).length).toBe(44);
  });
});

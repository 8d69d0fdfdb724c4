import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { isDegenerateSkill } from '../../../text/skill_repeats.ts';
import { SEARCHQA } from '../env/environment.ts';
import { QaGame } from '../env/game.ts';
import type { QaScene } from '../env/scene.ts';
import { evalQaScenes, generateQaScene } from '../env/splits.ts';
import { qaSkillGrammar } from '../skills/grammar.ts';
import { parseQaSkill } from '../skills/parser.ts';
import { qaTokenizer } from '../skills/skill_testing.ts';
import { annotateQa } from './annotator.ts';
import { runQaExplorer } from './explorer.ts';
import { qaTrajectoryWords, readQuestion } from './observed.ts';
import { qaSkillTruth } from './skill_truth.ts';

const tok = qaTokenizer();
const grammar = qaSkillGrammar(tok);

/** A game played with the commands given, to its end. */
function played(scene: QaScene, commands: readonly string[]): QaGame {
  const game = new QaGame(scene);
  for (const c of commands) if (!game.done) game.step(c);
  return game;
}

const annotate = (game: QaGame) => annotateQa(game.records, game.scene.question.text, game.won);

/** The skill parses, is no loop, decodes under the grammar's mask limited to the trajectory's words, and is true. */
function check(game: QaGame): string {
  const text = annotate(game);
  expect(parseQaSkill(text).reason, text).toBe('');
  expect(isDegenerateSkill(text), text).toBe(false);
  expect(tok.unknownPieces(text)).toEqual([]);
  const filter = grammar.entityFilter(qaTrajectoryWords(game.scene.question.text, game.records));
  const ids = tok.encode(text);
  const masks = grammar.skillMasks(ids, 200, filter);
  [...ids, tok.endId].forEach((id, k) => {
    expect((masks[k * grammar.maskWords + (id >>> 5)] >>> (id & 31)) & 1, `${text} @${k}`).toBe(1);
  });
  const truth = qaSkillTruth(text, game.scene);
  expect(truth.falseClaims, text).toBe(0);
  return text;
}

const SCENE = {
  bridge: { encyclopedia: { seed: 1 }, question: { kind: 'capital-of-birth-country', subjects: ['Marno Nular'] } },
};

describe('the search-QA annotator', () => {
  const scene = SEARCHQA.sceneFromJson(JSON.stringify({ version: 1, ...SCENE.bridge }));

  it('writes the procedure of an expert game, each hop a search with "then", and the facts its pages showed', () => {
    const game = played(scene, new QaGame(scene).expertPlan());
    expect(game.won).toBe(true);
    expect(check(game)).toBe(
      `workflow: search Marno Nular born, then search Thamia capital, then answer ${scene.question.answer}. ` +
        `Marno Nular was born in 1847 in Thamia. the capital of Thamia is ${scene.question.answer}.`,
    );
  });

  it('names a wrong answer given with every fact on the pages, and what they gave', () => {
    const game = played(scene, ['search[Marno Nular born]', 'search[Thamia capital]', 'answer[Thamia]']);
    expect(check(game)).toBe(
      `avoid: answering Thamia instead of answering ${scene.question.answer}; Marno Nular was born in 1847 in Thamia; ` +
        `the capital of Thamia is ${scene.question.answer}.`,
    );
  });

  it('names an answer given before a hop was searched, and a search never made', () => {
    const early = played(scene, ['search[Marno Nular born]', 'answer[Thamia]']);
    expect(check(early)).toBe(
      'avoid: answering Thamia before searching Thamia capital; Marno Nular was born in 1847 in Thamia.',
    );
    const idle = played(scene, Array(6).fill('search[painter]'));
    expect(idle.done && !idle.won).toBe(true);
    expect(check(idle)).toBe('avoid: forgetting to search Marno Nular born.');
    const unanswered = played(scene, [
      ...Array(4).fill('search[painter]'),
      'search[Marno Nular born]',
      'search[Thamia capital]',
    ]);
    expect(check(unanswered)).toMatch(new RegExp(`^avoid: forgetting to answer ${scene.question.answer}; `));
    expect(check(played(scene, ['look', 'look', 'look', 'answer[Zaemdrei]']))).toBe(
      'avoid: invalid actions; nothing happens.',
    );
  });

  it('cuts a skill to a budget, facts first, never below a usable skill', () => {
    const game = played(scene, new QaGame(scene).expertPlan());
    const length = (t: string) => tok.encode(t).length;
    const whole = annotate(game);
    const cut = annotateQa(game.records, scene.question.text, true, { length, maxTokens: length(whole) - 1 });
    expect(whole.startsWith(cut.slice(0, -1))).toBe(true);
    expect(cut).not.toContain('capital of');
    expect(annotateQa(game.records, scene.question.text, true, { length, maxTokens: 1 })).toMatch(
      /^workflow: [^.]*\.$/,
    );
  });

  it('annotates expert games and the explorer’s noisy games of every split: each parses, decodes under the mask and is true', () => {
    const rng = new Rng(7);
    const scenes = [
      ...Array.from({ length: 30 }, (_, i) => generateQaScene('train', i, 3)),
      ...evalQaScenes('seen', 20),
      ...evalQaScenes('unseen', 30),
    ];
    let failures = 0;
    for (const s of scenes) {
      check(played(s, new QaGame(s).expertPlan()));
      const episode = runQaExplorer(SEARCHQA, s, rng, { maxSteps: 6, noise: 0.5 });
      const text = check(episode.game as QaGame);
      if (!episode.game.won) {
        failures++;
        expect(text).toMatch(/^avoid: /);
      }
    }
    expect(failures).toBeGreaterThan(5);
  });

  it('reads every question of the world by its frames, and no other text', () => {
    for (const s of evalQaScenes('unseen', 50))
      expect(readQuestion(s.question.text)).toEqual({ kind: s.question.kind, subjects: s.question.subjects });
    expect(readQuestion('In which year was the founder of the painter born?')).toBeNull();
  });
});

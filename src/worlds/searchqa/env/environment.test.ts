import { describe, expect, it } from 'vitest';
import type { EpisodeStep } from '../../../env/environment.ts';
import { SEARCHQA, maxCommandChars } from './environment.ts';
import { QaGame } from './game.ts';
import { generateQaScene } from './splits.ts';

describe('SEARCHQA, the world behind the interface', () => {
  it('names its form, budget, task types and eval sets', () => {
    expect(SEARCHQA.name).toBe('searchqa');
    expect(SEARCHQA.variant).toBe('tiny');
    expect(SEARCHQA.defaultMaxSteps).toBe(6);
    expect(SEARCHQA.taskTypes).toEqual(['single-hop', 'bridge', 'comparison']);
    expect(SEARCHQA.evalCounts).toEqual({ seen: 200, unseen: 200 });
  });

  it('draws the splits it is asked for', () => {
    expect(SEARCHQA.trainScene(4, 2)).toEqual(generateQaScene('train', 4, 2));
    expect(SEARCHQA.sceneOf('unseen', 4, 2)).toEqual(generateQaScene('unseen', 4, 2));
    expect(SEARCHQA.evalScenes('unseen', 3)).toHaveLength(3);
    expect(SEARCHQA.validationScenes(2)).toHaveLength(2);
  });

  it('reads a scene as the question, its type and its cluster', () => {
    const scene = SEARCHQA.sceneOf('seen', 0, 1);
    expect(SEARCHQA.goal(scene)).toBe('Who was born first, Marno Brude or Zondir Faern?');
    expect(SEARCHQA.taskType(scene)).toBe('comparison');
    expect(SEARCHQA.clusterOf(scene)).toBe('born-first/Marno Brude+Zondir Faern');
    expect(SEARCHQA.sceneFromJson(SEARCHQA.sceneToJson(scene))).toEqual(scene);
    const game = SEARCHQA.episode(scene);
    expect(game).toBeInstanceOf(QaGame);
    expect((game as QaGame).maxSteps).toBe(6);
    expect((SEARCHQA.episode(scene, 3) as QaGame).maxSteps).toBe(3);
  });

  it("scores an episode by its answer's F1", () => {
    const game = SEARCHQA.episode(SEARCHQA.sceneOf('seen', 0, 1));
    game.step('answer[Marno Faern]');
    expect(SEARCHQA.score?.(game.records as readonly EpisodeStep[])).toBe(0.5);
  });

  it('refuses a search or an answer longer than a policy writes, and nothing else', () => {
    expect(maxCommandChars()).toBe(8 * 10 - 1);
    expect(SEARCHQA.commandRefusal('search[Marno Brude born]')).toBeNull();
    expect(SEARCHQA.commandRefusal('look')).toBeNull();
    expect(SEARCHQA.commandRefusal('search[a b c d e f g h i]')).toMatch(
      /^a search query holds at most 8 word pieces .* and 79 characters, as a policy writes it; this one holds more \(17 characters\)$/,
    );
    expect(SEARCHQA.commandRefusal(`answer[${'x'.repeat(80)}]`)).toMatch(/^an answer holds at most 8 word pieces/);
    expect(SEARCHQA.commandRefusal(`answer[${'x'.repeat(79)}]`)).toBeNull();
  });

  it('gives its tokenizer every text it prints or accepts', () => {
    const texts = SEARCHQA.texts();
    expect(texts).toContain('Nothing happens.');
    expect(texts.join(' ')).toContain('search[');
  });
});

import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { CommandTrie } from '../../../text/command_trie.ts';
import { SEARCHQA } from '../env/environment.ts';
import type { QaStepRecord } from '../env/game.ts';
import type { QaScene } from '../env/scene.ts';
import { generateQaScene } from '../env/splits.ts';
import { qaTokenizer } from '../skills/skill_testing.ts';
import { annotateQa } from './annotator.ts';
import { qaExplorerCommand, runQaExplorer } from './explorer.ts';
import { NO_QA_PRIOR, qaSkillKnowledge } from './knowledge.ts';

const scenes = Array.from({ length: 60 }, (_, i) => generateQaScene('train', i, 5));
const actions = (records: readonly QaStepRecord[]) => records.slice(1).map((r) => r.action);

describe('the search-QA explorer', () => {
  it('without noise, follows the hops from what the pages show and wins every game in at most three steps', () => {
    for (const scene of scenes) {
      const { game, random } = runQaExplorer(SEARCHQA, scene, new Rng(1), { maxSteps: 6, noise: 0 });
      expect(game.won, actions(game.records).join(' | ')).toBe(true);
      expect(game.steps).toBeLessThanOrEqual(3);
      expect(random.every((r) => !r)).toBe(true);
    }
  });

  it('is deterministic, and acts on the question and the pages only: a blindfolded scene gives the same episode', () => {
    const play = (scene: QaScene) =>
      actions(runQaExplorer(SEARCHQA, scene, new Rng(9), { maxSteps: 6, noise: 0.3 }).game.records);
    for (const scene of scenes.slice(0, 20)) {
      expect(play(scene)).toEqual(play(scene));
      // The answer is not read from the scene: a scene whose gold answer is hidden plays the same.
      const blind = { ...scene, question: { ...scene.question, answer: 'unknown', hops: [], needed: [] } };
      const env = { ...SEARCHQA, episode: (_s: QaScene, maxSteps?: number) => SEARCHQA.episode(scene, maxSteps) };
      expect(actions(runQaExplorer(env, blind, new Rng(9), { maxSteps: 6, noise: 0.3 }).game.records)).toEqual(
        play(scene),
      );
    }
  });

  it('with noise, wanders and sometimes fails; every command is one constrained decoding can write', () => {
    const tok = qaTokenizer();
    const rng = new Rng(2);
    let wins = 0;
    let randomSteps = 0;
    for (const scene of scenes) {
      const episode = runQaExplorer(SEARCHQA, scene, rng, { maxSteps: 6, noise: 0.3 });
      wins += episode.game.won ? 1 : 0;
      randomSteps += episode.random.filter(Boolean).length;
      episode.game.records.slice(1).forEach((r, t) => {
        expect(r.valid).toBe(true);
        const trie = CommandTrie.fromCommands(tok, episode.admissible[t], episode.freeText[t]);
        expect(() => trie.commandMasks(tok.encode(r.action)), r.action).not.toThrow();
      });
    }
    expect(randomSteps).toBeGreaterThan(10);
    expect(wins / scenes.length).toBeGreaterThan(0.5);
    expect(wins / scenes.length).toBeLessThan(1);
  });

  it('primed with the skill of an earlier episode of the same game, wins as often in fewer steps', () => {
    let plain = 0;
    let primed = 0;
    let decided = 0;
    for (const scene of scenes) {
      const first = runQaExplorer(SEARCHQA, scene, new Rng(3), { maxSteps: 6, noise: 0 });
      const skill = annotateQa(first.game.records, scene.question.text, first.game.won);
      const again = runQaExplorer(SEARCHQA, scene, new Rng(3), {
        maxSteps: 6,
        noise: 0,
        prior: qaSkillKnowledge(skill),
      });
      expect(again.game.won, skill).toBe(true);
      plain += first.game.steps;
      primed += again.game.steps;
      decided += again.withoutSkill.filter((c) => c !== null).length;
    }
    expect(primed).toBeLessThan(plain);
    expect(decided).toBeGreaterThan(0);
  });

  it('reads what a skill states: the bridge entity, the answer, a wrong answer and a search it names', () => {
    const scene = SEARCHQA.sceneFromJson(
      '{"version":1,"encyclopedia":{"seed":1},"question":{"kind":"capital-of-birth-country","subjects":["Marno Nular"]}}',
    );
    const goal = scene.question.text;
    const game = SEARCHQA.episode(scene);
    expect(qaExplorerCommand(game, goal)).toBe('search[Marno Nular born]');
    const bridge = qaSkillKnowledge('avoid: running out of steps; Marno Nular was born in 1847 in Thamia.');
    expect(qaExplorerCommand(game, goal, bridge)).toBe('search[Thamia capital]');
    const named = qaSkillKnowledge('avoid: forgetting to search Thamia capital.');
    expect(named.searches).toEqual(['Thamia capital']);
    expect(qaExplorerCommand(game, goal, named)).toBe('search[Thamia capital]');
    const right = scene.question.answer;
    const told = qaSkillKnowledge(`workflow: search Thamia capital, then answer ${right}.`);
    expect(told.answer).toBe(right);
    expect(qaExplorerCommand(game, goal, told)).toBe('search[Thamia capital]');
    expect(qaExplorerCommand(game, goal, qaSkillKnowledge(`avoid: forgetting to answer ${right}.`))).toBe(
      `search[${right}]`,
    );
    game.step('search[Thamia capital]');
    expect(qaExplorerCommand(game, goal, told)).toBe(`answer[${right}]`);
    const wrong = qaSkillKnowledge(`avoid: answering ${right} before searching Thamia capital.`);
    expect(wrong.avoid).toEqual([right]);
    expect(qaExplorerCommand(game, goal, wrong)).not.toBe(`answer[${right}]`);
    expect(qaSkillKnowledge('not a skill')).toBe(NO_QA_PRIOR);
  });
});

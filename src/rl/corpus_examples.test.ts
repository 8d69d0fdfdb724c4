import { describe, expect, it } from 'vitest';
import { Rng } from '../common/rng.ts';
import { freeDecodingMask } from '../text/command_trie.ts';
import { analyzerSequence } from '../text/prompts.ts';
import { SEARCHQA } from '../worlds/searchqa/env/environment.ts';
import { annotateQa } from '../worlds/searchqa/rl/annotator.ts';
import { runQaExplorer, type QaExplorerEpisode } from '../worlds/searchqa/rl/explorer.ts';
import { qaTokenizer } from '../worlds/searchqa/skills/skill_testing.ts';
import { analyzerExample, scoredEpisode, withSkill } from './corpus_examples.ts';
import { episodeText } from './rollout.ts';

const tok = qaTokenizer();
const words = Math.ceil(tok.vocabSize / 32);
const isSet = (mask: Uint32Array, id: number) => (mask[id >>> 5] & (1 << (id & 31))) !== 0;

/** Noisy explorer episodes of training games: some steps random, some searches typed into the bar. */
function episodes(n: number): { goal: string; episode: QaExplorerEpisode }[] {
  const rng = new Rng(8);
  return Array.from({ length: n }, (_, i) => {
    const scene = SEARCHQA.trainScene(i, 3);
    return { goal: SEARCHQA.goal(scene), episode: runQaExplorer(SEARCHQA, scene, rng, { maxSteps: 6, noise: 0.4 }) };
  });
}

describe('the examples of a warm-start corpus', () => {
  it("scores the explorer's own commands, each token allowed by its state's mask, the random ones only with scoreRandom", () => {
    let randomSteps = 0;
    let searches = 0;
    for (const { goal, episode } of episodes(30)) {
      const full = episodeText({ goal, records: episode.game.records });
      const own = scoredEpisode(tok, { budget: 10_000, slot: 0 }, full, episode, false);
      const all = scoredEpisode(tok, { budget: 10_000, slot: 0 }, full, episode, true);
      expect(own.complete && all.complete).toBe(true);
      const tokens = (chosen: (t: number) => boolean) =>
        full.steps.reduce((n, s, t) => n + (chosen(t) ? tok.encode(s.action).length + 1 : 0), 0);
      expect(own.sequence.positions.length).toBe(tokens((t) => !episode.random[t]));
      expect(all.sequence.positions.length).toBe(tokens(() => true));
      for (const scored of [own, all]) {
        const { ids, positions, masks } = scored.sequence;
        expect(masks.length).toBe(positions.length * words);
        const allowed = Array.from(positions, (p, j) => isSet(masks.subarray(j * words, (j + 1) * words), ids[p]));
        expect(allowed.every((a) => a)).toBe(true);
        expect(scored.plain.commandPositions).toEqual(positions);
      }
      randomSteps += episode.random.filter((r) => r).length;
      searches += full.steps.filter((s) => s.action.startsWith('search[')).length;
    }
    expect(randomSteps).toBeGreaterThan(0);
    expect(searches).toBeGreaterThan(0);
  });

  it("cuts the episode's last steps to the budget, as a rollout does, and says it is not complete", () => {
    const { goal, episode } = episodes(30).find((e) => e.episode.game.records.length > 3)!;
    const full = episodeText({ goal, records: episode.game.records });
    const whole = scoredEpisode(tok, { budget: 10_000, slot: 0 }, full, episode, true);
    const cut = scoredEpisode(tok, { budget: whole.sequence.ids.length - 1, slot: 0 }, full, episode, true);
    expect(cut.complete).toBe(false);
    expect(cut.sequence.ids.length).toBeLessThan(whole.sequence.ids.length);
    expect(Array.from(cut.sequence.ids)).toEqual(Array.from(whole.sequence.ids.subarray(0, cut.sequence.ids.length)));
    expect(cut.sequence.positions.length).toBeLessThan(whole.sequence.positions.length);
  });

  it('puts the skill block in, the same tokens scored under the same masks; the analyzer scored under the free mask', () => {
    const { goal, episode } = episodes(1)[0];
    const full = episodeText({ goal, records: episode.game.records });
    const plain = scoredEpisode(tok, { budget: 10_000, slot: 0 }, full, episode, false);
    const skill = annotateQa(episode.game.records, goal, episode.game.won, {
      length: (t) => tok.encode(t).length,
      maxTokens: 32,
    });
    const followed = withSkill(tok, plain, skill);
    expect(followed.ids.length).toBeGreaterThan(plain.sequence.ids.length);
    expect(followed.masks).toBe(plain.sequence.masks);
    expect(Array.from(followed.positions, (p) => followed.ids[p])).toEqual(
      Array.from(plain.sequence.positions, (p) => plain.sequence.ids[p]),
    );
    const analysis = analyzerSequence(tok, full, episode.game.won, skill, { maxLen: 512 });
    const example = analyzerExample(tok, analysis);
    expect(example.positions).toBe(analysis.commandPositions);
    const free = freeDecodingMask(tok);
    for (let j = 0; j < example.positions.length; j++)
      expect(example.masks.subarray(j * words, (j + 1) * words)).toEqual(free);
  });
});

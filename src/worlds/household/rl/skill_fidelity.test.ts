import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { generateScene } from '../env/splits.ts';
import { TINY } from '../env/scale.ts';
import { defaultTokenizer } from '../../../text/tokenizer.ts';
import { runExplorer } from './explorer.ts';
import { mentionF1 } from '../../../rl/mention_f1.ts';
import { referenceSkill, skillFidelity, skillMentions } from './skill_fidelity.ts';

describe('skill fidelity', () => {
  it('reads the entity mentions of a skill, with instance numbers where given', () => {
    expect(
      skillMentions(
        'avoid: forgetting to take the cloth 2 from the sinkbasin 1; you searched the cabinet 1 and the toilet 1.',
      ),
    ).toEqual(['cloth 2', 'sinkbasin 1', 'cabinet 1', 'toilet 1']);
    expect(skillMentions('workflow: find the mug, heat it, put it in the cabinet 12.')).toEqual(['mug', 'cabinet 12']);
  });

  it('F1 over multisets, by hand', () => {
    expect(mentionF1([], [])).toBe(1);
    expect(mentionF1(['mug'], [])).toBe(0);
    // 'sinkbasin 1' three times against once: 1 in common; 2 * 1 / (3 + 1)
    expect(mentionF1(['sinkbasin 1', 'sinkbasin 1', 'sinkbasin 1'], ['sinkbasin 1'])).toBe(0.5);
    // two of three in common: 2 * 2 / (3 + 3)
    expect(mentionF1(['cloth 2', 'sinkbasin 1', 'cabinet 1'], ['cloth 2', 'sinkbasin 1', 'toilet 1'])).toBeCloseTo(
      2 / 3,
      12,
    );
  });

  it("scores the annotator's own skill 1, and a skill of another episode of the task lower", () => {
    const tok = defaultTokenizer();
    const rng = new Rng(4);
    let own = 0;
    let other = 0;
    const n = 30;
    for (let i = 0; i < n; i++) {
      const scene = generateScene('train', i, TINY, 11);
      const a = runExplorer(scene, rng, { maxSteps: 15, noise: 0.3 });
      const b = runExplorer(scene, rng, { maxSteps: 15, noise: 0.3 });
      const skillA = referenceSkill(a.game.records, scene.task, a.game.won, tok, 48);
      const skillB = referenceSkill(b.game.records, scene.task, b.game.won, tok, 48);
      own += skillFidelity(skillA, a.game.records, scene.task, a.game.won, tok, 48);
      other += skillFidelity(skillB, a.game.records, scene.task, a.game.won, tok, 48);
    }
    expect(own / n).toBe(1);
    expect(other / n).toBeLessThan(0.8);
  });
});

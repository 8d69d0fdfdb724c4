import { describe, expect, it } from 'vitest';
import { generateScene } from '../env/generate.ts';
import { ACT, SKILL, TASK } from '../text/markers.ts';
import { parseSkill } from '../text/skill_parser.ts';
import { defaultTokenizer } from '../text/tokenizer.ts';
import { expertEpisodeSequences, taskWorkflowSkill } from './episodes.ts';

describe('real token sequences for verification', () => {
  const tok = defaultTokenizer();

  it('expert episodes as the policy reads them, the first also with a skill block; no unknown tokens', () => {
    const seqs = expertEpisodeSequences(tok, 3, 10_000);
    expect(seqs.length).toBe(4);
    for (const s of seqs) {
      expect(s[0]).toBe(tok.id(TASK));
      expect(s.includes(tok.id(ACT))).toBe(true);
      expect(s.includes(tok.unkId)).toBe(false);
      expect(s.length).toBeGreaterThan(60);
    }
    expect(seqs[0].includes(tok.id(SKILL))).toBe(false);
    expect(seqs[1].includes(tok.id(SKILL))).toBe(true);
    expect(seqs[1].length).toBeGreaterThan(seqs[0].length);
    expect(expertEpisodeSequences(tok, 1, 50).every((s) => s.length === 50)).toBe(true);
  });

  it('the skill follows the skill grammar for place and lamp tasks', () => {
    for (let i = 0; i < 40; i++) {
      const { task } = generateScene('seen', i);
      const check = parseSkill(taskWorkflowSkill(task));
      expect(check.reason).toBe('');
      expect(check.ok).toBe(true);
    }
    const lamp = taskWorkflowSkill({ type: 'look_at_obj_in_light', goal: 'look at book under the desklamp', object: 'book', lamp: 'desklamp' });
    expect(lamp).toBe('workflow: find the book, take it, find the desklamp, use it.');
    expect(parseSkill(lamp).ok).toBe(true);
  });
});

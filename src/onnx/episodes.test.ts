import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES } from '../worlds/names.ts';
import { environmentOf } from '../worlds/environments.ts';
import { rlWorldOf } from '../worlds/rl_worlds.ts';
import { ACT, SKILL, TASK } from '../text/markers.ts';
import { tokenizerOf } from '../text/tokenizer.ts';
import { expertEpisodeSequences } from './episodes.ts';

describe('real token sequences for verification', () => {
  for (const name of ENVIRONMENT_NAMES) {
    const env = environmentOf(name);
    const tok = tokenizerOf(env);

    it(`${name}: expert episodes as the policy reads them, the first also with a skill block; no unknown tokens`, () => {
      const seqs = expertEpisodeSequences(env, tok, 3, 10_000);
      expect(seqs.length).toBe(4);
      for (const s of seqs) {
        expect(s[0]).toBe(tok.id(TASK));
        expect(s.includes(tok.id(ACT))).toBe(true);
        expect(s.includes(tok.unkId)).toBe(false);
        // A search-QA question answered by one search is the shortest: about 55 tokens.
        expect(s.length).toBeGreaterThan(40);
      }
      expect(seqs[0].includes(tok.id(SKILL))).toBe(false);
      expect(seqs[1].includes(tok.id(SKILL))).toBe(true);
      expect(seqs[1].length).toBeGreaterThan(seqs[0].length);
      expect(expertEpisodeSequences(env, tok, 1, 50).every((s) => s.length === 50)).toBe(true);
    });

    it(`${name}: the skill block holds the annotator's workflow skill of the won expert episode, valid in the world's grammar`, () => {
      const [plain, withSkill] = expertEpisodeSequences(env, tok, 1, 10_000);
      const at = withSkill.indexOf(tok.id(SKILL));
      const block = tok.decode(Array.from(withSkill.subarray(at, at + withSkill.length - plain.length)));
      const skill = block.slice(block.indexOf('workflow:'));
      expect(skill).toMatch(/^workflow: /);
      const words = skill.slice(0, skill.indexOf('.') + 1);
      expect(rlWorldOf(env).checkSkill(words)).toEqual({ ok: true, reason: '' });
    });
  }
});

// The analyzer: the policy itself reads each finished trajectory (prompts.ts `analyzerContext`: task, outcome,
// compressed steps) and writes one episode skill after the SKILL marker, decoded freely up to the end token
// or maxSkillTokens, all trajectories in lockstep through one Decoder. A skill is usable for on-policy
// distillation when it parses under the skill grammar and has at least 5 words (text/skill.ts).
import type { Backend } from '../backend/backend.ts';
import type { Rng } from '../common/rng.ts';
import { freeDecodingMask } from '../text/command_trie.ts';
import { analyzerContext } from '../text/prompts.ts';
import { parseSkill } from '../text/skill.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { episodeText, type Trajectory } from './rollout.ts';

export interface WrittenSkill {
  text: string;
  ok: boolean;
  /** Why the skill is unusable; empty when ok. */
  reason: string;
}

export function checkSkill(text: string): WrittenSkill {
  const check = parseSkill(text);
  return { text, ok: check.ok, reason: check.reason };
}

export async function writeSkills(
  backend: Backend,
  tok: Tokenizer,
  trajectories: readonly Pick<Trajectory, 'scene' | 'records' | 'won'>[],
  maxSkillTokens: number,
  temperature: number,
  rng: Rng,
): Promise<WrittenSkill[]> {
  const n = trajectories.length;
  if (n === 0) return [];
  const words = Math.ceil(tok.vocabSize / 32);
  const free = freeDecodingMask(tok);
  const endOnly = new Uint32Array(words);
  endOnly[tok.endId >>> 5] |= 1 << (tok.endId & 31);
  const decoder = backend.openDecoder(n);
  const written: number[][] = trajectories.map(() => []);
  try {
    for (let i = 0; i < n; i++) {
      const t = trajectories[i];
      const context = analyzerContext(tok, episodeText(t), t.won, { maxLen: backend.config.contextLength, reserve: maxSkillTokens + 1 });
      await decoder.feed(i, Int32Array.from(context));
    }
    let writing = trajectories.map((_, i) => i);
    while (writing.length > 0) {
      const masks = new Uint32Array(writing.length * words);
      writing.forEach((i, j) => masks.set(written[i].length >= maxSkillTokens ? endOnly : free, j * words));
      const uniforms = Float32Array.from(writing, () => rng.float());
      for (let j = 0; j < uniforms.length; j++) if (uniforms[j] >= 1) uniforms[j] = 0;
      const { tokens } = await decoder.sample(Int32Array.from(writing), masks, temperature, uniforms);
      writing = writing.filter((i, j) => {
        if (tokens[j] === tok.endId) return false;
        written[i].push(tokens[j]);
        return true;
      });
    }
  } finally {
    decoder.dispose();
  }
  return written.map((ids) => checkSkill(tok.decode(ids)));
}

// The analyzer: the policy itself reads each finished trajectory (prompts.ts `analyzerContext`: task, outcome,
// compressed steps) and writes one episode skill after the SKILL marker, up to the end token or maxSkillTokens,
// all trajectories in lockstep through one Decoder. A skill is usable for on-policy distillation when it parses
// under the skill grammar and has at least 5 words (text/skill.ts). By default each token is sampled under the
// skill grammar's mask (text/skill_grammar.ts), so every skill that ends within maxSkillTokens is usable, and
// names only object and receptacle types that the trajectory's goal and steps mention, plus the appliance its
// task needs (the opening's list of every receptacle in the room is not an observation of the episode; the
// annotator's skills, which the warm start imitates, use only observed facts too). What a skill says about where
// an object was is held to what the trajectory saw (observed_places.ts): as where it was, only a receptacle
// where the trajectory saw it before picking it up (so never the goal receptacle, where the task's object never
// starts); as where it was not, only one it looked into without seeing it; as where the task's object is put,
// only the goal receptacle. With `grammar: false` the skill is decoded freely over every text token, as the
// paper's policy writes it.
import type { Backend } from '../backend/backend.ts';
import type { Rng } from '../common/rng.ts';
import { APPLIANCE } from '../env/knowledge.ts';
import { requiredState } from '../env/scene.ts';
import { freeDecodingMask } from '../text/command_trie.ts';
import { splitPieces } from '../text/pieces.ts';
import { analyzerContext } from '../text/prompts.ts';
import { parseSkill } from '../text/skill_parser.ts';
import { skillGrammar, type SkillPrefix } from '../text/skill_grammar.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { observedPlaces } from './observed_places.ts';
import { episodeText, type Trajectory } from './rollout.ts';

export interface WrittenSkill {
  text: string;
  ok: boolean;
  /** Why the skill is unusable; empty when ok. */
  reason: string;
  /** The tokens the analyzer wrote (end token excluded); absent for a skill that was not decoded. */
  ids?: Int32Array;
  /**
   * The masks each token and then the end token were sampled under ([ids.length + 1] * ceil(vocab/32)), so that
   * scoring the skill tokens sees the distribution they were drawn from.
   */
  masks?: Uint32Array;
}

export interface WriteSkillOptions {
  /** Sample under the skill grammar's mask (default true), or freely over every text token. */
  grammar?: boolean;
}

export function checkSkill(text: string): WrittenSkill {
  const check = parseSkill(text);
  return { text, ok: check.ok, reason: check.reason };
}

/** The words a skill of the trajectory may name, in order: its goal, commands and observations, and its task's appliance. */
export function trajectoryWords(t: Pick<Trajectory, 'scene' | 'goal' | 'records'>): string[] {
  const e = episodeText(t);
  const state = requiredState(t.scene.task.type);
  // The appliance as the annotator names it when the episode never went there ("forgetting to heat it with the
  // microwave 1").
  return [...splitPieces([e.goal, ...e.steps.flatMap((s) => [s.action, s.observation])].join('\n')), ...(state ? [APPLIANCE[state], '1'] : [])];
}

export async function writeSkills(
  backend: Backend,
  tok: Tokenizer,
  trajectories: readonly Pick<Trajectory, 'scene' | 'goal' | 'records' | 'won'>[],
  maxSkillTokens: number,
  temperature: number,
  rng: Rng,
  options: WriteSkillOptions = {},
): Promise<WrittenSkill[]> {
  const n = trajectories.length;
  if (n === 0) return [];
  const words = Math.ceil(tok.vocabSize / 32);
  const grammar = options.grammar === false ? null : skillGrammar(tok);
  const free = freeDecodingMask(tok);
  const endOnly = new Uint32Array(words);
  endOnly[tok.endId >>> 5] |= 1 << (tok.endId & 31);
  const decoder = backend.openDecoder(n);
  const written: number[][] = trajectories.map(() => []);
  const masksOf: Uint32Array[][] = trajectories.map(() => []);
  const prefixes: SkillPrefix[] = grammar ? trajectories.map(() => grammar.initial) : [];
  const filters = grammar ? trajectories.map((t) => grammar.entityFilter(trajectoryWords(t), observedPlaces(t.records, t.scene.task))) : [];
  const maskOf = (i: number): Uint32Array => {
    if (written[i].length >= maxSkillTokens) return endOnly;
    return grammar ? grammar.allowed(prefixes[i], maxSkillTokens, filters[i]) : free;
  };
  try {
    for (let i = 0; i < n; i++) {
      const t = trajectories[i];
      const context = analyzerContext(tok, episodeText(t), t.won, { maxLen: backend.config.contextLength, reserve: maxSkillTokens + 1 });
      await decoder.feed(i, Int32Array.from(context));
    }
    let writing = trajectories.map((_, i) => i);
    while (writing.length > 0) {
      const masks = new Uint32Array(writing.length * words);
      writing.forEach((i, j) => {
        const mask = maskOf(i);
        masks.set(mask, j * words);
        masksOf[i].push(mask);
      });
      const uniforms = Float32Array.from(writing, () => rng.float());
      for (let j = 0; j < uniforms.length; j++) if (uniforms[j] >= 1) uniforms[j] = 0;
      const { tokens } = await decoder.sample(Int32Array.from(writing), masks, temperature, uniforms);
      writing = writing.filter((i, j) => {
        if (tokens[j] === tok.endId) return false;
        written[i].push(tokens[j]);
        if (grammar) {
          const next = grammar.next(prefixes[i], tokens[j]);
          if (next === null) throw new Error(`the decoder sampled token ${tokens[j]} outside the skill grammar's mask`);
          prefixes[i] = next;
        }
        return true;
      });
    }
  } finally {
    decoder.dispose();
  }
  return written.map((ids, i) => {
    const masks = new Uint32Array(masksOf[i].length * words);
    masksOf[i].forEach((m, k) => masks.set(m, k * words));
    return { ...checkSkill(tok.decode(ids)), ids: Int32Array.from(ids), masks };
  });
}

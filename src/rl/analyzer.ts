// The analyzer: the policy itself reads each finished trajectory (prompts.ts `analyzerContext`: task, outcome,
// compressed steps) and writes one episode skill after the SKILL marker, up to the end token or maxSkillTokens,
// all trajectories in lockstep through one Decoder. A skill is usable for on-policy distillation when the world
// accepts it (rl_world.ts checkSkill: it parses under the world's skill grammar and has at least 5 words). By
// default each token is sampled under the mask of the world's skill decoder, so every skill that ends within
// maxSkillTokens is usable. The household's decoder (its rl/adapter.ts, skills/grammar.ts) names only object
// and receptacle types that the trajectory's goal and steps mention (its rl/observed.ts `trajectoryWords`), plus the appliance its
// task needs (the opening's list of every receptacle in the room is not an observation of the episode; the
// annotator's skills, which the warm start imitates, use only observed facts too), and holds what a skill says
// about where an object was to what the trajectory saw (its rl/observed.ts): as where it was, only a receptacle
// where the trajectory saw it before picking it up (so never the goal receptacle, where the task's object never
// starts); as where it was not, only one it looked into without seeing it; as where the task's object is put,
// only the goal receptacle. With `grammar: false` the skill is decoded freely over every text token, as the
// paper's policy writes it.
import type { Backend } from '../backend/backend.ts';
import type { Rng } from '../common/rng.ts';
import type { EpisodeStep } from '../env/environment.ts';
import { freeDecodingMask } from '../text/command_trie.ts';
import { analyzerContext } from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { RlWorld, SkillDecoder } from './rl_world.ts';
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
  /** The most skills written in lockstep (default SKILL_CHUNK). */
  chunk?: number;
}

/** A skill text with the world's verdict on it. */
export function checkedSkill(world: Pick<RlWorld, 'checkSkill'>, text: string): WrittenSkill {
  const check = world.checkSkill(text);
  return { text, ok: check.ok, reason: check.reason };
}

/**
 * At most this many skills are written in lockstep through one decoder: each stream's cache holds a whole
 * context, and a few thousand of them at once outgrow the CPU backend's heap. Later chunks continue the same
 * random stream, so that up to this many trajectories are written exactly as in one lockstep.
 */
const SKILL_CHUNK = 1024;

export async function writeSkills<S, R extends EpisodeStep>(
  world: RlWorld<S, R>,
  backend: Backend,
  tok: Tokenizer,
  trajectories: readonly Trajectory<S, R>[],
  maxSkillTokens: number,
  temperature: number,
  rng: Rng,
  options: WriteSkillOptions = {},
): Promise<WrittenSkill[]> {
  const words = Math.ceil(tok.vocabSize / 32);
  const grammar = options.grammar !== false;
  const free = freeDecodingMask(tok);
  const endOnly = new Uint32Array(words);
  endOnly[tok.endId >>> 5] |= 1 << (tok.endId & 31);
  const chunk = options.chunk ?? SKILL_CHUNK;
  const out: WrittenSkill[] = [];
  for (let start = 0; start < trajectories.length; start += chunk)
    out.push(...(await writeInLockstep(trajectories.slice(start, start + chunk))));
  return out;

  async function writeInLockstep(part: readonly Trajectory<S, R>[]): Promise<WrittenSkill[]> {
    const n = part.length;
    const decoder = backend.openDecoder(n);
    const written: number[][] = part.map(() => []);
    const masksOf: Uint32Array[][] = part.map(() => []);
    const decoders: SkillDecoder[] = grammar ? part.map((t) => world.skillDecoder(tok, t)) : [];
    const maskOf = (i: number): Uint32Array => {
      if (written[i].length >= maxSkillTokens) return endOnly;
      return grammar ? decoders[i].allowed(maxSkillTokens) : free;
    };
    try {
      for (let i = 0; i < n; i++) {
        const t = part[i];
        const context = analyzerContext(tok, episodeText(t), t.won, {
          maxLen: backend.config.contextLength,
          reserve: maxSkillTokens + 1,
          maxObservationTokens: world.analyzerObservationTokens,
        });
        await decoder.feed(i, Int32Array.from(context));
      }
      let writing = part.map((_, i) => i);
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
          if (grammar) decoders[i].advance(tokens[j]);
          return true;
        });
      }
    } finally {
      decoder.dispose();
    }
    return written.map((ids, i) => {
      const masks = new Uint32Array(masksOf[i].length * words);
      masksOf[i].forEach((m, k) => {
        masks.set(m, k * words);
      });
      return { ...checkedSkill(world, tok.decode(ids)), ids: Int32Array.from(ids), masks };
    });
  }
}

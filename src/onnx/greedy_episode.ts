// One episode of any world played greedily by any forward that maps token ids to logits (an exported policy
// run by onnxruntime-web, or the CPU forward). Each step reads the rollout's context (text/prompts.ts
// policyContext), with the room the rollout keeps for the command (rl/decoding_state.ts): with the whole
// history, the episode sequence (task, opening page, then "<obs> observation <act> command <end>" per step);
// with a history window, the windowed context. Decoding is constrained to the state's commands (the listed
// ones and the shop's free-text search) and takes, at each token, the allowed token with the largest logit
// (the lowest id on a tie), as the backends' samplers do at temperature 0. The forward has no KV cache, so each chosen token costs one
// forward over the whole context; a token that the trie forces (the only one allowed) is taken without one,
// since every masked distribution puts all its mass on it.
import { maskedLogSoftmax } from '../backend/cpu/log_softmax.ts';
import type { Environment } from '../env/environment.ts';
import { commandRoom, decodingState } from '../rl/decoding_state.ts';
import { CommandTrie } from '../text/command_trie.ts';
import { policyContext, type EpisodeText } from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';

/** Logits [batch, seqLen, vocab] of token ids [batch, seqLen] (verify.ts's LogitsFn; OnnxPolicySession.logits). */
export type LogitsFn = (ids: Int32Array, batch: number, seqLen: number) => Float32Array | Promise<Float32Array>;

interface GreedyOptions {
  maxSteps: number;
  /** Room kept free after the context for the command and its end token (the rollout's maxCommandTokens). */
  maxCommandTokens: number;
  /** Past steps kept in the context; Infinity keeps the whole episode, dropping the oldest steps only when the context is full. */
  history?: number;
  /** The skill block's place in a windowed context (prompts.ts policyContext). */
  skillAfterPage?: boolean;
  /** The length of the empty skill slot every context holds; 0 or absent: none. */
  skillSlot?: number;
}

export interface GreedyStep {
  action: string;
  observation: string;
  valid: boolean;
  /** Masked log-probability of the command (its tokens and the end token) under the policy. */
  logprob: number;
  /** Tokens of the context the command was written after. */
  contextTokens: number;
}

export interface GreedyEpisode {
  goal: string;
  opening: string;
  steps: GreedyStep[];
  won: boolean;
  /** Forward passes run (tokens forced by the trie need none). */
  forwards: number;
  /** Whether some step's context no longer held the whole episode. */
  windowed: boolean;
}

/** The allowed token (ids in increasing order) with the largest logit; the lowest id on a tie. */
export function greedyToken(logits: Float32Array, allowed: readonly number[]): number {
  let best = allowed[0];
  for (const v of allowed) if (logits[v] > logits[best]) best = v;
  return best;
}

export async function playGreedy<S>(
  forward: LogitsFn,
  tok: Tokenizer,
  contextLength: number,
  env: Environment<S>,
  scene: S,
  options: GreedyOptions,
  onStep?: (step: GreedyStep, index: number) => void,
): Promise<GreedyEpisode> {
  const game = env.episode(scene, options.maxSteps);
  const goal = env.goal(scene);
  const opening = game.observation;
  const history = options.history ?? Infinity;
  const V = tok.vocabSize;
  const logp = new Float32Array(V);
  const steps: GreedyStep[] = [];
  let forwards = 0;
  let windowed = false;
  while (!game.done) {
    const episode: EpisodeText = { goal, opening, steps };
    const state = decodingState(tok, game);
    const context = policyContext(tok, episode, {
      history,
      maxLen: contextLength,
      reserve: commandRoom(state, options.maxCommandTokens),
      skillAfterPage: options.skillAfterPage,
      skillSlot: options.skillSlot,
    });
    if (context.length < fullLength(tok, episode, options.skillSlot)) windowed = true;
    const trie = CommandTrie.fromEncoded(tok, state.encoded, state.slot);
    const written: number[] = [];
    const ids = [...context];
    let node = 0;
    let logprob = 0;
    for (;;) {
      const allowed = trie.allowedTokens(node);
      let token = allowed[0];
      if (allowed.length > 1) {
        if (ids.length >= contextLength)
          throw new RangeError(`the command does not fit the context of ${contextLength} tokens`);
        const logits = await forward(Int32Array.from(ids), 1, ids.length);
        forwards++;
        const last = logits.subarray((ids.length - 1) * V, ids.length * V);
        if (!last.every(Number.isFinite))
          throw new RangeError(`the model's logits are not finite at step ${steps.length + 1}`);
        token = greedyToken(last, allowed);
        maskedLogSoftmax(logp, last, trie.allowed(node), 1, V);
        logprob += logp[token];
      }
      if (token === tok.endId) break;
      ids.push(token);
      written.push(token);
      node = trie.child(node, token);
    }
    const listed = trie.completedCommand(node);
    const result = game.step(listed >= 0 ? state.admissible[listed] : tok.decode(written));
    // The world's record of the command: free text as the world reads it ("search[steel usb]").
    const action = game.records[game.records.length - 1].action;
    const step: GreedyStep = {
      action,
      observation: result.observation,
      valid: result.valid,
      logprob,
      contextTokens: context.length,
    };
    steps.push(step);
    onStep?.(step, steps.length - 1);
  }
  return { goal, opening, steps, won: game.won, forwards, windowed };
}

/** Length of the context that holds every step so far (what the context is when nothing had to be dropped). */
function fullLength(tok: Tokenizer, episode: EpisodeText, skillSlot?: number): number {
  return policyContext(tok, episode, { history: Infinity, maxLen: Number.MAX_SAFE_INTEGER, skillSlot }).length;
}

// The page's "run the exported model" view, loaded on demand: an .onnx file is read as a SEED Playground
// policy (onnx/load.ts refuses any other or damaged file, saying why), run by onnxruntime-web, and plays one
// eval game greedily (greedy_episode.ts).
import { EVAL_SEED, generateScene } from '../../env/generate.ts';
import { TINY } from '../../env/scale.ts';
import { readPolicyOnnx, type LoadedPolicy } from '../../onnx/load.ts';
import { OnnxPolicyError } from '../../onnx/metadata.ts';
import { OnnxPolicySession } from '../../onnx/runtime.ts';
import { Tokenizer } from '../../text/tokenizer.ts';
import { playGreedy, type GreedyEpisode, type GreedyStep } from './greedy_episode.ts';
import { pageThreads } from './threads.ts';

/** A file the view cannot run; the message is meant for the person who chose the file. */
export class PolicyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyFileError';
  }
}

export interface OpenedPolicy {
  policy: LoadedPolicy;
  tokenizer: Tokenizer;
  session: OnnxPolicySession;
}

export async function openPolicyFile(bytes: Uint8Array): Promise<OpenedPolicy> {
  let policy: LoadedPolicy;
  try {
    policy = readPolicyOnnx(bytes);
  } catch (err) {
    if (err instanceof OnnxPolicyError) throw new PolicyFileError(`Not a policy this page can run: ${err.message}.`);
    throw err;
  }
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(policy.vocabulary);
  } catch (err) {
    throw new PolicyFileError(`The policy's vocabulary cannot be used: ${(err as Error).message}.`);
  }
  if (tokenizer.hash !== policy.vocabularyHash) {
    throw new PolicyFileError(`The policy's vocabulary hashes to ${tokenizer.hash}, but the file says ${policy.vocabularyHash}.`);
  }
  try {
    const session = await OnnxPolicySession.create(bytes, { config: policy.config, threads: pageThreads() });
    return { policy, tokenizer, session };
  } catch (err) {
    throw new PolicyFileError(`${(err as Error).message}.`);
  }
}

export interface PlayRequest {
  split: 'seen' | 'unseen';
  /** Game number in the split's fixed evaluation set. */
  game: number;
  maxSteps: number;
}

/** Commands are at most this many tokens (the trainer's maxCommandTokens). */
export const MAX_COMMAND_TOKENS = 12;

export function playEvalGame(opened: OpenedPolicy, request: PlayRequest, onStep?: (step: GreedyStep, index: number) => void): Promise<GreedyEpisode> {
  const scene = generateScene(request.split, request.game, TINY, EVAL_SEED);
  const { session, tokenizer, policy } = opened;
  return playGreedy(
    (ids, batch, seqLen) => session.logits(ids, batch, seqLen),
    tokenizer,
    policy.config.contextLength,
    scene,
    { maxSteps: request.maxSteps, maxCommandTokens: MAX_COMMAND_TOKENS },
    onStep,
  );
}

// The page's "run the exported model" view, loaded on demand: an .onnx file is read as a SEED Playground
// policy (onnx/load.ts refuses any other or damaged file, saying why), run by onnxruntime-web, and plays one
// eval game greedily (onnx/greedy_episode.ts).
import { EVAL_SEED, generateScene } from '../env/generate.ts';
import { TINY } from '../env/scale.ts';
import { readPolicyOnnx, type LoadedPolicy } from '../onnx/load.ts';
import { OnnxPolicyError, type TrainingCard } from '../onnx/metadata.ts';
import { OnnxPolicySession } from '../onnx/runtime.ts';
import { Tokenizer } from '../text/tokenizer.ts';
import { playGreedy, type GreedyEpisode, type GreedyStep } from '../onnx/greedy_episode.ts';
import { pageThreads } from './onnx_threads.ts';

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
  /** Past steps in the context; Infinity: the whole episode. */
  history: number;
}

/** How the run that wrote the file played its episodes, as far as its training card tells. */
export interface PlaySettings {
  maxSteps: number;
  /** Past steps in the context; Infinity: the whole episode (the run's episode layout). */
  history: number;
  maxCommandTokens: number;
  /** Whether the card held the run's config (else these are the defaults). */
  fromCard: boolean;
}

export const DEFAULT_PLAY: Readonly<PlaySettings> = { maxSteps: 15, history: Infinity, maxCommandTokens: 12, fromCard: false };

/**
 * The play settings of the run that trained the weights: a run's export keeps its training config as JSON in
 * the card's extra.config (onnx/card.ts), with maxSteps, history and maxCommandTokens. A history of maxSteps or
 * more is the whole episode, as in the rollout.
 */
export function playSettingsOf(card: TrainingCard): PlaySettings {
  const text = card.extra?.config;
  if (typeof text !== 'string') return { ...DEFAULT_PLAY };
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ...DEFAULT_PLAY };
  }
  const int = (key: string, min: number, max: number): number | null => {
    const v = config?.[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : null;
  };
  const maxSteps = int('maxSteps', 1, 100);
  const history = int('history', 0, 1000);
  const maxCommandTokens = int('maxCommandTokens', 1, 64);
  if (maxSteps === null || history === null || maxCommandTokens === null) return { ...DEFAULT_PLAY };
  return { maxSteps, history: history >= maxSteps ? Infinity : history, maxCommandTokens, fromCard: true };
}

export function playEvalGame(opened: OpenedPolicy, request: PlayRequest, onStep?: (step: GreedyStep, index: number) => void): Promise<GreedyEpisode> {
  const scene = generateScene(request.split, request.game, TINY, EVAL_SEED);
  const { session, tokenizer, policy } = opened;
  return playGreedy(
    (ids, batch, seqLen) => session.logits(ids, batch, seqLen),
    tokenizer,
    policy.config.contextLength,
    scene,
    { maxSteps: request.maxSteps, history: request.history, maxCommandTokens: playSettingsOf(policy.card).maxCommandTokens },
    onStep,
  );
}

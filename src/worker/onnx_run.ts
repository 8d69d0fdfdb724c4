// The page's "run the exported model" view, loaded on demand: an .onnx file is read as a SEED Playground
// policy (onnx/load.ts refuses any other or damaged file, saying why), run by onnxruntime-web, and plays one
// eval game of its world greedily (onnx/greedy_episode.ts). The file's vocabulary says which world it plays
// (each world has its own), and its training card at which scale.
import { ENVIRONMENT_NAMES, type EnvironmentName } from '../worlds/names.ts';
import { type Environment, EVAL_SEED } from '../env/environment.ts';
import { environmentOf } from '../worlds/environments.ts';
import { factsOf, theWorld } from '../worlds/facts.ts';
import { quote } from '../common/json.ts';
import { readPolicyOnnx, type LoadedPolicy } from '../onnx/load.ts';
import { OnnxPolicyError, type TrainingCard } from '../onnx/metadata.ts';
import { OnnxPolicySession } from '../onnx/runtime.ts';
import { Tokenizer, worldOfVocabulary } from '../text/tokenizer.ts';
import { playGreedy, type GreedyEpisode, type GreedyStep } from '../onnx/greedy_episode.ts';
import { skillSlotLength } from '../text/prompts.ts';
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
  /** The world the policy plays. */
  env: Environment;
  session: OnnxPolicySession;
}

/**
 * The world whose vocabulary hashes to `hash`, at the scale the card names (a card without one predates the
 * scales: the world's default), or null. A scale the world does not have is refused: played at another, the
 * policy would meet games it never saw.
 */
function worldOfPolicy(hash: string, card: TrainingCard): Environment | null {
  const name = worldOfVocabulary(hash);
  if (name === null) return null;
  const scale = card.extra?.scale;
  if (scale === undefined) return environmentOf(name);
  const { variants } = factsOf(name);
  if (typeof scale !== 'string' || !variants.includes(scale))
    throw new PolicyFileError(
      `The policy's card names ${theWorld(name)}'s scale ${quote(scale)}, which this page does not know (${variants.join(', ')}).`,
    );
  return environmentOf(name, scale);
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
    throw new PolicyFileError(
      `The policy's vocabulary hashes to ${tokenizer.hash}, but the file says ${policy.vocabularyHash}.`,
    );
  }
  const env = worldOfPolicy(tokenizer.hash, policy.card);
  if (env === null)
    throw new PolicyFileError(
      `The policy's vocabulary (${tokenizer.hash}) is not that of a world this page plays (${ENVIRONMENT_NAMES.join(', ')}).`,
    );
  try {
    const session = await OnnxPolicySession.create(bytes, { config: policy.config, threads: pageThreads() });
    return { policy, tokenizer, env, session };
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
  /** In the window layout, the skill block after the page (the run's skillAfterPage). */
  skillAfterPage: boolean;
  /** The length of the skill slot every context of the run held (rl/rollout.ts skillSlotLength); 0: none. */
  skillSlot: number;
  /** Whether the card held the run's config (else these are the defaults). */
  fromCard: boolean;
}

/** How a run of the page's defaults plays (15 steps, the whole episode in the context, 12-token commands), as a world changes them. */
export function defaultPlay(world: EnvironmentName): PlaySettings {
  const changed: Readonly<Partial<Record<string, number>>> = factsOf(world).trainDefaults;
  const maxSteps = changed.maxSteps ?? 15;
  const history = changed.history === undefined || changed.history >= maxSteps ? Infinity : changed.history;
  return {
    maxSteps,
    history,
    maxCommandTokens: changed.maxCommandTokens ?? 12,
    skillAfterPage: changed.skillAfterPage === 1,
    skillSlot: 0,
    fromCard: false,
  };
}

/**
 * The play settings of the run that trained the weights: a run's export keeps its training config as JSON in
 * the card's extra.config (onnx/card.ts), with maxSteps, history and maxCommandTokens. A history of maxSteps or
 * more is the whole episode, as in the rollout.
 */
export function playSettingsOf(card: TrainingCard, world: EnvironmentName): PlaySettings {
  const text = card.extra?.config;
  if (typeof text !== 'string') return defaultPlay(world);
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return defaultPlay(world);
  }
  const int = (key: string, min: number, max: number): number | null => {
    const v = config?.[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : null;
  };
  const maxSteps = int('maxSteps', 1, 100);
  const history = int('history', 0, 1000);
  const maxCommandTokens = int('maxCommandTokens', 1, 64);
  if (maxSteps === null || history === null || maxCommandTokens === null) return defaultPlay(world);
  const maxSkillTokens = int('maxSkillTokens', 1, 128);
  return {
    maxSteps,
    history: history >= maxSteps ? Infinity : history,
    maxCommandTokens,
    skillAfterPage: int('skillAfterPage', 0, 1) === 1,
    skillSlot:
      int('skillSlot', 0, 1) === 1 && maxSkillTokens !== null ? skillSlotLength({ skillSlot: 1, maxSkillTokens }) : 0,
    fromCard: true,
  };
}

/** What the contexts of greedy play hold besides the request's window: the run's command room and skill block. */
function contextOf(play: PlaySettings): Pick<PlaySettings, 'maxCommandTokens' | 'skillAfterPage' | 'skillSlot'> {
  return { maxCommandTokens: play.maxCommandTokens, skillAfterPage: play.skillAfterPage, skillSlot: play.skillSlot };
}

/** Game `game` of a world's fixed evaluation set of a split (every world draws them with EVAL_SEED). */
function evalGame<S>(env: Environment<S>, split: PlayRequest['split'], game: number): S {
  if (!(Number.isInteger(game) && game >= 0 && game < env.evalCounts[split]))
    throw new RangeError(`eval-${split} has games 0 to ${env.evalCounts[split] - 1}, not ${game}`);
  return env.sceneOf(split, game, EVAL_SEED);
}

export async function playEvalGame(
  opened: OpenedPolicy,
  request: PlayRequest,
  onStep?: (step: GreedyStep, index: number) => void,
): Promise<GreedyEpisode> {
  const { session, tokenizer, policy, env } = opened;
  return playGreedy(
    (ids, batch, seqLen) => session.logits(ids, batch, seqLen),
    tokenizer,
    policy.config.contextLength,
    env,
    evalGame(env, request.split, request.game),
    {
      maxSteps: request.maxSteps,
      history: request.history,
      ...contextOf(playSettingsOf(policy.card, env.name)),
    },
    onStep,
  );
}

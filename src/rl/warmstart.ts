// The warm start (docs/seed-loss.md, "Departures from the paper"): a tiny policy at random init can neither act
// nor write skills, so before RL it is trained on a corpus built from the environment, deterministically from a
// seed:
//   act     episodes of the noisy explorer (explorer.ts), one sequence each, every command scored under the
//           constrained-decoding mask of its state (what the policy will sample from);
//   follow  a skill injected after the task line, so that a skill in the context can move the policy. 'own':
//           the successful episodes again, with their own hindsight skill (the acting does not change with it);
//           'primed': every episode's skill (workflow or avoid-rules) with a second episode of the same scene
//           by an explorer that starts knowing exactly what the skill states (explorer.ts skillKnowledge:
//           where the object was, what was searched, where its type tends to be), so the skill changes the
//           actions (straight to the object, no receptacle searched twice) and nothing else does;
//   analyze analyzer prompt -> skill written by the rule-based annotator (annotator.ts), scored under the
//           free-decoding mask.
// Training is maximum likelihood on the scored tokens through the Backend's SEED loss with only the OPD term
// switched on: lambda 1, gate off, l_skill 0 and opd_mask 1 make L_OPD = -mean(l_student), the token-mean
// negative log-likelihood, with d/d l_student = -1/N.
import type { Backend, LossInputs, LossOutput } from '../backend/backend.ts';
import { Rng } from '../common/rng.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { packBatch, type ScoredSequence } from './batch.ts';

export const EXAMPLE_KINDS = ['act', 'follow', 'analyze'] as const;
type ExampleKind = (typeof EXAMPLE_KINDS)[number];
export const FOLLOW_KINDS = ['own', 'primed'] as const;
type FollowKind = (typeof FOLLOW_KINDS)[number];
/**
 * What a corpus's focus holds (a world's corpus without a focus ignores it): the steps that choose an option
 * value; the follow steps whose command the skill decides (the primed replay's command differs from the one
 * the explorer gives there without the skill), the steps that teach reading a skill's words, not only its form;
 * and the analyzer examples, which teach writing a skill true to its episode.
 */
export const FOCUS_KINDS = ['option', 'read', 'analyze'] as const;
export type FocusKind = (typeof FOCUS_KINDS)[number];

export interface WarmStartOptions {
  seed: number;
  /** Explorer episodes in the corpus. */
  episodes: number;
  /** Explorer's chance of a random command. */
  noise: number;
  /**
   * Score the explorer's random commands too. Off by default: the noise is there to visit the states a weak
   * agent reaches (and to recover from them), not to be imitated; scoring it teaches the policy to act at
   * random a quarter of the time (DART-style noise injection keeps the clean label).
   */
  scoreRandom: boolean;
  /** Which follow examples: the successes with their own skill, or primed replays of every episode. */
  follow: FollowKind;
  /**
   * The kinds of example the corpus keeps (all by default). A second stage continued from an earlier warm start
   * on follow and analyze examples only is the paper's Stage 1, skill fine-tuning of a model that already acts.
   */
  kinds: readonly ExampleKind[];
  maxSteps: number;
  maxSkillTokens: number;
  /** 1: every example's policy context holds the skill slot of the runs to come (config.ts skillSlot). */
  skillSlot: number;
  /** The annotator's skills are cut to this many tokens: short skills are learnt sooner by a tiny model. */
  annotatedSkillTokens: number;
  /** Optimizer steps and sequences per step. */
  steps: number;
  /**
   * The first focusSteps of the steps draw from the corpus's focus alone (Corpus.focus; a corpus without one
   * ignores it), under a learning-rate schedule of their own: a choice the whole corpus teaches too weakly to be
   * learnt is learnt first on its own, and settles as the rate decays before the rest of the corpus comes in.
   */
  focusSteps: number;
  /** After the focus steps, this share of every batch still comes from the focus, so that its choice is kept. */
  focusShare: number;
  /** The kinds of step the focus holds. */
  focus: readonly FocusKind[];
  batch: number;
  lr: number;
}

export const WARMSTART_DEFAULTS: Readonly<Omit<WarmStartOptions, 'seed'>> = {
  episodes: 4000,
  noise: 0.25,
  scoreRandom: false,
  follow: 'primed',
  kinds: EXAMPLE_KINDS,
  maxSteps: 15,
  maxSkillTokens: 48,
  skillSlot: 0,
  annotatedSkillTokens: 32,
  steps: 5400,
  focusSteps: 0,
  focusShare: 0,
  focus: ['option'],
  batch: 8,
  lr: 5e-3,
};

export interface Corpus {
  sequences: ScoredSequence[];
  kinds: ExampleKind[];
  /** Indices of the sequences the first focusSteps train on alone (none in the household's corpus). */
  focus?: number[];
  /** Explorer success rate and example counts. */
  explorerSuccess: number;
  counts: Record<ExampleKind, number>;
}

/** Learning rate of step s: linear warm-up over 5% of the steps, then cosine decay to 10%. */
export function warmStartLr(base: number, step: number, steps: number): number {
  const warm = Math.max(1, Math.round(steps * 0.05));
  if (step < warm) return (base * (step + 1)) / warm;
  const progress = (step - warm) / Math.max(1, steps - warm);
  return base * (0.1 + 0.45 * (1 + Math.cos(Math.PI * progress)));
}

export interface WarmStartStep {
  step: number;
  loss: number;
  tokens: number;
  /** Indices into the corpus of the step's sequences. */
  examples: readonly number[];
  lr: number;
}

/**
 * Adds `weight` times the gradient of the token-mean negative log-likelihood of `sequences`' scored tokens to the
 * backend's: the SEED loss with only its OPD term on (lambda = weight, gate off, l_skill 0, opd_mask 1).
 */
export function nllBackward(
  backend: Backend,
  tok: Tokenizer,
  sequences: readonly ScoredSequence[],
  weight: number,
): Promise<LossOutput> {
  const n = sequences.reduce((s, q) => s + q.positions.length, 0);
  const zeros = new Float32Array(n);
  const inputs: LossInputs = {
    advantage: zeros,
    mask: zeros,
    opdMask: new Float32Array(n).fill(1),
    lSkill: zeros,
    lOld: zeros,
    lRef: zeros,
  };
  return backend.lossBackward(packBatch(sequences, tok.padId), inputs, {
    lambda: weight,
    beta: 1,
    clip: 0.2,
    klCoef: 0,
    gate: false,
  });
}

/** Trains the backend's current weights on the corpus; returns the mean loss of the last 10% of steps. */
export async function trainWarmStart(
  backend: Backend,
  tok: Tokenizer,
  corpus: Corpus,
  options: WarmStartOptions,
  onStep?: (s: WarmStartStep) => void,
): Promise<number> {
  const rng = new Rng(options.seed).fork('batches');
  const everything = corpus.sequences.map((_, i) => i);
  const focus = corpus.focus?.length ? corpus.focus : null;
  const focusSteps = focus ? Math.min(options.focusSteps, options.steps) : 0;
  const fromFocus = focus ? Math.round(options.batch * options.focusShare) : 0;
  const order: number[] = [];
  const focusOrder: number[] = [];
  const draw = (from: number[], list: number[]) => {
    if (from.length === 0) for (const i of rng.shuffle(list.slice())) from.push(i);
    return from.pop()!;
  };
  const tail: number[] = [];
  for (let step = 0; step < options.steps; step++) {
    const examples: number[] = [];
    while (examples.length < options.batch) {
      const focused = step < focusSteps || examples.length < fromFocus;
      examples.push(focused ? draw(focusOrder, focus!) : draw(order, everything));
    }
    const picked = examples.map((i) => corpus.sequences[i]);
    const out = await nllBackward(backend, tok, picked, 1);
    const lr =
      step < focusSteps
        ? warmStartLr(options.lr, step, focusSteps)
        : warmStartLr(options.lr, step - focusSteps, options.steps - focusSteps);
    await backend.optimizerStep({ lr, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, gradClip: 1 });
    if (step >= Math.floor(options.steps * 0.9)) tail.push(out.L_OPD);
    onStep?.({ step, loss: out.L_OPD, tokens: picked.reduce((s, q) => s + q.ids.length, 0), examples, lr });
  }
  return tail.length ? tail.reduce((a, b) => a + b, 0) / tail.length : NaN;
}

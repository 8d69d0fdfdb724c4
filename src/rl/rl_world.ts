// What the trainer needs of a world beyond playing it (env/environment.ts): how its hindsight skills are written,
// checked and judged, and how its expert's moves are recognised. Each world has one in its folder's rl/
// (each world's rl/adapter.ts), which src/worlds/rl_worlds.ts lists; the trainer, the analyzer, the teacher check
// and the command line take it, so they never name a world.
import type { Rng } from '../common/rng.ts';
import type { Environment, EpisodeStep } from '../env/environment.ts';
import { shufflePieces } from '../text/pieces.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { TrainConfig } from './config.ts';
import type { SkillTransform } from './arms.ts';
import type { Corpus, FocusKind, WarmStartOptions } from './warmstart.ts';
import type { Trajectory } from './rollout.ts';

/** Constrained decoding of one trajectory's skill: the mask of the next token, and the step past a sampled one. */
export interface SkillDecoder {
  /** Tokens that keep the skill completable within `maxTokens` tokens in all (the end token when it is complete). */
  allowed(maxTokens: number): Uint32Array;
  /** Takes a sampled token; throws when it was outside the last mask. */
  advance(token: number): void;
}

interface SkillCheck {
  ok: boolean;
  /** Why the skill is unusable; empty when ok. */
  reason: string;
}

/** Shares of skills that state a true fact and a false one about their game (what the world's truth test reads). */
interface SkillTruthShares {
  placeTrue: number;
  placeFalse: number;
}

/** What the annotator reads of an episode: its game, every step's record and the outcome. */
export interface FinishedEpisode<S, R extends EpisodeStep> {
  scene: S;
  records: readonly R[];
  won: boolean;
}

export interface RlWorld<S = unknown, R extends EpisodeStep = EpisodeStep> {
  readonly env: Environment<S, R>;
  /** What a run in this world changes from the preset's training settings (rl/config.ts), and why, beside it. */
  readonly trainDefaults: Readonly<Partial<TrainConfig>>;
  /** The skill grammar's decoder for one finished trajectory (its words and facts limit what the skill may say). */
  skillDecoder(tok: Tokenizer, t: Trajectory<S, R>): SkillDecoder;
  /** Whether a skill text is usable for distillation: it parses under the world's grammar and is long enough. */
  checkSkill(text: string): SkillCheck;
  /**
   * A part control's text for a usable skill (docs/seed-loss.md, "Part controls"): its procedure or its facts
   * as the world's grammar has them, nothing, or its words shuffled by `rng`. What the teacher re-scores with.
   */
  skillPart(part: SkillTransform, text: string, rng: Rng): string;
  /**
   * The warm start's explorer playing one game (a noisy actor that knows only what it observed, as its corpus
   * plays them): its finished episode, for the annotated trajectories of the paper's skill SFT (rl/verl/).
   */
  explore(scene: S, rng: Rng, options: { maxSteps: number; noise: number }): FinishedEpisode<S, R>;
  /** The rule-based annotator's skill of a finished episode (faithful hindsight; what the warm start imitates). */
  referenceSkill(t: FinishedEpisode<S, R>, tok: Tokenizer, maxSkillTokens: number): string;
  /** How close a skill is to the annotator's of the same trajectory, in [0, 1]. */
  skillFidelity(skill: string, t: Trajectory<S, R>, tok: Tokenizer, maxSkillTokens: number): number;
  /** Over skills and their games: the shares that state a true fact, and a false one; null for none. */
  truthShares(skills: readonly { text: string; scene: S }[]): SkillTruthShares | null;
  /** Per scored token of each trajectory, in order: 1 where the token is on an expert's move from that state. */
  expertTokens(trajectories: readonly Trajectory<S, R>[], tok: Pick<Tokenizer, 'encode' | 'endId'>): Uint8Array;
  /** The games the teacher check plays (training games of a seed no run draws). */
  teacherScenes(count: number): S[];
  /** The analyzer reads each observation of a trajectory up to this many tokens (text/prompts.ts analyzerContext). */
  readonly analyzerObservationTokens: number;
  /** What this world's warm start changes from warmstart.ts's defaults. */
  readonly warmStartDefaults: Readonly<Partial<WarmStartOptions>>;
  /** The kinds of step its warm-start corpus can focus on (WarmStartOptions.focus); none when it has no focus. */
  readonly focusKinds: readonly FocusKind[];
  /** The warm start's corpus: the world's explorer acting, primed replays with a skill to follow, the analyzer. */
  warmStartCorpus(tok: Tokenizer, contextLength: number, options: WarmStartOptions): Corpus;
}

/** A world's skillPart from its grammar's procedure and facts; the empty text and the shuffle are every world's. */
export function worldSkillPart(grammar: {
  procedure(text: string): string;
  facts(text: string): string;
}): RlWorld['skillPart'] {
  return (part, text, rng) => {
    switch (part) {
      case 'procedure':
        return grammar.procedure(text);
      case 'facts':
        return grammar.facts(text);
      case 'empty':
        return '';
      case 'shuffled':
        return shufflePieces(text, rng);
    }
  };
}

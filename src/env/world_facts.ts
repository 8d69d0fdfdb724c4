// What is known of a world without loading it (its rules, catalogue or search engine), as plain data: its scales,
// task types, whether it scores, the sizes of its fixed eval sets, the training settings it changes, the warm
// starts it ships, its cost, and its words. Each world states its own (src/worlds/<world>/env/facts.ts) and
// src/worlds/facts.ts lists them, for the readers of saved runs and checkpoints that check them on the page's
// main thread, the page's settings and texts, and the command line's help and reports.

type EvalSplitName = 'seen' | 'unseen';

/** A world in words, as the page, the help and the reports say it. */
export interface WorldWords {
  /** What `--env` says of it: "ALFWorld-style household rooms". */
  readonly summary: string;
  /** Its name in the page's World setting, and what the setting's help says the agent plays there. */
  readonly label: string;
  readonly plays: string;
  /** Its scales, as `--scale` says them: "the household's small rooms or rooms of ALFWorld's size (alfworld)". */
  readonly scales: string;
  /** What a scale of it sizes, as a checkpoint's check says: "rooms" (tiny rooms, alfworld rooms), "games". */
  readonly scaleUnits: string;
  /**
   * The world in a sentence, where "the <name>" does not say it (a name that is no word): "the search-QA world".
   * Absent, a sentence says "the household", "the shop".
   */
  readonly called?: string;
  /**
   * What the agent reads and types in it, with a task of it, as the page's guide tells it: a sentence that starts
   * with the world ("In the household it does household tasks in rooms (“put a clean mug in the cabinet”): ...").
   */
  readonly guide: string;
  /** What the agent does in it, as the page's header says: "household tasks". */
  readonly tasks: string;
  /** Its clusters of games (Environment.clusterOf) in the plural, and what games of one share (a report's intervals). */
  readonly clusters: string;
  readonly clusterShares: string;
  /** The games of each fixed eval set, as the charts name them: "rooms never trained on", "training rooms, new games". */
  readonly evalGames: Readonly<Record<EvalSplitName, string>>;
  /** What its score is, as the score chart's title says it; absent for a world without one (WorldFacts.scored). */
  readonly score?: string;
}

/**
 * A world's benchmark as the SEED repository's trainer (verl-agent based) runs it: what a run of the world is
 * carried there as (`export-verl` and the page's "Run it at scale", src/rl/verl/, docs/verl.md).
 */
export interface EngineBenchmark {
  /** The benchmark's name: "ALFWorld". */
  readonly name: string;
  /** verl-agent's environment (`env.env_name`). */
  readonly envName: string;
  /** The SEED repository's SEED launcher of the benchmark, whose benchmark's values the script takes (launcherKeys). */
  readonly launcher: string;
  /** Those values by config key: the prompt length, the batch sizes of the actor's updates and its log-prob passes. */
  readonly launcherKeys: Readonly<Record<string, string | number | boolean>>;
  /** The paper's steps per episode and steps of history there (its launcher's env.max_steps, env.history_length). */
  readonly paper: { readonly maxSteps: number; readonly history: number };
  /** Its hindsight-skill SFT (the repository's scripts/sft/<folder>/): the longest sequence and the learning rate. */
  readonly sft: { readonly folder: string; readonly maxLength: number; readonly lr: number };
}

export interface WorldFacts {
  /** The world's scales (Environment.variant), 'tiny' (every world's default) first. */
  readonly variants: readonly string[];
  /** The task types success is reported by (Environment.taskTypes). */
  readonly taskTypes: readonly string[];
  /** Whether it grades an episode beyond success (Environment.score): the page and the reports show a score. */
  readonly scored: boolean;
  /**
   * Its game's step budget: an episode is cut after this many commands where no other is asked for
   * (Environment.defaultMaxSteps, `play --max-steps`). A run's own budget is a training setting (trainDefaults).
   */
  readonly maxSteps: number;
  /** The games of its fixed eval sets (Environment.evalCounts). */
  readonly evalCounts: Readonly<Record<EvalSplitName, number>>;
  /**
   * What a run in this world changes from the preset's training settings, by the settings' names (rl/config.ts
   * TRAIN_SETTINGS; a unit test holds every name and value to that table), each with its reason beside it.
   */
  readonly trainDefaults: Readonly<Record<string, number>>;
  /** The presets whose warm start ships with the site in this world (model/config.ts; a unit test holds them to public/). */
  readonly shippedWarmStarts: readonly string[];
  /**
   * What an update and an evaluation episode cost against the default world's, and a game of the teacher check in
   * the default world's evaluation episodes (it plays the game five times, writes a skill and scores the KL):
   * `bench learn`'s estimate of its time.
   */
  readonly cost: { readonly update: number; readonly evalEpisode: number; readonly teacherGame: number };
  /**
   * The OPD / GRPO gradient-norm ratio (of the norms' means over a run's updates) per unit of lambda, for the
   * sampled-token distillation term (seed and its controls) and the exact one (seed-exact and its): what `bench
   * learn` turns an OPD share of the gradient into a lambda with (src/lab/learn/design/lambda_grid.ts). Measured
   * over short runs from the tiny warm start (bench/notes/opd_share.md).
   */
  readonly opdRatioPerLambda: { readonly sampled: number; readonly exact: number };
  /**
   * The lines of its opening observation that are no part of what the policy reads there (text/prompts.ts
   * openingRoomText): whole lines, and lines that start with a prefix (the household's banner and task line).
   */
  readonly openingFrame: { readonly lines: readonly string[]; readonly prefixes: readonly string[] };
  readonly words: WorldWords;
  /** Its benchmark in the SEED repository's trainer; absent for a world that trainer does not run. */
  readonly engine?: EngineBenchmark;
}

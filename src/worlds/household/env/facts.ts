// What is known of the household without loading it (src/env/world_facts.ts): the registry of every world's facts
// (src/worlds/facts.ts) lists it, and the household's environment reads its task types and eval counts here.
import type { WorldFacts } from '../../../env/world_facts.ts';
import { SCALES } from './scale.ts';
import { BANNER, TASK_TYPES, TASK_LINE } from './text.ts';

export const HOUSEHOLD_FACTS: WorldFacts = {
  variants: Object.keys(SCALES),
  taskTypes: TASK_TYPES,
  scored: false,
  // The paper's ALFWorld runs' (engine.paper).
  maxSteps: 30,
  // As ALFWorld's valid_seen and valid_unseen.
  evalCounts: { seen: 140, unseen: 134 },
  // The preset's settings are the household's.
  trainDefaults: {},
  shippedWarmStarts: ['micro', 'tiny'],
  // A teacher check of 256 games took 12.5 s on 2 cores when it played each game four times (3 checks in a 2-update run
  // against none); with the fifth play (the blank block), 512 games took 24.7 s (`teacher` on the tiny warm start).
  cost: { update: 1, evalEpisode: 1, teacherGame: 5 },
  // The OPD / GRPO ratio of the mean gradient norms per unit of lambda, geometric mean over short runs from the tiny
  // warm start at several lambdas (bench/notes/opd_share.md).
  opdRatioPerLambda: { sampled: 1.1, exact: 3.3 },
  openingFrame: { lines: [BANNER], prefixes: [TASK_LINE] },
  words: {
    summary: 'ALFWorld-style household rooms',
    label: 'Household (ALFWorld-style rooms)',
    plays: 'household tasks in rooms (ALFWorld-style)',
    scales: "the household's small rooms or rooms of ALFWorld's size (alfworld)",
    scaleUnits: 'rooms',
    guide:
      'In the household it does household tasks in rooms (“put a clean mug in the cabinet”): it reads the room and types one ' +
      'command at a time, a few tokens each.',
    tasks: 'household tasks',
    clusters: 'room layouts',
    clusterShares: 'games of one room share what makes them easy or hard',
    evalGames: { unseen: 'rooms never trained on', seen: 'training rooms, new games' },
  },
  // ALFWorld in the SEED repository (src/rl/verl/seed_config_keys.json names the commit): its SEED launcher's
  // values, the paper's 30 steps with 5 of history, and its SFT scripts' sequence length and learning rate.
  engine: {
    name: 'ALFWorld',
    envName: 'alfworld/AlfredTWEnv',
    launcher: 'examples/seed_trainer/_common/alfworld.sh',
    launcherKeys: {
      'data.max_prompt_length': 2048,
      'actor_rollout_ref.actor.ppo_mini_batch_size': 256,
      'actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu': 32,
      'actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu': 32,
      'actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu': 32,
    },
    paper: { maxSteps: 30, history: 5 },
    sft: { folder: 'alfworld', maxLength: 8192, lr: 5e-6 },
  },
};

// What is known of the shop without loading it (src/env/world_facts.ts): the registry of every world's facts
// (src/worlds/facts.ts) lists it, and the shop's environment and splits read its task types and eval counts here.
import type { WorldFacts } from '../../../env/world_facts.ts';
import { CATEGORIES } from './categories.ts';
import { SHOP_SCALES } from './scale.ts';

export const SHOP_FACTS: WorldFacts = {
  variants: Object.keys(SHOP_SCALES),
  taskTypes: CATEGORIES.map((c) => c.query),
  scored: true,
  // The paper's WebShop runs' (engine.paper); a run here plays fewer (trainDefaults.maxSteps).
  maxSteps: 15,
  evalCounts: { seen: 200, unseen: 200 },
  // A shop episode outgrows the 512-token context as one sequence: each step is its own (the window layout) with
  // the last two steps; the tiny shop's games take about 5 steps, 10 leave room for mistakes; the annotator's shop
  // skills run to about 50 tokens; a click on an id is 13 tokens, a search up to 15. The skill block follows the
  // page: after the task line, where it moves the page away from the instruction, a skill (even the
  // annotator's) cost the tiny warm start about 5 points of success (bench/notes/shop.md).
  trainDefaults: { maxSteps: 10, history: 2, maxSkillTokens: 56, maxCommandTokens: 16, skillAfterPage: 1 },
  shippedWarmStarts: ['tiny'],
  // A shop step is a sequence of its own (the window layout), so an update re-reads every page. Measured in the
  // shop's benchmark (bench/learn_shop.md: grpo 191 s, seed about 335 s and seed-crossgame 310 s per 32-update
  // run on 2 workers, 1,600 evaluation episodes in 33 s). A teacher check of 256 games took 52 s, the household's 12.5 (with the blank block's play, 200 games 42.5 s).
  cost: { update: 11, evalEpisode: 1.75, teacherGame: 20 },
  // The OPD / GRPO ratio of the mean gradient norms per unit of lambda, geometric mean over short runs from the tiny
  // warm start at several lambdas (bench/notes/opd_share.md).
  opdRatioPerLambda: { sampled: 0.8, exact: 1.7 },
  openingFrame: { lines: [], prefixes: [] },
  words: {
    summary: 'a WebShop-style shop',
    label: 'Shop (WebShop-style pages)',
    plays: 'shopping on a web shop (WebShop-style)',
    scales: "the shop's small pages or WebShop's (webshop)",
    scaleUnits: 'games',
    guide:
      'In the shop it shops on a WebShop-style site (“i need a canvas duffel bag in black, under 60 dollars”): it reads ' +
      'the site’s pages and types search[…] and click[…] actions, and a purchase wins when it meets every requirement.',
    tasks: 'shopping tasks on a web shop',
    clusters: 'type and attribute combinations',
    clusterShares: 'games of one combination share what makes them easy or hard',
    evalGames: { unseen: 'type and attribute combinations never trained on', seen: 'trained combinations, new games' },
    score: "WebShop's, 0 to 1: a purchase meeting part of the goal; success is 1",
  },
  // WebShop in the SEED repository (src/rl/verl/seed_config_keys.json names the commit): its SEED launcher's
  // values, the paper's 15 steps with 2 of history, and its SFT scripts' sequence length and learning rate.
  engine: {
    name: 'WebShop',
    envName: 'Webshop',
    launcher: 'examples/seed_trainer/_common/webshop.sh',
    launcherKeys: {
      'data.max_prompt_length': 4096,
      'actor_rollout_ref.actor.ppo_mini_batch_size': 64,
      'actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu': 8,
      'actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu': 16,
      'actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu': 16,
    },
    paper: { maxSteps: 15, history: 2 },
    sft: { folder: 'webshop', maxLength: 12288, lr: 5e-6 },
  },
};

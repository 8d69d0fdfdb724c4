// What is known of the search-QA world without loading it (src/env/world_facts.ts): the registry of every world's
// facts (src/worlds/facts.ts) lists it. It imports neither the game nor the splits, which load the search engine,
// so that the page's main thread does not; its step budget and eval counts are theirs (facts.test.ts holds them).
import type { WorldFacts } from '../../../env/world_facts.ts';
import { OBSERVATIONS } from './observations.ts';
import { QA_TASK_TYPES } from './questions.ts';

/** The game's step budget: twice the longest expert plan (two searches and the answer). */
const MAX_STEPS = 6;

export const SEARCHQA_FACTS: WorldFacts = {
  variants: ['tiny'],
  taskTypes: QA_TASK_TYPES,
  scored: true,
  maxSteps: MAX_STEPS,
  evalCounts: { seen: 200, unseen: 200 },
  // An episode is cut after 6 commands (twice the longest expert plan), and six results pages with their
  // commands come to under 400 tokens: the whole episode is one sequence (history = maxSteps, the cheap layout)
  // with room for a 48-token skill block in the 512-token context. A search is at most 10 tokens, within the
  // preset's 12.
  trainDefaults: { maxSteps: MAX_STEPS, history: MAX_STEPS },
  shippedWarmStarts: ['tiny'],
  // One sequence per episode, as the household's, of at most 6 steps against its 10 and of about the same
  // length in tokens: an update and an evaluation episode cost about what the household's do (its benchmark,
  // bench/learn_searchqa.md, was estimated at 2,070 s of which it ran 1,915; a GRPO run of 96 updates with its
  // evaluations and teacher checks took 85 s). A teacher check of 256 games took 5.1 s, the household's 12.5 (with the blank block's play, 1,024 games 19.1 s).
  cost: { update: 1, evalEpisode: 1, teacherGame: 2 },
  // The OPD / GRPO ratio of the mean gradient norms per unit of lambda, geometric mean over short runs from the tiny
  // warm start at several lambdas (bench/notes/opd_share.md).
  opdRatioPerLambda: { sampled: 0.47, exact: 1.7 },
  // The opening observation is the question, which the task line already holds.
  openingFrame: { lines: [], prefixes: [`${OBSERVATIONS.question} `] },
  words: {
    summary: 'HotpotQA-style questions answered by search (Search-R1-style)',
    label: 'Search QA (HotpotQA-style questions, Search-R1-style search)',
    plays: 'answering questions by searching an encyclopedia (Search-R1-style)',
    called: 'the search-QA world',
    scales: "the search-QA world's one encyclopedia (tiny)",
    scaleUnits: 'encyclopedias',
    guide:
      'In the search-QA world it answers questions about an encyclopedia (“What is the capital of Kreimia?”): it types ' +
      'search[…] to read passages and answer[…] to end the game, which wins when the answer is right.',
    tasks: 'questions answered by search',
    clusters: 'questions',
    clusterShares: 'games of one question ask the same thing of the same entities',
    evalGames: {
      unseen: 'held-out entities and a held-out bridge composition',
      seen: 'trained question kinds and entities, new games',
    },
    score: "HotpotQA's answer F1, 0 to 1: an answer sharing some words with the gold answer; success is an exact match",
  },
};

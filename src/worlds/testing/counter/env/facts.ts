// What is known of the counter world without loading it (src/env/world_facts.ts), registered by its tests.
import type { WorldFacts } from '../../../../env/world_facts.ts';

/** The game's step budget: the longest expert plan (five steps) and three more. */
const MAX_STEPS = 8;

export const COUNTER_FACTS: WorldFacts = {
  variants: ['tiny'],
  taskTypes: ['up', 'down'],
  scored: false,
  maxSteps: MAX_STEPS,
  evalCounts: { seen: 8, unseen: 2 },
  // A whole episode of eight short readings is one sequence (history = maxSteps, the episode layout).
  trainDefaults: { maxSteps: MAX_STEPS, history: MAX_STEPS },
  shippedWarmStarts: [],
  cost: { update: 0.1, evalEpisode: 0.1, teacherGame: 0.1 },
  // Not measured: the household's figures, so that a benchmark of this world has a grid to start from.
  opdRatioPerLambda: { sampled: 1, exact: 3 },
  // The opening observation is the counter's reading, which the policy reads.
  openingFrame: { lines: [], prefixes: [] },
  words: {
    summary: 'a counter to bring to a number (a world of the tests)',
    label: 'Counter (a world of the tests)',
    plays: 'bringing a counter to a number',
    scales: "the counter world's one counter (tiny)",
    scaleUnits: 'counters',
    guide:
      'In the counter it adds one or takes one until the counter shows the number asked (“make the counter show three”).',
    tasks: 'counting tasks',
    clusters: 'moves',
    clusterShares: 'games of one move go the same way the same distance',
    evalGames: { unseen: 'moves from one end of the counter to the other', seen: 'trained moves, new games' },
  },
};

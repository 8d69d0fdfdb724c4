// What is known of the household without loading it (src/env/world_facts.ts): the registry of every world's facts
// (src/worlds/facts.ts) lists it, and the household's environment reads its task types and eval counts here.
import type { WorldFacts } from '../../../env/world_facts.ts';
import { SCALES } from './scale.ts';
import { BANNER, TASK_TYPES, TASK_LINE } from './text.ts';

export const HOUSEHOLD_FACTS: WorldFacts = {
  variants: Object.keys(SCALES),
  taskTypes: TASK_TYPES,
  scored: false,
  // As ALFWorld's valid_seen and valid_unseen.
  evalCounts: { seen: 140, unseen: 134 },
  // The preset's settings are the household's.
  trainDefaults: {},
  shippedWarmStarts: ['micro', 'tiny'],
  cost: { update: 1, evalEpisode: 1 },
  openingFrame: { lines: [BANNER], prefixes: [TASK_LINE] },
  words: {
    summary: 'ALFWorld-style household rooms',
    label: 'Household (ALFWorld-style rooms)',
    plays: 'household tasks in rooms (ALFWorld-style)',
    scales: "the household's small rooms or rooms of ALFWorld's size (alfworld)",
    scaleUnits: 'rooms',
    tasks: 'household tasks',
    clusters: 'room layouts',
    clusterShares: 'games of one room share what makes them easy or hard',
    evalGames: { unseen: 'rooms never trained on', seen: 'training rooms, new games' },
  },
};

// What a run in each world changes from the preset's training settings (rl/config.ts), apart from the worlds'
// training code, so that the page's settings read them without loading it.
import type { EnvironmentName } from '../env/environment.ts';
import type { TrainConfig } from './config.ts';

export const WORLD_TRAIN_DEFAULTS: Readonly<Record<EnvironmentName, Readonly<Partial<TrainConfig>>>> = {
  household: {},
  // A shop episode outgrows the 512-token context as one sequence: each step is its own (the window layout) with
  // the last two steps; the tiny shop's games take about 5 steps, 10 leave room for mistakes; the annotator's shop
  // skills run to about 50 tokens; a click on an id is 13 tokens, a search up to 15. The skill block follows the
  // page: after the task line, where it moves the page away from the instruction, a skill (even the
  // annotator's) cost the tiny warm start about 5 points of success (bench/notes/shop.md).
  shop: { maxSteps: 10, history: 2, maxSkillTokens: 56, maxCommandTokens: 16, skillAfterPage: 1 },
};

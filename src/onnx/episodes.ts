// Real token sequences for verifying an export: expert episodes of a world's eval-seen games, exactly as the
// policy reads them (text/prompts.ts `episodeSequence`), and the first of them again with its annotator's skill
// block inserted after the task line (`insertSkill`), as the skill-context re-scoring reads it.
import type { Environment } from '../env/environment.ts';
import { TRAIN_SETTINGS } from '../rl/config.ts';
import { rlWorldOf } from '../worlds/rl_worlds.ts';
import { episodeSequence, insertSkill, type StepText } from '../text/prompts.ts';
import type { Tokenizer } from '../text/tokenizer.ts';

export function expertEpisodeSequences(
  env: Environment,
  tokenizer: Tokenizer,
  count: number,
  maxLength: number,
): Int32Array[] {
  const world = rlWorldOf(env);
  const maxSkillTokens = world.trainDefaults.maxSkillTokens ?? TRAIN_SETTINGS.maxSkillTokens.paper;
  const sequences: Int32Array[] = [];
  env.evalScenes('seen', count).forEach((scene, i) => {
    const game = env.episode(scene);
    const opening = game.observation;
    const steps: StepText[] = [];
    for (const action of game.expertPlan()) {
      const { observation, valid, done } = game.step(action);
      steps.push({ action, observation, valid });
      if (done) break;
    }
    const plain = episodeSequence(tokenizer, { goal: env.goal(scene), opening, steps });
    sequences.push(plain.ids.slice(0, maxLength));
    if (i === 0) {
      const skill = world.referenceSkill({ scene, records: game.records, won: game.won }, tokenizer, maxSkillTokens);
      sequences.push(insertSkill(tokenizer, plain, skill).ids.slice(0, maxLength));
    }
  });
  return sequences;
}

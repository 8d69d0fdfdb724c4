// The search-QA warm-start corpus (rl/warmstart.ts says what each kind of example is for) in the episode layout
// the world trains in: a whole episode of at most 6 steps is one sequence, as the household's are (its corpus.ts).
// From a seed:
//   act     the observed-knowledge explorer's episodes (explorer.ts), every command it chose itself scored
//           under the constrained-decoding mask of its state (the answers listed, or the search bar's free-text
//           slot); its random commands stay in the sequence but are not scored unless scoreRandom;
//   follow  the episode's hindsight skill (annotateQa, cut to annotatedSkillTokens) after the task line of a
//           primed replay of the same game, by the explorer acting on what the skill states (the bridge entity,
//           the answer, the search it names), so the skill changes the actions ('primed'); or, with 'own', the
//           won episodes again with their own skill;
//   analyze analyzer prompt -> that skill, scored under the free-decoding mask.
// The focus (WarmStartOptions.focus) may hold, with 'read', the follow examples whose replay the skill changed
// (a command differs from the unprimed explorer's at some step), and with 'analyze' the analyzer examples.
import type { Environment } from '../../../env/environment.ts';
import {
  analyzerExample,
  CorpusCollector,
  episodeRoom,
  scoredEpisode,
  skillFit,
  withSkill,
} from '../../../rl/corpus_examples.ts';
import { episodeText } from '../../../rl/rollout.ts';
import type { Corpus, WarmStartOptions } from '../../../rl/warmstart.ts';
import { analyzerSequence } from '../../../text/prompts.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import type { QaStepRecord } from '../env/game.ts';
import { annotateQa } from './annotator.ts';
import { type QaExplorerEpisode, runQaExplorer } from './explorer.ts';
import { qaSkillKnowledge } from './knowledge.ts';

/**
 * The analyzer reads each observation up to this many tokens: a results page (44 at most) whole, so that every
 * fact a skill states is in what it reads (the household's 24 would keep the first passage alone).
 */
export const QA_ANALYZER_OBSERVATION_TOKENS = 48;

export function buildQaCorpus<S>(
  env: Environment<S, QaStepRecord>,
  tok: Tokenizer,
  contextLength: number,
  options: WarmStartOptions,
): Corpus {
  const corpus = new CorpusCollector(options);
  // The rollout keeps room for the skill block in every episode (rollout.ts): the corpus's episodes are cut alike.
  const room = episodeRoom(contextLength, options);
  const fit = skillFit(tok, options);
  const explorerOptions = { maxSteps: options.maxSteps, noise: options.noise };
  for (let i = 0; i < options.episodes; i++) {
    const scene = env.trainScene(i, options.seed);
    const goal = env.goal(scene);
    const episode = runQaExplorer(env, scene, corpus.explore, explorerOptions);
    const { game } = episode;
    corpus.played(game.won);
    const acted = (e: QaExplorerEpisode) =>
      scoredEpisode(tok, room, episodeText({ goal, records: e.game.records }), e, options.scoreRandom);
    const own = acted(episode);
    corpus.add(own.sequence, 'act');
    const skill = annotateQa(game.records, goal, game.won, fit);
    if (options.follow === 'own') {
      if (game.won && own.complete) corpus.add(withSkill(tok, own, skill), 'follow');
    } else {
      const replay = runQaExplorer(env, scene, corpus.primed, { ...explorerOptions, prior: qaSkillKnowledge(skill) });
      const decided = replay.withoutSkill.some((c) => c !== null);
      const followed = acted(replay);
      if (followed.complete)
        corpus.add(withSkill(tok, followed, skill), 'follow', options.focus.includes('read') && decided);
    }
    const analysis = analyzerSequence(tok, episodeText({ goal, records: game.records }), game.won, skill, {
      maxLen: contextLength,
      maxObservationTokens: QA_ANALYZER_OBSERVATION_TOKENS,
    });
    corpus.add(analyzerExample(tok, analysis), 'analyze', options.focus.includes('analyze'));
  }
  return corpus.corpus();
}

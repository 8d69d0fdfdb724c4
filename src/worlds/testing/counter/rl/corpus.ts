// The counter warm-start corpus (rl/warmstart.ts says what each kind of example is for) in the episode layout:
//   act     the explorer's episodes (explorer.ts), every command it chose itself scored;
//   follow  the episode's hindsight skill after the task line of the won episode itself ('own'), or of a replay
//           of the same game by the explorer on the primed stream ('primed': the explorer reads nothing a skill
//           could tell it, so no replay is in the focus);
//   analyze analyzer prompt -> that skill.
import type { Environment } from '../../../../env/environment.ts';
import {
  analyzerExample,
  CorpusCollector,
  episodeRoom,
  scoredEpisode,
  skillFit,
  withSkill,
} from '../../../../rl/corpus_examples.ts';
import type { ExploredEpisode } from '../../../../rl/explored_episode.ts';
import { episodeText } from '../../../../rl/rollout.ts';
import type { Corpus, WarmStartOptions } from '../../../../rl/warmstart.ts';
import { analyzerSequence } from '../../../../text/prompts.ts';
import type { Tokenizer } from '../../../../text/tokenizer.ts';
import type { CounterStepRecord } from '../env/game.ts';
import { annotateCounter } from './annotator.ts';
import { runCounterExplorer } from './explorer.ts';

/** The analyzer reads each observation whole: a reading is a few tokens. */
export const COUNTER_ANALYZER_OBSERVATION_TOKENS = 16;

export function buildCounterCorpus<S>(
  env: Environment<S, CounterStepRecord>,
  tok: Tokenizer,
  contextLength: number,
  options: WarmStartOptions,
): Corpus {
  const corpus = new CorpusCollector(options);
  const room = episodeRoom(contextLength, options);
  const fit = skillFit(tok, options);
  const explorerOptions = { maxSteps: options.maxSteps, noise: options.noise };
  for (let i = 0; i < options.episodes; i++) {
    const scene = env.trainScene(i, options.seed);
    const goal = env.goal(scene);
    const acted = (e: ExploredEpisode<CounterStepRecord>) =>
      scoredEpisode(tok, room, episodeText({ goal, records: e.game.records }), e, options.scoreRandom);
    const episode = runCounterExplorer(env, scene, corpus.explore, explorerOptions);
    const { game } = episode;
    corpus.played(game.won);
    const own = acted(episode);
    corpus.add(own.sequence, 'act');
    const skill = annotateCounter(game.records, goal, game.won, fit);
    if (options.follow === 'own') {
      if (game.won && own.complete) corpus.add(withSkill(tok, own, skill), 'follow');
    } else {
      const replay = acted(runCounterExplorer(env, scene, corpus.primed, explorerOptions));
      if (replay.complete) corpus.add(withSkill(tok, replay, skill), 'follow');
    }
    const analysis = analyzerSequence(tok, episodeText({ goal, records: game.records }), game.won, skill, {
      maxLen: contextLength,
      maxObservationTokens: COUNTER_ANALYZER_OBSERVATION_TOKENS,
    });
    corpus.add(analyzerExample(tok, analysis), 'analyze', options.focus.includes('analyze'));
  }
  return corpus.corpus();
}

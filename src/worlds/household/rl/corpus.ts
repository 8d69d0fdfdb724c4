// The household's warm-start corpus (rl/warmstart.ts says what each kind of example is for): the explorer's
// episodes in rooms of a scale, each acted, followed with its annotated skill (the episode again, or a primed
// replay that the skill changes) and analyzed, in the episode layout.
import { generateScene } from '../env/splits.ts';
import type { RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { analyzerSequence } from '../../../text/prompts.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
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
import { annotate } from './annotator.ts';
import { runExplorer, skillKnowledge, type ExplorerEpisode } from './explorer.ts';

/** The household's corpus, in rooms of `scale`. */
export function buildCorpus(
  tok: Tokenizer,
  contextLength: number,
  options: WarmStartOptions & { scale: RoomScale },
): Corpus {
  const corpus = new CorpusCollector(options);
  const room = episodeRoom(contextLength, options);
  const acted = (scene: Scene, episode: ExplorerEpisode) =>
    scoredEpisode(
      tok,
      room,
      episodeText({ goal: scene.task.goal, records: episode.game.records }),
      episode,
      options.scoreRandom,
    );
  for (let i = 0; i < options.episodes; i++) {
    const scene = generateScene('train', i, options.scale, options.seed);
    const episode = runExplorer(scene, corpus.explore, { maxSteps: options.maxSteps, noise: options.noise });
    const { game } = episode;
    corpus.played(game.won);
    const own = acted(scene, episode);
    corpus.add(own.sequence, 'act');
    const skill = annotate(game.records, scene.task, game.won, skillFit(tok, options));
    if (options.follow === 'own') {
      if (game.won && own.complete) corpus.add(withSkill(tok, own, skill), 'follow');
    } else {
      const replay = acted(
        scene,
        runExplorer(scene, corpus.primed, {
          maxSteps: options.maxSteps,
          noise: options.noise,
          prior: skillKnowledge(skill),
        }),
      );
      if (replay.complete) corpus.add(withSkill(tok, replay, skill), 'follow');
    }
    const full = episodeText({ goal: scene.task.goal, records: game.records });
    corpus.add(
      analyzerExample(tok, analyzerSequence(tok, full, game.won, skill, { maxLen: contextLength })),
      'analyze',
    );
  }
  return corpus.corpus();
}

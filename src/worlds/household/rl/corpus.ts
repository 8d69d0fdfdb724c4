// The household's warm-start corpus (rl/warmstart.ts says what each kind of example is for): the explorer's
// episodes in rooms of a scale, each acted, followed with its annotated skill (the episode again, or a primed
// replay that the skill changes) and analyzed, in the episode layout.
import { Rng } from '../../../common/rng.ts';
import { generateScene } from '../env/generate.ts';
import type { RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { analyzerSequence } from '../../../text/prompts.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import type { ScoredSequence } from '../../../rl/batch.ts';
import { analyzerExample, scoredEpisode, withSkill } from '../../../rl/corpus_examples.ts';
import { episodeText, SKILL_RESERVE } from '../../../rl/rollout.ts';
import type { Corpus, WarmStartOptions } from '../../../rl/warmstart.ts';
import { annotate } from './annotator.ts';
import { runExplorer, skillKnowledge, type ExplorerEpisode } from './explorer.ts';

type ExampleKind = Corpus['kinds'][number];

/** The household's corpus, in rooms of `scale`. */
export function buildCorpus(
  tok: Tokenizer,
  contextLength: number,
  options: WarmStartOptions & { scale: RoomScale },
): Corpus {
  const rng = new Rng(options.seed);
  const explore = rng.fork('explorer');
  const budget = contextLength - SKILL_RESERVE - options.maxSkillTokens;
  const sequences: ScoredSequence[] = [];
  const kinds: ExampleKind[] = [];
  let wins = 0;
  const add = (s: ScoredSequence, kind: ExampleKind) => {
    if (s.positions.length === 0 || !options.kinds.includes(kind)) return;
    sequences.push(s);
    kinds.push(kind);
  };
  const primedRng = rng.fork('primed');
  const acted = (scene: Scene, episode: ExplorerEpisode) =>
    scoredEpisode(
      tok,
      budget,
      episodeText({ goal: scene.task.goal, records: episode.game.records }),
      episode,
      options.scoreRandom,
    );
  for (let i = 0; i < options.episodes; i++) {
    const scene = generateScene('train', i, options.scale, options.seed);
    const episode = runExplorer(scene, explore, { maxSteps: options.maxSteps, noise: options.noise });
    const { game } = episode;
    wins += game.won ? 1 : 0;
    const own = acted(scene, episode);
    add(own.sequence, 'act');
    const skill = annotate(game.records, scene.task, game.won, {
      length: (t) => tok.encode(t).length,
      maxTokens: Math.min(options.annotatedSkillTokens, options.maxSkillTokens),
    });
    if (options.follow === 'own') {
      if (game.won && own.complete) add(withSkill(tok, own, skill), 'follow');
    } else {
      const replay = acted(
        scene,
        runExplorer(scene, primedRng, {
          maxSteps: options.maxSteps,
          noise: options.noise,
          prior: skillKnowledge(skill),
        }),
      );
      if (replay.complete) add(withSkill(tok, replay, skill), 'follow');
    }
    const full = episodeText({ goal: scene.task.goal, records: game.records });
    add(analyzerExample(tok, analyzerSequence(tok, full, game.won, skill, { maxLen: contextLength })), 'analyze');
  }
  const counts: Record<ExampleKind, number> = { act: 0, follow: 0, analyze: 0 };
  for (const kind of kinds) counts[kind]++;
  return { sequences, kinds, explorerSuccess: options.episodes ? wins / options.episodes : 0, counts };
}

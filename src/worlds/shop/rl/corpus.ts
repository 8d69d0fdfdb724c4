// The shop's warm-start corpus, the household's (warmstart.ts buildCorpus) in the window layout the shop trains
// in: an episode does not fit the context as one sequence, so every step is a sequence of its own, the policy
// context before the step (prompts.ts policyContext: task line, the last `history` steps, the current page, and
// the skill block where it has one) followed by the command and its end token, as the rollout builds it. From a seed:
//   act     the observed-knowledge explorer's episodes (explorer.ts), one sequence per step it chose itself,
//           the command scored under the constrained-decoding mask of its state (the listed clicks, or the search
//           bar's free-text slot); its random steps stay in the history but are not scored unless scoreRandom;
//   follow  the episode's hindsight skill (annotateShop, cut to annotatedSkillTokens) in the context of a primed
//           replay of the same game, by the explorer acting on what the skill states (the search that worked,
//           the right item's cost, the options an earlier purchase lacked), so the skill changes the actions
//           ('primed'); or, with 'own', the won episodes again with their own skill. A step whose context has
//           no room left for the skill block (policyContext fits it last) is left out;
//   analyze analyzer prompt -> that skill, scored under the free-decoding mask.
// The steps that choose an item's option value, act and follow, are the corpus's focus: the instruction (and a
// skill that names the value) says the answer there, a value of the task line copied into a choice among the
// page's, which the warm start's first steps train on alone and later batches keep a share of
// (WarmStartOptions.focusSteps, focusShare). Trained on the whole corpus from the start, the tiny model does not
// learn the copy (bench/notes/shop.md). With the focus kind 'read' the focus holds the follow steps the skill
// decides as well (the primed replay's command differs from the unprimed explorer's there), and with 'analyze'
// the analyzer examples.
import type { ShopEnvironment } from '../env/environment.ts';
import type { ShopStepRecord } from '../env/game.ts';
import { BUTTONS } from '../env/buttons.ts';
import { CommandTrie } from '../../../text/command_trie.ts';
import { SKILL } from '../../../text/markers.ts';
import { analyzerSequence, policyContext, skillSlotLength } from '../../../text/prompts.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import type { ScoredSequence } from '../../../rl/batch.ts';
import { analyzerExample, CorpusCollector, skillFit } from '../../../rl/corpus_examples.ts';
import { episodeText } from '../../../rl/rollout.ts';
import { annotateShop } from './annotator.ts';
import { runShopExplorer, type ShopExplorerEpisode } from './explorer.ts';
import { shopSkillKnowledge } from './knowledge.ts';
import type { Corpus, WarmStartOptions } from '../../../rl/warmstart.ts';

type ExampleKind = Corpus['kinds'][number];

/** The warm start's options (its room scale aside: the shop's scale is the environment's). */
/**
 * The analyzer reads each shop page up to this many tokens: a tiny shop's results page (about 160 tokens) whole,
 * so that the titles and prices a skill names are in what it reads (the household's 24 would keep only the
 * head of a page).
 */
export const SHOP_ANALYZER_OBSERVATION_TOKENS = 176;

export interface ShopCorpusOptions extends Omit<WarmStartOptions, 'scale'> {
  /** Past steps in each step's context, as the shop trains. */
  history: number;
  /**
   * The rollout's command budget: a context leaves maxCommandTokens + 1 tokens free, as the rollout's do (at
   * least the command's own length). Without it, each context leaves room for its own command only.
   */
  maxCommandTokens?: number;
  /** The skill block after the page, as the shop's runs place it (prompts.ts policyContext). */
  skillAfterPage?: boolean;
}

const NAVIGATION = new Set(Object.values(BUTTONS).map((label) => `click[${label.toLowerCase()}]`));

/** Step t chooses an option value of the open item. */
function isOptionChoice(records: readonly ShopStepRecord[], t: number, action: string): boolean {
  return records[t].page === 'item' && action.startsWith('click[') && !NAVIGATION.has(action);
}

interface StepSequence {
  sequence: ScoredSequence;
  focus: boolean;
}

/** One window sequence per step of the episode, with or without a skill; only the explorer's own steps unless scoreRandom. */
function stepSequences(
  tok: Tokenizer,
  contextLength: number,
  goal: string,
  episode: ShopExplorerEpisode,
  options: ShopCorpusOptions,
  skill?: string,
): StepSequence[] {
  const text = episodeText({ goal, records: episode.game.records });
  const out: StepSequence[] = [];
  const skillMarker = tok.id(SKILL);
  text.steps.forEach((step, t) => {
    if (episode.random[t] && !options.scoreRandom) return;
    const command = tok.encode(step.action);
    const trie = CommandTrie.fromCommands(tok, episode.admissible[t], episode.freeText[t]);
    const masks = trie.commandMasks(command);
    const reserve = Math.max(command.length + 1, (options.maxCommandTokens ?? 0) + 1);
    const context = policyContext(
      tok,
      { ...text, steps: text.steps.slice(0, t) },
      {
        history: options.history,
        maxLen: contextLength,
        reserve,
        skill,
        skillAfterPage: options.skillAfterPage,
        skillSlot: skillSlotLength(options),
      },
    );
    // A context too full for the skill block would teach the replay's action without its reason.
    if (skill !== undefined && !context.includes(skillMarker)) return;
    const ids = Int32Array.from([...context, ...command, tok.endId]);
    const sequence = {
      ids,
      positions: Int32Array.from({ length: command.length + 1 }, (_, k) => context.length + k),
      masks,
    };
    const focus =
      (options.focus.includes('option') && isOptionChoice(episode.game.records, t, step.action)) ||
      (options.focus.includes('read') && episode.withoutSkill[t] !== null);
    out.push({ sequence, focus });
  });
  return out;
}

export function buildShopCorpus(
  env: ShopEnvironment,
  tok: Tokenizer,
  contextLength: number,
  options: ShopCorpusOptions,
): Corpus {
  const corpus = new CorpusCollector(options);
  const fit = skillFit(tok, options);
  const explorerOptions = { maxSteps: options.maxSteps, noise: options.noise };
  const add = (list: readonly StepSequence[], kind: ExampleKind) => {
    for (const s of list) corpus.add(s.sequence, kind, s.focus);
  };
  for (let i = 0; i < options.episodes; i++) {
    const scene = env.trainScene(i, options.seed);
    const goal = env.goal(scene);
    const episode = runShopExplorer(env, scene, corpus.explore, explorerOptions);
    const { game } = episode;
    corpus.played(game.won);
    add(stepSequences(tok, contextLength, goal, episode, options), 'act');
    const skill = annotateShop(game.records, scene.goal, game.won, fit);
    if (options.follow === 'own') {
      if (game.won) add(stepSequences(tok, contextLength, goal, episode, options, skill), 'follow');
    } else {
      const replay = runShopExplorer(env, scene, corpus.primed, {
        ...explorerOptions,
        prior: shopSkillKnowledge(skill),
      });
      add(stepSequences(tok, contextLength, goal, replay, options, skill), 'follow');
    }
    const analysis = analyzerSequence(tok, episodeText({ goal, records: game.records }), game.won, skill, {
      maxLen: contextLength,
      maxObservationTokens: SHOP_ANALYZER_OBSERVATION_TOKENS,
    });
    corpus.add(analyzerExample(tok, analysis), 'analyze', options.focus.includes('analyze'));
  }
  return corpus.corpus();
}

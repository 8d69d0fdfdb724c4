// The shop's side of training: its skill grammar over the trajectory's own words (../skills/grammar.ts),
// the annotator that reads the pages the trajectory saw, the truth test against the goal, and the expert's
// next move from each state.
import type { ShopStepRecord } from '../env/game.ts';
import type { ShopScene } from '../env/scene.ts';
import { SHOP, type ShopEnvironment } from '../env/environment.ts';
import { shopTerms } from '../skills/skill.ts';
import { shopSkillGrammar } from '../skills/grammar.ts';
import { parseShopSkill } from '../skills/parser.ts';
import { shopSkillFacts, shopSkillProcedure } from '../skills/parts.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import { expertMoveTokens } from '../../../rl/diagnostics.ts';
import { worldSkillPart, type FinishedEpisode, type RlWorld } from '../../../rl/rl_world.ts';
import { annotateShop } from './annotator.ts';
import { runShopExplorer } from './explorer.ts';
import { shopTrajectoryWords } from './observed.ts';
import { shopTruthShares } from './skill_truth.ts';
import { buildShopCorpus, SHOP_ANALYZER_OBSERVATION_TOKENS } from './corpus.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import { SHOP_FACTS } from '../env/facts.ts';
import type { Environment } from '../../../env/environment.ts';
import { mentionF1 } from '../../../rl/mention_f1.ts';
import { teacherScenesOf } from '../../../rl/teacher_check.ts';
import { FOCUS_KINDS } from '../../../rl/warmstart.ts';

export type ShopRl = RlWorld<ShopScene, ShopStepRecord>;

const SHOP_TRAIN = SHOP_FACTS.trainDefaults as Required<
  Pick<TrainConfig, 'maxSteps' | 'history' | 'maxSkillTokens' | 'maxCommandTokens' | 'skillAfterPage'>
>;

function shopReference(t: FinishedEpisode<ShopScene, ShopStepRecord>, tok: Tokenizer, maxSkillTokens: number): string {
  return annotateShop(t.records, t.scene.goal, t.won, {
    length: (s) => tok.encode(s).length,
    maxTokens: maxSkillTokens,
  });
}

const cache = new Map<ShopEnvironment, ShopRl>();

export function shopRl(env: ShopEnvironment = SHOP): ShopRl {
  let world = cache.get(env);
  if (!world) {
    world = {
      env,
      trainDefaults: SHOP_TRAIN,
      skillDecoder(tok, t) {
        const grammar = shopSkillGrammar(tok);
        return grammar.decoder(grammar.entityFilter(shopTrajectoryWords(t.records)));
      },
      checkSkill(text) {
        const { ok, reason } = parseShopSkill(text);
        return { ok, reason };
      },
      skillPart: worldSkillPart({ procedure: shopSkillProcedure, facts: shopSkillFacts }),
      explore(scene, rng, options) {
        const { game } = runShopExplorer(env, scene, rng, options);
        return { scene, records: game.records, won: game.won };
      },
      referenceSkill: shopReference,
      // The content words a skill shares with the annotator's, as the household's mention F1.
      skillFidelity: (skill, t, tok, maxSkillTokens) =>
        mentionF1(shopTerms(skill), shopTerms(shopReference(t, tok, maxSkillTokens))),
      truthShares(skills) {
        const shares = shopTruthShares(skills.map((s) => ({ text: s.text, goal: s.scene.goal })));
        return shares && { placeTrue: shares.claimTrue, placeFalse: shares.claimFalse };
      },
      expertTokens: (trajectories, tok) => expertMoveTokens(env, trajectories, tok),
      teacherScenes: (count) => teacherScenesOf(env, count),
      // The explorer plays the shop's step budget; the skills it learns to write and follow are the annotator's
      // whole ones (about 50 tokens), not cut to the household's 32. The first 3000 steps train on the option
      // choices alone, and a quarter of every later batch (corpus.ts): without them the tiny model does not
      // learn to copy the requested value.
      analyzerObservationTokens: SHOP_ANALYZER_OBSERVATION_TOKENS,
      warmStartDefaults: {
        maxSteps: SHOP_TRAIN.maxSteps,
        maxSkillTokens: SHOP_TRAIN.maxSkillTokens,
        annotatedSkillTokens: SHOP_TRAIN.maxSkillTokens,
        steps: 15000,
        focusSteps: 3000,
        focusShare: 0.25,
      },
      focusKinds: FOCUS_KINDS,
      warmStartCorpus: (tok, contextLength, options) =>
        buildShopCorpus(env, tok, contextLength, {
          ...options,
          history: SHOP_TRAIN.history,
          maxCommandTokens: SHOP_TRAIN.maxCommandTokens,
          skillAfterPage: SHOP_TRAIN.skillAfterPage === 1,
        }),
    };
    cache.set(env, world);
  }
  return world;
}

/** The shop's training side of one of its environments: the registry's entry (src/worlds/rl_worlds.ts). */
export function shopRlOf(env: Environment): RlWorld {
  return shopRl(env as ShopEnvironment) as RlWorld;
}

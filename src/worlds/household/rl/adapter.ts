// The household's side of training: its skill grammar with the trajectory's words and observed places, the
// annotator, the place-truth test and the expert's shortest plans.
import type { StepRecord } from '../env/game.ts';
import { householdEnvironment, type HouseholdEnvironment } from '../env/environment.ts';
import type { Environment } from '../../../env/environment.ts';
import { HOUSEHOLD_FACTS } from '../env/facts.ts';
import type { RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import { TINY } from '../env/scale.ts';
import { ANALYZER_OBSERVATION_TOKENS } from '../../../text/prompts.ts';
import { skillFacts, skillProcedure } from '../skills/parts.ts';
import { parseSkill } from '../skills/parser.ts';
import { skillGrammar } from '../skills/grammar.ts';
import { updateExpertTokens } from './expert_tokens.ts';
import { observedPlaces, trajectoryWords } from './observed.ts';
import { worldSkillPart, type RlWorld } from '../../../rl/rl_world.ts';
import { referenceSkill, skillFidelity } from './skill_fidelity.ts';
import { placeTruthShares } from './skill_truth.ts';
import { teacherScenesOf } from '../../../rl/teacher_check.ts';
import { buildCorpus } from './corpus.ts';
import { runExplorer } from './explorer.ts';

export type HouseholdRl = RlWorld<Scene, StepRecord>;

const cache = new Map<RoomScale, HouseholdRl>();

export function householdRl(scale: RoomScale = TINY): HouseholdRl {
  let world = cache.get(scale);
  if (!world) {
    world = {
      env: householdEnvironment(scale),
      trainDefaults: HOUSEHOLD_FACTS.trainDefaults,
      skillDecoder(tok, t) {
        const grammar = skillGrammar(tok);
        return grammar.decoder(grammar.entityFilter(trajectoryWords(t), observedPlaces(t.records, t.scene.task)));
      },
      checkSkill(text) {
        const { ok, reason } = parseSkill(text);
        return { ok, reason };
      },
      skillPart: worldSkillPart({ procedure: skillProcedure, facts: skillFacts }),
      explore(scene, rng, options) {
        const { game } = runExplorer(scene, rng, options);
        return { scene, records: game.records, won: game.won };
      },
      referenceSkill: (t, tok, maxSkillTokens) => referenceSkill(t.records, t.scene.task, t.won, tok, maxSkillTokens),
      skillFidelity: (skill, t, tok, maxSkillTokens) =>
        skillFidelity(skill, t.records, t.scene.task, t.won, tok, maxSkillTokens),
      truthShares: (skills) => placeTruthShares(skills),
      expertTokens: (trajectories, tok) => updateExpertTokens(trajectories, tok),
      teacherScenes: (count) => teacherScenesOf(householdEnvironment(scale), count),
      analyzerObservationTokens: ANALYZER_OBSERVATION_TOKENS,
      warmStartDefaults: {},
      // The household's corpus has no focus: every example is drawn alike.
      focusKinds: [],
      warmStartCorpus: (tok, contextLength, options) => buildCorpus(tok, contextLength, { ...options, scale }),
    };
    cache.set(scale, world);
  }
  return world;
}

/** The household's training side of one of its environments: the registry's entry (src/worlds/rl_worlds.ts). */
export function householdRlOf(env: Environment): RlWorld {
  return householdRl((env as HouseholdEnvironment).scale) as RlWorld;
}

// The search-QA world's side of training: its skill grammar over the trajectory's own words
// (../skills/grammar.ts), the annotator that reads the question and the pages the trajectory saw, the
// truth test against the encyclopedia and the gold answer, and the expert's next move from each state.
import type { Environment } from '../../../env/environment.ts';
import type { TrainConfig } from '../../../rl/config.ts';
import { expertMoveTokens } from '../../../rl/diagnostics.ts';
import { mentionF1 } from '../../../rl/mention_f1.ts';
import { type FinishedEpisode, type RlWorld, worldSkillPart } from '../../../rl/rl_world.ts';
import { teacherScenesOf } from '../../../rl/teacher_check.ts';
import { splitPieces } from '../../../text/pieces.ts';
import type { Tokenizer } from '../../../text/tokenizer.ts';
import { SEARCHQA } from '../env/environment.ts';
import { SEARCHQA_FACTS } from '../env/facts.ts';
import type { QaStepRecord } from '../env/game.ts';
import type { QaScene } from '../env/scene.ts';
import { isNameWord, isYear } from '../skills/skill.ts';
import { qaSkillGrammar } from '../skills/grammar.ts';
import { parseQaSkill } from '../skills/parser.ts';
import { qaSkillFacts, qaSkillProcedure } from '../skills/parts.ts';
import { annotateQa } from './annotator.ts';
import { buildQaCorpus, QA_ANALYZER_OBSERVATION_TOKENS } from './corpus.ts';
import { runQaExplorer } from './explorer.ts';
import { qaTrajectoryWords } from './observed.ts';
import { qaTruthShares } from './skill_truth.ts';

export type QaRl = RlWorld<QaScene, QaStepRecord>;

const QA_TRAIN = SEARCHQA_FACTS.trainDefaults as Required<Pick<TrainConfig, 'maxSteps' | 'history'>>;

function qaReference(t: FinishedEpisode<QaScene, QaStepRecord>, tok: Tokenizer, maxSkillTokens: number): string {
  return annotateQa(t.records, t.scene.question.text, t.won, {
    length: (s) => tok.encode(s).length,
    maxTokens: maxSkillTokens,
  });
}

/** A skill's mentions: its names' words and its years, in lower case, as the fidelity measure counts them. */
const mentions = (skill: string) =>
  splitPieces(skill)
    .filter((p) => isNameWord(p) || isYear(p))
    .map((p) => p.toLowerCase());

let world: QaRl | null = null;

export function qaRl(): QaRl {
  world ??= {
    env: SEARCHQA,
    trainDefaults: QA_TRAIN,
    skillDecoder(tok, t) {
      const grammar = qaSkillGrammar(tok);
      return grammar.decoder(grammar.entityFilter(qaTrajectoryWords(t.goal, t.records)));
    },
    checkSkill(text) {
      const { ok, reason } = parseQaSkill(text);
      return { ok, reason };
    },
    skillPart: worldSkillPart({ procedure: qaSkillProcedure, facts: qaSkillFacts }),
    explore(scene, rng, options) {
      const { game } = runQaExplorer(SEARCHQA, scene, rng, options);
      return { scene, records: game.records, won: game.won };
    },
    referenceSkill: qaReference,
    // The names and years a skill shares with the annotator's, as the other worlds' mention F1.
    skillFidelity: (skill, t, tok, maxSkillTokens) =>
      mentionF1(mentions(skill), mentions(qaReference(t, tok, maxSkillTokens))),
    truthShares: (skills) => qaTruthShares(skills),
    expertTokens: (trajectories, tok) => expertMoveTokens(SEARCHQA, trajectories, tok),
    teacherScenes: (count) => teacherScenesOf(SEARCHQA, count),
    analyzerObservationTokens: QA_ANALYZER_OBSERVATION_TOKENS,
    // The explorer plays the world's step budget; the annotator's skills, about 40 tokens with their facts, are
    // kept whole within the preset's 48 rather than cut to the household's 32.
    warmStartDefaults: { maxSteps: QA_TRAIN.maxSteps, annotatedSkillTokens: 48 },
    focusKinds: ['read', 'analyze'],
    warmStartCorpus: (tok, contextLength, options) => buildQaCorpus(SEARCHQA, tok, contextLength, options),
  };
  return world;
}

/** The world's training side of its environment: the registry's entry (src/worlds/rl_worlds.ts). */
export function qaRlOf(_env: Environment): RlWorld {
  return qaRl() as RlWorld;
}

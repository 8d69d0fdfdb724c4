// The counter world's side of training (rl/rl_world.ts): its skill grammar, the annotator, the truth test of its
// goal facts and the expert's next move from each state.
import type { Environment } from '../../../../env/environment.ts';
import { expertMoveTokens } from '../../../../rl/diagnostics.ts';
import { mentionF1 } from '../../../../rl/mention_f1.ts';
import { type FinishedEpisode, type RlWorld, worldSkillPart } from '../../../../rl/rl_world.ts';
import { teacherScenesOf } from '../../../../rl/teacher_check.ts';
import { splitPieces } from '../../../../text/pieces.ts';
import type { Tokenizer } from '../../../../text/tokenizer.ts';
import { COUNTER } from '../env/environment.ts';
import { COUNTER_FACTS } from '../env/facts.ts';
import type { CounterStepRecord } from '../env/game.ts';
import type { CounterScene } from '../env/scene.ts';
import { NUMBER_WORDS } from '../env/vocabulary.ts';
import { counterSkillGrammar } from '../skills/grammar.ts';
import { parseCounterSkill } from '../skills/parser.ts';
import { counterSkillFacts, counterSkillProcedure } from '../skills/parts.ts';
import { COUNTER_VERBS } from '../skills/skill.ts';
import { annotateCounter } from './annotator.ts';
import { buildCounterCorpus, COUNTER_ANALYZER_OBSERVATION_TOKENS } from './corpus.ts';
import { runCounterExplorer } from './explorer.ts';
import { counterTruthShares } from './skill_truth.ts';

type CounterRl = RlWorld<CounterScene, CounterStepRecord>;

const reference = (t: FinishedEpisode<CounterScene, CounterStepRecord>, tok: Tokenizer, maxSkillTokens: number) =>
  annotateCounter(t.records, COUNTER.goal(t.scene), t.won, {
    length: (s) => tok.encode(s).length,
    maxTokens: maxSkillTokens,
  });

/** A skill's mentions: its verbs and numbers, as the fidelity measure counts them. */
const MENTIONED: ReadonlySet<string> = new Set([...COUNTER_VERBS, ...NUMBER_WORDS.filter((w) => w !== 'one')]);
const mentions = (skill: string) => splitPieces(skill.toLowerCase()).filter((p) => MENTIONED.has(p));

let world: CounterRl | null = null;

function counterRl(): CounterRl {
  world ??= {
    env: COUNTER,
    trainDefaults: COUNTER_FACTS.trainDefaults,
    skillDecoder: (tok) => counterSkillGrammar(tok).decoder(),
    checkSkill(text) {
      const { ok, reason } = parseCounterSkill(text);
      return { ok, reason };
    },
    skillPart: worldSkillPart({ procedure: counterSkillProcedure, facts: counterSkillFacts }),
    explore(scene, rng, options) {
      const { game } = runCounterExplorer(COUNTER, scene, rng, options);
      return { scene, records: game.records, won: game.won };
    },
    referenceSkill: reference,
    skillFidelity: (skill, t, tok, maxSkillTokens) =>
      mentionF1(mentions(skill), mentions(reference(t, tok, maxSkillTokens))),
    truthShares: counterTruthShares,
    expertTokens: (trajectories, tok) => expertMoveTokens(COUNTER, trajectories, tok),
    teacherScenes: (count) => teacherScenesOf(COUNTER, count),
    analyzerObservationTokens: COUNTER_ANALYZER_OBSERVATION_TOKENS,
    warmStartDefaults: { maxSteps: COUNTER_FACTS.maxSteps },
    focusKinds: ['analyze'],
    warmStartCorpus: (tok, contextLength, options) => buildCounterCorpus(COUNTER, tok, contextLength, options),
  };
  return world;
}

/** The world's training side of its environment: what its tests register (src/worlds/rl_worlds.ts). */
export function counterRlOf(_env: Environment): RlWorld {
  return counterRl() as RlWorld;
}

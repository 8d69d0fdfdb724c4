// One run of the engine (engine.ts): its trainer and backend, driven one stage at a time, and what the page is
// shown of it: the stage's snapshot, the numbers of the optimizer step when stepping, its evaluation and its
// teacher check, and a fresh trainer when new weights are loaded into it.
import type { Backend } from '../backend/backend.ts';
import { packBatch } from '../rl/batch.ts';
import { evalSplitScenes, evaluateSplits } from '../rl/evaluate.ts';
import { teacherCheck } from '../rl/teacher_check.ts';
import { Trainer } from '../rl/trainer.ts';
import { STAGES, type Stage, type UpdateState } from '../rl/update_state.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import type { RunId, StageSnapshot, StepResultView, TeacherCheckView } from './protocol.ts';
import { creditView, groupViews, largestChanges, trajectoryView } from './views.ts';

/** Parameters listed in the optimizer stage's "largest changes". */
const LARGEST_CHANGES = 8;

export interface Run {
  id: RunId;
  trainer: Trainer;
  backend: Backend;
  /** l_student of the open update from a scoring pass at stage 4 (step-through only). */
  lStudent: Float32Array | null;
  paramsBefore: Float32Array | null;
  step: StepResultView | null;
}

/**
 * Runs the next stage of the run's open update (a new update when none is open). Stepping through (`inspect`)
 * also scores the open update before its re-scoring; the optimizer stage's step view compares the weights.
 */
export async function advanceStage(
  run: Run,
  tok: Tokenizer,
  inspect: boolean,
): Promise<{ st: UpdateState; stage: Stage }> {
  const trainer = run.trainer;
  const open = trainer.current;
  const next: Stage = open && open.stage < STAGES.length ? STAGES[open.stage] : 'rollout';
  if (next === 'rollout') {
    run.lStudent = null;
    run.step = null;
  }
  if (next === 'optimizer') run.paramsBefore = await run.backend.readParameters();
  const st = await trainer.nextStage();
  if (next === 'rescore' && inspect) {
    const batch = packBatch(
      st.trajectories.flatMap((t) => t.sequences),
      tok.padId,
    );
    run.lStudent = await run.backend.score(batch, 'current');
  }
  if (next === 'optimizer' && run.paramsBefore) {
    const after = await run.backend.readParameters();
    const { largest, rms } = largestChanges(run.backend.config, run.paramsBefore, after, LARGEST_CHANGES, (id) =>
      tok.token(id),
    );
    const loss = st.loss;
    run.step = {
      L_GRPO: loss?.L_GRPO ?? Number.NaN,
      L_OPD: loss?.L_OPD ?? Number.NaN,
      KL: loss?.KL ?? Number.NaN,
      total: loss?.total ?? Number.NaN,
      gradNorm: st.step?.gradNorm ?? Number.NaN,
      largest,
      rmsChange: rms,
    };
    run.paramsBefore = null;
  }
  return { st, stage: next };
}

/** What the page shows of a stage that has just run. */
export function stageSnapshot(run: Run, tok: Tokenizer, st: UpdateState, stage: Stage): StageSnapshot {
  const config = st.config;
  return {
    run: run.id,
    update: st.update + 1,
    stage,
    trajectories: st.trajectories.map((t) =>
      trajectoryView(
        tok,
        run.id,
        st.update + 1,
        config.groupSize,
        t,
        config,
        st,
        run.lStudent,
        run.backend.config.contextLength,
        run.trainer.world.analyzerObservationTokens,
        run.trainer.world,
      ),
    ),
    groups: groupViews(st),
    step: run.step,
    hyper: st.lossHyper,
    credit: creditView(st),
  };
}

/**
 * The run's success on the seen and unseen evaluation splits, `episodes` games each; `onEpisode` is called as each
 * game ends, and what it throws ends the evaluation.
 */
export function evaluateRun(run: Run, tok: Tokenizer, episodes: number, onEpisode?: () => void) {
  return evaluateSplits(
    run.trainer.world.env,
    run.backend,
    tok,
    run.trainer.config,
    evalSplitScenes(run.trainer.world.env, episodes),
    onEpisode,
  );
}

/** evaluateRun, ended at the first game that ends once `current` says no: null then. */
export async function evaluateWhile(run: Run, tok: Tokenizer, episodes: number, current: () => boolean) {
  const superseded = new Error('the evaluation is no longer wanted');
  try {
    const result = await evaluateRun(run, tok, episodes, () => {
      if (!current()) throw superseded;
    });
    return current() ? result : null;
  } catch (err) {
    if (err === superseded) return null;
    throw err;
  }
}

/** The teacher check of the run's current weights on `games` of its world's teacher games. */
export async function runTeacherCheck(run: Run, tok: Tokenizer, games: number): Promise<TeacherCheckView> {
  const trainer = run.trainer;
  const check = await teacherCheck(
    trainer.world,
    run.backend,
    tok,
    trainer.world.teacherScenes(games),
    trainer.config,
    undefined,
    'own',
  );
  return {
    run: run.id,
    update: trainer.updates,
    games,
    noSkill: check.no_skill,
    ownSkill: check.own_skill,
    otherSkill: check.other_skill,
    blankSkill: check.blank_skill,
    validSkills: check.valid_skills,
  };
}

/**
 * A fresh trainer for the run on weights just loaded into its backend: the open update was computed with the old
 * weights. The counters go on, or start from `counts` (a run checkpoint's).
 */
export function trainerOnNewWeights(
  run: Run,
  tok: Tokenizer,
  counts: { updates: number; episodes: number } | null,
): Trainer {
  const old = run.trainer;
  const trainer = new Trainer({
    backend: run.backend,
    tokenizer: tok,
    algo: old.algo,
    config: old.config,
    seed: old.seed,
    world: old.world,
  });
  trainer.updates = counts ? counts.updates : old.updates;
  trainer.episodes = counts ? counts.episodes : old.episodes;
  trainer.staticLibrary = old.staticLibrary;
  trainer.crossgamePool = old.crossgamePool;
  return trainer;
}

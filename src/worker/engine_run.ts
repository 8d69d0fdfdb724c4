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
import type { EngineEvent, RunId, StageSnapshot, StepResultView, TeacherCheckView, UpdateMetrics } from './protocol.ts';
import { creditView, groupViews, largestChanges, metricsView, trajectoryView, warmStartPoint } from './views.ts';
import { noTimes, timeStage, type ScoringClock, type UpdateTimes } from './update_timing.ts';

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
  /** The open update's times so far, and the clock of the backend's scoring passes (update_timing.ts). */
  times: UpdateTimes;
  scoring: ScoringClock;
  /**
   * performance.now() when the run's wait for its next update began: its previous update's metrics, or the Play
   * that began it; null while stepping stage by stage, whose pauses are the reader's.
   */
  waitingSince: number | null;
}

/** A run of a trainer just built, on its backend, whose scoring passes `scoring` times (timedScoring). */
export function newRun(id: RunId, trainer: Trainer, scoring: ScoringClock): Run {
  const backend = trainer.backend;
  return {
    id,
    trainer,
    backend,
    lStudent: null,
    paramsBefore: null,
    step: null,
    times: noTimes(),
    scoring,
    waitingSince: null,
  };
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
    run.times = noTimes();
  }
  if (next === 'optimizer') run.paramsBefore = await run.backend.readParameters();
  const st = await timeStage(run.times, next, run.scoring, () => trainer.nextStage());
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

/** How far an evaluation is: games played of all it plays, both splits together. */
export type EvalProgress = (played: number, games: number) => void;

/**
 * The run's success on the seen and unseen evaluation splits, `episodes` games each; `progress` is told before the
 * first game and as each game ends, and what it throws ends the evaluation.
 */
function evaluateRun(run: Run, tok: Tokenizer, episodes: number, progress?: EvalProgress) {
  const scenes = evalSplitScenes(run.trainer.world.env, episodes);
  const games = scenes.seen.length + scenes.unseen.length;
  let played = 0;
  progress?.(played, games);
  return evaluateSplits(
    run.trainer.world.env,
    run.backend,
    tok,
    run.trainer.config,
    scenes,
    progress && (() => progress(++played, games)),
  );
}

/** evaluateRun, ended at the first game that ends once `current` says no: null then. */
async function evaluateWhile(
  run: Run,
  tok: Tokenizer,
  episodes: number,
  current: () => boolean,
  progress?: EvalProgress,
) {
  const superseded = new Error('the evaluation is no longer wanted');
  try {
    const result = await evaluateRun(run, tok, episodes, (played, games) => {
      if (!current()) throw superseded;
      progress?.(played, games);
    });
    return current() ? result : null;
  } catch (err) {
    if (err === superseded) return null;
    throw err;
  }
}

/** An evaluation's progress told to the page as its status: "evaluating the warm start: 57 of 134 games". */
export function evalProgress(what: string, emit: (event: EngineEvent) => void): EvalProgress {
  return (played, games) => emit({ type: 'status', text: `${what}: ${played} of ${games} games` });
}

/**
 * The curve's update-0 point of every run, from one evaluation of the first (they all start from the same
 * weights), timed; null when `current` said no before it ended.
 */
export async function warmStartPoints(
  runs: readonly Run[],
  tok: Tokenizer,
  episodes: number,
  current: () => boolean,
  progress: EvalProgress,
): Promise<UpdateMetrics[] | null> {
  const started = performance.now();
  const result = await evaluateWhile(runs[0], tok, episodes, current, progress);
  if (!result) return null;
  const evalMs = performance.now() - started;
  return runs.map((r) => warmStartPoint(r.id, result.seen.success, result.unseen.success, result, evalMs));
}

/**
 * The point of the run's update that has just finished: its metrics, its evaluation where the schedule has one
 * (after update 1 and every `evalEvery`), and its timings, the wait for it measured up to now.
 */
export async function updatePoint(
  run: Run,
  tok: Tokenizer,
  schedule: { evalEvery: number; evalEpisodes: number },
  progress: EvalProgress,
): Promise<UpdateMetrics> {
  const m = run.trainer.metrics(run.trainer.current!);
  const done = m.update + 1;
  let evaluation: Parameters<typeof metricsView>[1] = null;
  let evalMs: number | null = null;
  if (done === 1 || done % schedule.evalEvery === 0) {
    const started = performance.now();
    evaluation = await evaluateRun(run, tok, schedule.evalEpisodes, progress);
    evalMs = performance.now() - started;
  }
  const now = performance.now();
  const updateMs = run.waitingSince === null ? null : now - run.waitingSince;
  if (run.waitingSince !== null) run.waitingSince = now;
  return metricsView(m, evaluation, { ...run.times, evalMs, updateMs });
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

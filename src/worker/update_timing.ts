// Where a page update's time goes, as the engine measures it: the wall time of each stage, of the scoring passes
// within them by the weights they score with, of the evaluation after the update, and of the whole wait from one
// update to the next. The figures ride on each update's metrics (protocol.ts), so the page, its CSV and
// `bench page` read the same numbers.
import type { Backend, ParameterSet, TokenBatch } from '../backend/backend.ts';
import type { Stage } from '../rl/update_state.ts';

/** Milliseconds of each part of one update; the scoring passes are part of the stages that ran them. */
export interface UpdateTimes {
  rolloutMs: number;
  rewardsMs: number;
  skillsMs: number;
  rescoreMs: number;
  lossMs: number;
  optimizerMs: number;
  /** Forwards without gradient (Backend.score, scoreRows) on the current weights: the teacher's pass with skills. */
  currentPassMs: number;
  /** The same on the reference weights: the KL term's pass over the plain sequences. */
  referencePassMs: number;
}

const STAGE_FIELD = {
  rollout: 'rolloutMs',
  rewards: 'rewardsMs',
  skills: 'skillsMs',
  rescore: 'rescoreMs',
  loss: 'lossMs',
  optimizer: 'optimizerMs',
} as const satisfies Record<Stage, keyof UpdateTimes>;

export function noTimes(): UpdateTimes {
  return {
    rolloutMs: 0,
    rewardsMs: 0,
    skillsMs: 0,
    rescoreMs: 0,
    lossMs: 0,
    optimizerMs: 0,
    currentPassMs: 0,
    referencePassMs: 0,
  };
}

/** Milliseconds spent in scoring passes so far, by the weights scored with; only ever grows. */
export interface ScoringClock {
  current: number;
  reference: number;
}

/**
 * The backend with its scoring passes timed into `clock`; every other member is the backend's own, called on it
 * (a proxy, so that nothing of the backend is copied and its state stays in one place).
 */
export function timedScoring(backend: Backend, clock: ScoringClock): Backend {
  const timed =
    (method: 'score' | 'scoreRows') =>
    async (batch: TokenBatch, set?: ParameterSet): Promise<Float32Array> => {
      const started = performance.now();
      try {
        return await backend[method](batch, set);
      } finally {
        clock[set ?? 'current'] += performance.now() - started;
      }
    };
  const score = timed('score');
  const scoreRows = timed('scoreRows');
  return new Proxy(backend, {
    get(target, prop) {
      if (prop === 'score') return score;
      if (prop === 'scoreRows') return scoreRows;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Runs one stage of an update, adding its wall time and the scoring passes it ran to `times`. */
export async function timeStage<T>(
  times: UpdateTimes,
  stage: Stage,
  clock: ScoringClock,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const current = clock.current;
  const reference = clock.reference;
  try {
    return await run();
  } finally {
    times[STAGE_FIELD[stage]] += performance.now() - started;
    times.currentPassMs += clock.current - current;
    times.referencePassMs += clock.reference - reference;
  }
}

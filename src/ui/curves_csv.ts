// The curves as CSV: one row per run and update, the recorded run's (one row per arm, seed and evaluated
// update: only episodes and the two eval splits), the live run's (every metric) and a race's arms (every metric,
// `source` race and `run` the arm's algorithm), told apart by `source`.
// Empty cells where an update has no value (no evaluation at that update, a figure a recording keeps not).
// In a world with a score (the shop) the score's columns, in [0, 1], follow success's.
import type { RecordedRun } from '../rl/recorded_run.ts';
import type { UpdateMetrics } from '../worker/protocol.ts';

const METRICS: readonly (keyof UpdateMetrics)[] = [
  'episodes',
  'successTrain',
  'evalSeen',
  'evalUnseen',
  'meanReward',
  'L_GRPO',
  'L_OPD',
  'KL',
  'total',
  'lambda',
  'beta',
  'meanDelta',
  'meanGate',
  'validSkillRate',
  'skillFidelity',
  'skillPlaceTrue',
  'skillPlaceFalse',
  'corrDeltaAdvantage',
  'gradNorm',
  'tokensPerSecond',
  'wallMs',
  'updateMs',
  'rolloutMs',
  'rewardsMs',
  'skillsMs',
  'rescoreMs',
  'currentPassMs',
  'referencePassMs',
  'lossMs',
  'optimizerMs',
  'evalMs',
  'gradNormGrpo',
  'gradNormOpd',
  'gradNormRatio',
  'meanDivergence',
  'meanAbsDelta',
  'forcedShare',
  'corrDeltaExpert',
  'corrDeltaAdvantageWon',
  'corrDeltaAdvantageLost',
  'zeroVarianceGroups',
  'teacherNoSkill',
  'teacherOwnSkill',
  'teacherOtherSkill',
  'teacherBlankSkill',
  'validationKl',
  'degenerateSkillRate',
  'opdShare',
  'opdDeltaShare',
];

/** The mean scores of the training rollouts and the eval sets, after the success columns, in a world with a score. */
const SCORE_METRICS: readonly (keyof UpdateMetrics)[] = ['scoreTrain', 'scoreSeen', 'scoreUnseen'];
const SCORED_METRICS = [
  ...METRICS.slice(0, METRICS.indexOf('evalUnseen') + 1),
  ...SCORE_METRICS,
  ...METRICS.slice(METRICS.indexOf('evalUnseen') + 1),
];

export const CSV_COLUMNS: readonly string[] = ['source', 'run', 'seed', 'update', ...METRICS];
/** The columns in a world with a score (WorldFacts.scored). */
export const SCORED_CSV_COLUMNS: readonly string[] = ['source', 'run', 'seed', 'update', ...SCORED_METRICS];

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** A race's arms: the curve of each, by its algorithm, and the seed both were started with. */
export interface RaceCurves {
  seed: number;
  arms: Record<string, readonly UpdateMetrics[]>;
}

/** `liveSeed`: the seed the live run was started with (empty when unknown); `scored`: the world has a score. */
export function curvesCsv(
  curves: Record<string, UpdateMetrics[]>,
  recorded: RecordedRun | null = null,
  liveSeed: number | null = null,
  race: RaceCurves | null = null,
  scored = false,
): string {
  const metrics = scored ? SCORED_METRICS : METRICS;
  const rows = [(scored ? SCORED_CSV_COLUMNS : CSV_COLUMNS).join(',')];
  for (const arm of recorded?.arms ?? []) {
    for (const s of arm.seeds) {
      for (const [update, episodes, seen, unseen] of s.curve) {
        const values: Partial<Record<keyof UpdateMetrics, number | null>> = {
          episodes,
          evalSeen: seen,
          evalUnseen: unseen,
        };
        rows.push(['recorded', arm.algo, s.seed, update, ...metrics.map((c) => values[c])].map(cell).join(','));
      }
    }
  }
  for (const run of Object.keys(curves).sort()) {
    for (const m of curves[run])
      rows.push(['live', run, liveSeed, m.update, ...metrics.map((c) => m[c])].map(cell).join(','));
  }
  for (const run of Object.keys(race?.arms ?? {}).sort()) {
    for (const m of race!.arms[run])
      rows.push(['race', run, race!.seed, m.update, ...metrics.map((c) => m[c])].map(cell).join(','));
  }
  return `${rows.join('\n')}\n`;
}

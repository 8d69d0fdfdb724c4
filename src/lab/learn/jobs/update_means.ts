// The figures of a `bench learn` run that are means over its updates: the skill, Delta and gate figures, and
// the generic list of update metrics (MEAN_METRICS) that the report's diagnostics show per arm.
import type { CrossgameSources } from '../../../rl/update_state.ts';
import type { UpdateMetrics } from '../../../rl/trainer.ts';

/** The keys of UpdateMetrics that hold a number, or a number or null (a figure some updates lack). */
type NumericMetric = {
  [K in keyof UpdateMetrics]-?: UpdateMetrics[K] extends number | null ? K : never;
}[keyof UpdateMetrics];

/**
 * The update metrics a run reports as their mean over the updates where they are defined (not null), each with
 * its label in the report's diagnostics: one line per metric.
 */
export const MEAN_METRICS = {
  gradNormGrpo: 'GRPO gradient norm',
  gradNormOpd: 'OPD gradient norm',
  gradNormRatio: 'OPD / GRPO norm',
  opdDeltaShare: 'Delta-dependent share of the OPD coefficient',
  meanDivergence: 'divergence to the teacher',
  corrDeltaExpert: 'corr(Delta, expert token)',
  corrDeltaAdvantageWon: 'corr(Delta, A) won',
  corrDeltaAdvantageLost: 'corr(Delta, A) lost',
  meanAbsDelta: 'mean abs Delta',
  forcedShare: 'forced share of OPD tokens',
  zeroVarianceGroups: 'groups with equal rewards',
  validationKl: 'KL to the teacher on validation',
} as const satisfies Partial<Record<NumericMetric, string>>;
export type MeanMetric = keyof typeof MEAN_METRICS;
export const MEAN_METRIC_KEYS = Object.keys(MEAN_METRICS) as MeanMetric[];
/** Per metric of MEAN_METRICS, its mean over a run's updates; null when no update defined it. */
export type MetricMeans = Record<MeanMetric, number | null>;

/** Means over a run's updates of the figures that only some updates have. */
export interface UpdateMeans {
  valid_skill_rate: number | null;
  /** Mean over updates of the skill fidelity (mention F1 against the annotator's skill); null without skills. */
  skill_fidelity: number | null;
  /** Means over updates of the per-update mean Delta and gate over OPD-masked tokens (null without OPD). */
  mean_delta: number | null;
  mean_gate: number | null;
  /** Mean over the updates where it is defined of corr(Delta, advantage) on decision tokens; null when none. */
  corr_delta_advantage: number | null;
  /** seed-crossgame: where the skills of all its updates came from (summed); null under other algorithms. */
  crossgame: CrossgameSources | null;
  skipped_updates: number;
  metric_means: MetricMeans;
  /** Each teacher check of the run (config teacherEvery; job.ts adds its scheduled ones). */
  teacher: TeacherPoint[];
}

/**
 * One teacher check (rl/teacher_check.ts) of a run: [update, success with no skill, with its own skill, with
 * another game's, with the blank block].
 */
export type TeacherPoint = [update: number, none: number, own: number, other: number, blank: number];

/** A MeansOfUpdates' sums as plain data, which a job's progress keeps (job_progress.ts). */
export interface MeansSums {
  valid: [number, number];
  fidelity: [number, number];
  delta: number;
  gate: number;
  opd: number;
  corr: [number, number];
  crossgame: CrossgameSources | null;
  skipped: number;
  teacher: TeacherPoint[];
  metrics: Record<MeanMetric, [number, number]>;
}

/** Adds a value an update defined to its [sum, count]; null (not defined there) counts nothing. */
function addToMean(sum: [number, number], value: number | null): void {
  if (value === null) return;
  sum[0] += value;
  sum[1]++;
}

export class MeansOfUpdates {
  private s: MeansSums = {
    valid: [0, 0],
    fidelity: [0, 0],
    delta: 0,
    gate: 0,
    opd: 0,
    corr: [0, 0],
    crossgame: null,
    skipped: 0,
    teacher: [],
    metrics: Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, [0, 0]])) as MeansSums['metrics'],
  };

  /** The sums of a run's updates so far, to go on from with `from`: the same means as if never stopped. */
  sums(): MeansSums {
    return structuredClone(this.s);
  }

  static from(sums: MeansSums): MeansOfUpdates {
    const m = new MeansOfUpdates();
    m.s = structuredClone(sums);
    return m;
  }

  add(m: UpdateMetrics): void {
    const s = this.s;
    addToMean(s.valid, m.validSkillRate);
    addToMean(s.fidelity, m.skillFidelity);
    addToMean(s.corr, m.corrDeltaAdvantage);
    if (m.crossgame) {
      s.crossgame ??= { update: 0, pool: 0, none: 0 };
      const sum = s.crossgame;
      sum.update += m.crossgame.update;
      sum.pool += m.crossgame.pool;
      sum.none += m.crossgame.none;
    }
    for (const key of MEAN_METRIC_KEYS) addToMean(s.metrics[key], m[key]);
    if (
      m.teacherNoSkill !== null &&
      m.teacherOwnSkill !== null &&
      m.teacherOtherSkill !== null &&
      m.teacherBlankSkill !== null
    ) {
      s.teacher.push([m.update + 1, m.teacherNoSkill, m.teacherOwnSkill, m.teacherOtherSkill, m.teacherBlankSkill]);
    }
    if (m.skipped) s.skipped++;
    if (m.meanGate > 0) {
      s.delta += m.meanDelta;
      s.gate += m.meanGate;
      s.opd++;
    }
  }

  result(): UpdateMeans {
    const s = this.s;
    return {
      valid_skill_rate: s.valid[1] ? s.valid[0] / s.valid[1] : null,
      skill_fidelity: s.fidelity[1] ? s.fidelity[0] / s.fidelity[1] : null,
      mean_delta: s.opd ? s.delta / s.opd : null,
      mean_gate: s.opd ? s.gate / s.opd : null,
      corr_delta_advantage: s.corr[1] ? s.corr[0] / s.corr[1] : null,
      crossgame: s.crossgame,
      skipped_updates: s.skipped,
      teacher: s.teacher,
      metric_means: Object.fromEntries(
        MEAN_METRIC_KEYS.map((key) => {
          const [sum, n] = s.metrics[key];
          return [key, n ? sum / n : null];
        }),
      ) as MetricMeans,
    };
  }
}

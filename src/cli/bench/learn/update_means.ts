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
  /** Each teacher check of the run (config teacherEvery): [update, no skill, own skill, other skill] success. */
  teacher: [number, number, number, number][];
}

/** A MeansOfUpdates' sums as plain data, which a job's progress keeps (job_progress.ts). */
export interface MeansSums {
  valid: number[];
  fidelity: number[];
  delta: number;
  gate: number;
  opd: number;
  corr: number[];
  crossgame: CrossgameSources | null;
  skipped: number;
  teacher: [number, number, number, number][];
  metrics: [MeanMetric, [number, number]][];
}

export class MeansOfUpdates {
  /** The sums of a run's updates so far, to go on from with `from`: the same means as if never stopped. */
  sums(): MeansSums {
    const { valid, fidelity, delta, gate, opd, corr, crossgame, skipped, teacher, metrics } = this;
    return structuredClone({
      valid,
      fidelity,
      delta,
      gate,
      opd,
      corr,
      crossgame,
      skipped,
      teacher,
      metrics: [...metrics],
    });
  }

  static from(sums: MeansSums): MeansOfUpdates {
    const m = new MeansOfUpdates();
    const s = structuredClone(sums);
    m.valid = s.valid;
    m.fidelity = s.fidelity;
    m.delta = s.delta;
    m.gate = s.gate;
    m.opd = s.opd;
    m.corr = s.corr;
    m.crossgame = s.crossgame;
    m.skipped = s.skipped;
    m.teacher = s.teacher;
    m.metrics = new Map(s.metrics);
    return m;
  }

  private valid = [0, 0];
  private fidelity = [0, 0];
  private delta = 0;
  private gate = 0;
  private opd = 0;
  private corr = [0, 0];
  private crossgame: CrossgameSources | null = null;
  private skipped = 0;
  private teacher: [number, number, number, number][] = [];
  private metrics = new Map<MeanMetric, [number, number]>(MEAN_METRIC_KEYS.map((k) => [k, [0, 0]]));

  add(m: UpdateMetrics): void {
    if (m.validSkillRate !== null) {
      this.valid[0] += m.validSkillRate;
      this.valid[1]++;
    }
    if (m.skillFidelity !== null) {
      this.fidelity[0] += m.skillFidelity;
      this.fidelity[1]++;
    }
    if (m.corrDeltaAdvantage !== null) {
      this.corr[0] += m.corrDeltaAdvantage;
      this.corr[1]++;
    }
    if (m.crossgame) {
      this.crossgame ??= { update: 0, pool: 0, none: 0 };
      const sum = this.crossgame;
      sum.update += m.crossgame.update;
      sum.pool += m.crossgame.pool;
      sum.none += m.crossgame.none;
    }
    for (const [key, sum] of this.metrics) {
      const value = m[key];
      if (value !== null) {
        sum[0] += value;
        sum[1]++;
      }
    }
    if (m.teacherNoSkill !== null && m.teacherOwnSkill !== null && m.teacherOtherSkill !== null) {
      this.teacher.push([m.update + 1, m.teacherNoSkill, m.teacherOwnSkill, m.teacherOtherSkill]);
    }
    if (m.skipped) this.skipped++;
    if (m.meanGate > 0) {
      this.delta += m.meanDelta;
      this.gate += m.meanGate;
      this.opd++;
    }
  }

  result(): UpdateMeans {
    return {
      valid_skill_rate: this.valid[1] ? this.valid[0] / this.valid[1] : null,
      skill_fidelity: this.fidelity[1] ? this.fidelity[0] / this.fidelity[1] : null,
      mean_delta: this.opd ? this.delta / this.opd : null,
      mean_gate: this.opd ? this.gate / this.opd : null,
      corr_delta_advantage: this.corr[1] ? this.corr[0] / this.corr[1] : null,
      crossgame: this.crossgame,
      skipped_updates: this.skipped,
      teacher: this.teacher,
      metric_means: Object.fromEntries(
        [...this.metrics].map(([key, [sum, n]]) => [key, n ? sum / n : null]),
      ) as MetricMeans,
    };
  }
}

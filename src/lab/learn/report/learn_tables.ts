// The tables of learn.md, each a function of the figures the statistics computed: the main table, per task type,
// diagnostics, teacher checks, the paired differences (over seeds and layouts, and over seeds alone), the score's
// two tables, the sweeps' values and each arm's chosen settings. Their sentences are in learn_prose.ts.
import type { Algo } from '../../../rl/arms.ts';
import { distils, usesOpidWeight } from '../../../rl/arms.ts';
import { SWEEP_GAMES } from '../design/games.ts';
import type { JobResult } from '../jobs/job.ts';
import { MEAN_METRIC_KEYS, MEAN_METRICS } from '../jobs/update_means.ts';
import type { TeacherRow } from '../stats/diagnostics.ts';
import type { Difference } from '../stats/differences.ts';
import type { ScoreFigures } from '../stats/score.ts';
import { pct, type AlgoRow, type Estimate, type SeedEstimate } from '../stats/stats.ts';
import type { ArmSettings } from '../sweeps/sweep.ts';
import type { SweepPoint } from '../sweeps/sweep_points.ts';

const interval = (ci: [number, number]) => `[${pct(ci[0])}, ${pct(ci[1])}]`;
const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
/** Three significant digits: the norms span orders of magnitude. */
const figure = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : 'n/a');
const points = (d: number) => (Number.isFinite(d) ? `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}` : 'n/a');
const seedsCell = (e: Estimate) => e.seeds.join(', ') || 'none in common';

/** A difference (or an effect of the teacher check) as the report writes it: "+4.8 [+1.0, +8.3]", in points. */
export function differenceCell(e: Pick<Estimate, 'value' | 'ci'>): string {
  return `${points(e.value)} [${points(e.ci[0])}, ${points(e.ci[1])}]`;
}

/** The warm start's intervals on each split (one "seed", its own games), drawn where the rows' are. */
export interface WarmIntervals {
  seen: [number, number];
  unseen: [number, number];
}

export function mainTable(
  warm: JobResult,
  warmCi: WarmIntervals,
  rows: readonly AlgoRow[],
  settings: ReadonlyMap<Algo, ArmSettings>,
): string {
  const unseen = `${pct(warm.success_unseen)} ${interval(warmCi.unseen)}`;
  const lambda = (a: Algo) =>
    distils(a)
      ? String(settings.get(a)?.lambda ?? 'n/a')
      : usesOpidWeight(a)
        ? `opid weight ${settings.get(a)?.opidWeight ?? 'n/a'}`
        : '-';
  return [
    '| algorithm | seeds | lr | lambda or OPID weight | rehearsal | eval-seen % [95% CI] | eval-unseen % [95% CI] | eval-unseen area under the curve % [95% CI] | wall s/run |',
    '|---|---|---|---|---|---|---|---|---|',
    `| warm start | - | - | - | - | ${pct(warm.success_seen)} ${interval(warmCi.seen)} | ${unseen} | ${unseen} | - |`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${r.seeds} | ${r.lr} | ${lambda(r.algo)} | ${settings.get(r.algo)?.rehearsal ?? 'n/a'} | ${pct(r.seen)} ${interval(r.seenCi)} | ${pct(r.unseen)} ${interval(r.unseenCi)} | ${pct(r.auc)} ${interval(r.aucCi)} | ${fixed(r.wall, 0)} |`,
    ),
  ].join('\n');
}

export function typeTable(warm: JobResult, rows: readonly AlgoRow[]): string {
  const types = Object.keys(warm.per_type.seen).sort();
  return [
    `| task type | warm start seen / unseen | ${rows.map((r) => `${r.algo} seen / unseen`).join(' | ')} |`,
    `|---|---|${rows.map(() => '---').join('|')}|`,
    ...types.map(
      (t) =>
        `| ${t} | ${pct(warm.per_type.seen[t])} / ${pct(warm.per_type.unseen[t] ?? NaN)} | ${rows.map((r) => `${pct(r.perType[t]?.seen ?? NaN)} / ${pct(r.perType[t]?.unseen ?? NaN)}`).join(' | ')} |`,
    ),
  ].join('\n');
}

/** Per arm, the skill, Delta and gate figures and the means of the update metrics (update_means.ts). */
export function diagnosticsTable(rows: readonly AlgoRow[]): string {
  return [
    `| algorithm | valid skills % | skill fidelity | mean Delta / gate | corr(Delta, A) | OPD share of the gradient % | ${MEAN_METRIC_KEYS.map((k) => MEAN_METRICS[k]).join(' | ')} |`,
    `|---|---|---|---|---|---|${MEAN_METRIC_KEYS.map(() => '---').join('|')}|`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${pct(r.validSkill)} | ${fixed(r.fidelity, 2)} | ${Number.isFinite(r.gate) ? `${r.delta.toFixed(3)} / ${r.gate.toFixed(3)}` : 'n/a'} | ${fixed(r.corr, 3)} | ${pct(r.opdShare)} | ` +
        `${MEAN_METRIC_KEYS.map((k) => figure(r.metrics[k])).join(' | ')} |`,
    ),
  ].join('\n');
}

/**
 * The teacher checks: per arm and update, success with no skill, the game's own, another game's and the blank
 * block, the own skill's gain, taken apart into the block effect and the content effect (each with its interval
 * over seeds), and the KL to the teacher; empty when none ran.
 */
export function teacherTable(rows: ReadonlyMap<string, TeacherRow[]>): string {
  if (rows.size === 0) return '';
  return [
    '| arm | after update | seeds | no skill % | own skill % | other skill % | blank block % | own - no skill, points | block effect, points [95% CI] | content effect, points [95% CI] | KL to the teacher |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...[...rows].flatMap(([arm, rs]) =>
      rs.map(
        (r) =>
          `| ${arm} | ${r.update} | ${r.seeds} | ${pct(r.no_skill)} | ${pct(r.own_skill)} | ${pct(r.other_skill)} | ${pct(r.blank_skill)} | ` +
          `${points(r.own_skill - r.no_skill)} | ${differenceCell(r.block)} | ${differenceCell(r.content)} | ${r.kl === null ? 'n/a' : figure(r.kl)} |`,
      ),
    ),
  ].join('\n');
}

export function differenceTable(diffs: readonly Difference[]): string {
  return [
    '| difference | seeds | eval-seen points [95% CI] | eval-unseen points [95% CI] | eval-unseen area under the curve, points [95% CI] |',
    '|---|---|---|---|---|',
    ...diffs.map(
      (d) =>
        `| ${d.label} | ${seedsCell(d.unseen)} | ${differenceCell(d.seen)} | ${differenceCell(d.unseen)} | ${differenceCell(d.auc)} |`,
    ),
  ].join('\n');
}

/** The differences over seeds alone: each cell the difference, its interval and how many common seeds are ahead. */
export function seedOnlyTable(diffs: readonly Difference[]): string {
  const cell = (e: SeedEstimate) =>
    `${points(e.value)} [${points(e.ci[0])}, ${points(e.ci[1])}], ${e.ahead} of ${e.seeds.length} ahead`;
  return [
    '| difference | eval-seen points [95% CI over seeds] | eval-unseen points [95% CI over seeds] | area under the curve, points [95% CI over seeds] |',
    '|---|---|---|---|',
    ...diffs.map(
      (d) => `| ${d.label} | ${cell(d.seedOnly.seen)} | ${cell(d.seedOnly.unseen)} | ${cell(d.seedOnly.auc)} |`,
    ),
  ].join('\n');
}

const score = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(3)}` : 'n/a');
const scoreCell = (e: Estimate) => `${score(e.value)} [${score(e.ci[0])}, ${score(e.ci[1])}]`;
const scoreDifferenceCell = (e: Estimate) => `${signed(e.value)} [${signed(e.ci[0])}, ${signed(e.ci[1])}]`;

/** The score per arm, in [0, 1], with its intervals. */
export function scoreTable(s: ScoreFigures): string {
  return [
    '| algorithm | seeds | eval-seen score [95% CI] | eval-unseen score [95% CI] | eval-unseen area under the score curve [95% CI] |',
    '|---|---|---|---|---|',
    `| warm start | - | ${scoreCell(s.warm.seen)} | ${scoreCell(s.warm.unseen)} | ${scoreCell(s.warm.unseen)} |`,
    ...s.rows.map(
      (r) =>
        `| ${r.algo} | ${r.seeds} | ${scoreCell(r.estimates.seen)} | ${scoreCell(r.estimates.unseen)} | ${scoreCell(r.estimates.auc)} |`,
    ),
  ].join('\n');
}

export function scoreDifferenceTable(s: ScoreFigures): string {
  return [
    '| difference | seeds | eval-seen score [95% CI] | eval-unseen score [95% CI] | area under the score curve [95% CI] |',
    '|---|---|---|---|---|',
    ...s.differences.map(
      (d) =>
        `| ${d.label} | ${seedsCell(d.estimates.unseen)} | ${scoreDifferenceCell(d.estimates.seen)} | ${scoreDifferenceCell(d.estimates.unseen)} | ${scoreDifferenceCell(d.estimates.auc)} |`,
    ),
  ].join('\n');
}

export function scoreSeedOnlyTable(s: ScoreFigures): string {
  const cell = (e: SeedEstimate) =>
    `${signed(e.value)} [${signed(e.ci[0])}, ${signed(e.ci[1])}], ${e.ahead} of ${e.seeds.length} ahead`;
  return [
    '| difference | eval-seen score [95% CI over seeds] | eval-unseen score [95% CI over seeds] | area under the score curve [95% CI over seeds] |',
    '|---|---|---|---|',
    ...s.differences.map(
      (d) => `| ${d.label} | ${cell(d.seedOnly.seen)} | ${cell(d.seedOnly.unseen)} | ${cell(d.seedOnly.auc)} |`,
    ),
  ].join('\n');
}

/**
 * Every value a sweep ran, per arm: its success on SWEEP_GAMES, mean and per seed, its OPD / GRPO norm ratio and its
 * OPD share of the gradient.
 */
export function sweepTable(points: readonly SweepPoint[]): string {
  const ratio = (x: number | null) => (x === null || !Number.isFinite(x) ? 'n/a' : x.toFixed(2));
  return [
    `| algorithm | setting | value | ${SWEEP_GAMES} % (mean) | per seed % | OPD / GRPO norm | OPD share of the gradient % |`,
    '|---|---|---|---|---|---|---|',
    ...points.map(
      (p) =>
        `| ${p.algo} | ${p.param} | ${p.value} | ${pct(p.success)} | ${p.per_seed.map(pct).join(', ')} | ${ratio(p.grad_norm_ratio)} | ${pct(p.opd_share ?? NaN)} |`,
    ),
  ].join('\n');
}

/**
 * Each arm's learning rate, lambda (or OPID weight) and rehearsal weight, and the phrase sweep.ts gave for how each
 * was chosen.
 */
export function settingsTable(settings: ReadonlyMap<Algo, ArmSettings>): string {
  return [
    '| arm | lr | chosen by | lambda or OPID weight | chosen by | rehearsal | chosen by |',
    '|---|---|---|---|---|---|---|',
    ...[...settings].map(([a, s]) => {
      const [weight, how] = usesOpidWeight(a)
        ? [`opid weight ${s.opidWeight}`, s.how.opidWeight]
        : [distils(a) ? String(s.lambda) : '-', s.how.lambda];
      return `| ${a} | ${s.lr} | ${s.how.lr} | ${weight} | ${how} | ${s.rehearsal} | ${s.how.rehearsal} |`;
    }),
  ].join('\n');
}

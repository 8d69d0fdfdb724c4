// The diagnostics table of `bench learn`: per arm, the skill, Delta and gate figures and the means of the
// update metrics listed in MEAN_METRICS (update_means.ts), each a mean over updates, then over seeds.
import type { JobResult } from './job.ts';
import type { AlgoRow } from './stats.ts';
import { mean, pct } from './stats.ts';
import { MEAN_METRIC_KEYS, MEAN_METRICS } from './update_means.ts';

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
/** Three significant digits: the norms span orders of magnitude. */
const figure = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : 'n/a');

export function diagnosticsTable(rows: readonly AlgoRow[]): string {
  return [
    `| algorithm | valid skills % | skill fidelity | mean Delta / gate | corr(Delta, A) | ${MEAN_METRIC_KEYS.map((k) => MEAN_METRICS[k]).join(' | ')} |`,
    `|---|---|---|---|---|${MEAN_METRIC_KEYS.map(() => '---').join('|')}|`,
    ...rows.map(
      (r) =>
        `| ${r.algo} | ${pct(r.validSkill)} | ${fixed(r.fidelity, 2)} | ${Number.isFinite(r.gate) ? `${r.delta.toFixed(3)} / ${r.gate.toFixed(3)}` : 'n/a'} | ${fixed(r.corr, 3)} | ` +
        `${MEAN_METRIC_KEYS.map((k) => figure(r.metrics[k])).join(' | ')} |`,
    ),
  ].join('\n');
}

/** Per arm, per metric of MEAN_METRICS, its mean over updates and seeds (null when no run had one): for learn.json. */
export function diagnosticsJson(rows: readonly AlgoRow[]): Record<string, Record<string, number | null>> {
  return Object.fromEntries(
    rows.map((r) => [
      r.algo,
      Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, Number.isFinite(r.metrics[k]) ? r.metrics[k] : null])),
    ]),
  );
}

/**
 * The teacher gap (own skill minus no skill on validation games, the teacher check every teacherEvery updates)
 * at the first and last check, mean over each arm's seeds; empty when no run checked.
 */
export function teacherText(runs: readonly JobResult[]): string {
  const checked = runs.filter((r) => r.teacher.length > 0);
  if (checked.length === 0) return '';
  const arms = [...new Set(checked.map((r) => r.algo))];
  const gap = (rs: JobResult[], pick: (checks: JobResult['teacher']) => JobResult['teacher'][number]) => {
    const points = rs.map((r) => pick(r.teacher));
    const value = mean(points.map(([, no, own]) => own - no));
    return `${value >= 0 ? '+' : ''}${pct(value)} points after update ${points[0][0]}`;
  };
  const parts = arms.map((a) => {
    const rs = checked.filter((r) => r.algo === a);
    return `${a} ${gap(rs, (c) => c[0])}, ${gap(rs, (c) => c[c.length - 1])}`;
  });
  return `Teacher gap (own skill minus no skill on the validation games; mean over seeds): ${parts.join('; ')}.`;
}

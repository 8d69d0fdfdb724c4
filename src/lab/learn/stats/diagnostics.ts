// The diagnostics table of `bench learn`: per arm, the skill, Delta and gate figures and the means of the
// update metrics listed in MEAN_METRICS (update_means.ts), each a mean over updates, then over seeds.
import type { JobResult } from '../jobs/job.ts';
import type { AlgoRow } from './stats.ts';
import { mean, pct } from './stats.ts';
import { MEAN_METRIC_KEYS, MEAN_METRICS } from '../jobs/update_means.ts';
import { ofAlgo } from '../../../rl/arms.ts';

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
    const rs = checked.filter(ofAlgo(a));
    return `${a} ${gap(rs, (c) => c[0])}, ${gap(rs, (c) => c[c.length - 1])}`;
  });
  return `Teacher gap (own skill minus no skill on the validation games; mean over seeds): ${parts.join('; ')}.`;
}

/** One arm's teacher checks at one update: means over the seeds that checked there. */
interface TeacherRow {
  update: number;
  seeds: number;
  no_skill: number;
  own_skill: number;
  other_skill: number;
  /** KL from the student to its teacher on the validation states; null when no seed measured one. */
  kl: number | null;
}

/** Per arm, per update a check ran at, the means over seeds of the check's figures. */
function teacherRows(runs: readonly JobResult[]): Map<string, TeacherRow[]> {
  const out = new Map<string, TeacherRow[]>();
  for (const arm of new Set(runs.filter((r) => r.teacher.length > 0).map((r) => r.algo))) {
    const mine = runs.filter(ofAlgo(arm));
    const updates = [...new Set(mine.flatMap((r) => r.teacher.map(([u]) => u)))].sort((a, b) => a - b);
    out.set(
      arm,
      updates.map((update) => {
        const at = mine.flatMap((r) => r.teacher.filter(([u]) => u === update));
        const kls = mine.flatMap((r) => (r.teacher_kl ?? []).filter(([u, kl]) => u === update && kl !== null));
        return {
          update,
          seeds: at.length,
          no_skill: mean(at.map((c) => c[1])),
          own_skill: mean(at.map((c) => c[2])),
          other_skill: mean(at.map((c) => c[3])),
          kl: kls.length ? mean(kls.map(([, kl]) => kl!)) : null,
        };
      }),
    );
  }
  return out;
}

/**
 * The teacher checks as a table: per arm and update, success with no skill, the game's own and another game's
 * (the policy writing them as its run does), the own skill's gain and the KL to the teacher; empty when none ran.
 */
export function teacherTable(runs: readonly JobResult[]): string {
  const rows = teacherRows(runs);
  if (rows.size === 0) return '';
  const gain = (r: TeacherRow) => {
    const d = 100 * (r.own_skill - r.no_skill);
    return `${d >= 0 ? '+' : ''}${d.toFixed(1)}`;
  };
  return [
    '| arm | after update | seeds | no skill % | own skill % | other skill % | own - no skill, points | KL to the teacher |',
    '|---|---|---|---|---|---|---|---|',
    ...[...rows].flatMap(([arm, rs]) =>
      rs.map(
        (r) =>
          `| ${arm} | ${r.update} | ${r.seeds} | ${pct(r.no_skill)} | ${pct(r.own_skill)} | ${pct(r.other_skill)} | ${gain(r)} | ${r.kl === null ? 'n/a' : figure(r.kl)} |`,
      ),
    ),
  ].join('\n');
}

/** The teacher checks as learn.json holds them: per arm, one entry per update a check ran at. */
export function teacherJson(runs: readonly JobResult[]): Record<string, TeacherRow[]> {
  return Object.fromEntries(teacherRows(runs));
}

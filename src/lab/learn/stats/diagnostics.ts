// The diagnostics of `bench learn`: per arm, the means of the update metrics listed in MEAN_METRICS
// (update_means.ts), each a mean over updates, then over seeds, and the teacher checks' figures per arm and
// update. learn.md's tables and sentences of them are in report/learn_tables.ts and learn_prose.ts.
import type { JobResult } from '../jobs/job.ts';
import type { AlgoRow } from './stats.ts';
import { mean } from './stats.ts';
import { MEAN_METRIC_KEYS } from '../jobs/update_means.ts';
import { ofAlgo } from '../../../rl/arms.ts';

/** Per arm, per metric of MEAN_METRICS, its mean over updates and seeds (null when no run had one): for learn.json. */
export function diagnosticsJson(rows: readonly AlgoRow[]): Record<string, Record<string, number | null>> {
  return Object.fromEntries(
    rows.map((r) => [
      r.algo,
      Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, Number.isFinite(r.metrics[k]) ? r.metrics[k] : null])),
    ]),
  );
}

/** One arm's teacher gap (own skill minus no skill on the validation games) at a check: its update and value. */
export interface TeacherGap {
  update: number;
  /** Mean over the arm's seeds of each seed's gap at its check. */
  value: number;
}

/**
 * Per arm whose runs checked the teacher (every teacherEvery updates), the gap at the first and at the last
 * check of each seed, mean over the seeds; the update named is the first seed's.
 */
export function teacherGaps(runs: readonly JobResult[]): { arm: string; first: TeacherGap; last: TeacherGap }[] {
  const checked = runs.filter((r) => r.teacher.length > 0);
  const arms = [...new Set(checked.map((r) => r.algo))];
  const gap = (rs: JobResult[], pick: (checks: JobResult['teacher']) => JobResult['teacher'][number]) => {
    const points = rs.map((r) => pick(r.teacher));
    return { update: points[0][0], value: mean(points.map(([, no, own]) => own - no)) };
  };
  return arms.map((arm) => {
    const rs = checked.filter(ofAlgo(arm));
    return { arm, first: gap(rs, (c) => c[0]), last: gap(rs, (c) => c[c.length - 1]) };
  });
}

/** One arm's teacher checks at one update: means over the seeds that checked there. */
export interface TeacherRow {
  update: number;
  seeds: number;
  no_skill: number;
  own_skill: number;
  other_skill: number;
  /** KL from the student to its teacher on the validation states; null when no seed measured one. */
  kl: number | null;
}

/** Per arm, per update a check ran at, the means over seeds of the check's figures. */
export function teacherRows(runs: readonly JobResult[]): Map<string, TeacherRow[]> {
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

/** The teacher checks as learn.json holds them: per arm, one entry per update a check ran at. */
export function teacherJson(runs: readonly JobResult[]): Record<string, TeacherRow[]> {
  return Object.fromEntries(teacherRows(runs));
}

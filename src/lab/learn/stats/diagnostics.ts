// The diagnostics of `bench learn`: per arm, the means of the update metrics listed in MEAN_METRICS
// (update_means.ts), each a mean over updates, then over seeds, and the teacher checks' figures per arm and
// update, the check's lead taken apart (rl/teacher_check.ts): the block effect (another game's skill against
// none) and the content effect (its own against another game's), each paired by seed with an interval over
// seeds. learn.md's tables and sentences of them are in report/learn_tables.ts and learn_prose.ts.
import { hashString, Rng } from '../../../common/rng.ts';
import type { JobResult } from '../jobs/job.ts';
import type { AlgoRow } from './stats.ts';
import { mean, seedBootstrap } from './stats.ts';
import { MEAN_METRIC_KEYS } from '../jobs/update_means.ts';
import { ofAlgo } from '../../../rl/arms.ts';

/**
 * Per arm, per metric of MEAN_METRICS, its mean over updates and seeds, and opdShare, the OPD share of the
 * gradient from the mean norms (AlgoRow.opdShare); null when no run had one: for learn.json.
 */
export function diagnosticsJson(rows: readonly AlgoRow[]): Record<string, Record<string, number | null>> {
  const orNull = (x: number) => (Number.isFinite(x) ? x : null);
  return Object.fromEntries(
    rows.map((r) => [
      r.algo,
      {
        ...Object.fromEntries(MEAN_METRIC_KEYS.map((k) => [k, orNull(r.metrics[k])])),
        opdShare: orNull(r.opdShare),
      },
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

/** An effect of the teacher check, mean over seeds of each seed's difference, with its interval over seeds. */
interface TeacherEffect {
  value: number;
  /** 95% percentile interval of a bootstrap over the seeds (a single seed's: its value). */
  ci: [number, number];
}

/** One arm's teacher checks at one update: means over the seeds that checked there. */
export interface TeacherRow {
  update: number;
  seeds: number;
  no_skill: number;
  own_skill: number;
  other_skill: number;
  /** Success with the blank block as long as the own skill. */
  blank_skill: number;
  /** Another game's skill against none: what a block of advice does, whatever it says. */
  block: TeacherEffect;
  /** The game's own skill against another game's: what the facts of the advice add. */
  content: TeacherEffect;
  /** KL from the student to its teacher on the validation states; null when no seed measured one. */
  kl: number | null;
}

/** The difference b - a of two figures of each seed's check, paired by seed, with its interval over seeds. */
function effect(at: readonly JobResult['teacher'][number][], seeds: readonly number[], a: number, b: number, rng: Rng) {
  const of = (k: number) => new Map(at.map((c, i) => [seeds[i], [c[k] as number]]));
  const e = seedBootstrap(of(b), of(a), rng);
  return { value: e.value, ci: e.ci };
}

/**
 * Per arm, per update a check ran at, the means over seeds of the check's figures and its two effects. The
 * intervals draw from a stream of their own, so that the report's other intervals stay as they are.
 */
export function teacherRows(runs: readonly JobResult[]): Map<string, TeacherRow[]> {
  const rng = new Rng(hashString('bench/learn/teacher'));
  const out = new Map<string, TeacherRow[]>();
  for (const arm of new Set(runs.filter((r) => r.teacher.length > 0).map((r) => r.algo))) {
    const mine = runs.filter(ofAlgo(arm));
    const updates = [...new Set(mine.flatMap((r) => r.teacher.map(([u]) => u)))].sort((a, b) => a - b);
    out.set(
      arm,
      updates.map((update) => {
        const checked = mine.filter((r) => r.teacher.some(([u]) => u === update));
        const at = checked.map((r) => r.teacher.find(([u]) => u === update)!);
        const seeds = checked.map((r) => r.seed);
        const kls = mine.flatMap((r) => (r.teacher_kl ?? []).filter(([u, kl]) => u === update && kl !== null));
        return {
          update,
          seeds: at.length,
          no_skill: mean(at.map((c) => c[1])),
          own_skill: mean(at.map((c) => c[2])),
          other_skill: mean(at.map((c) => c[3])),
          blank_skill: mean(at.map((c) => c[4])),
          block: effect(at, seeds, 1, 3, rng),
          content: effect(at, seeds, 3, 2, rng),
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

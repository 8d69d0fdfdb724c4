// The page's one-sentence finding: what the recorded benchmark of the page's world says about its distilling arm
// against GRPO, written from the record's own paired difference on eval-unseen and its 95% interval, so the
// sentence changes when the record does. The arm is the record's (a benchmark may pick it on validation: seed,
// seed-exact or another), named as the page's words name arms (setting_labels.ts armName); so is the world. It is
// the recorded arms' finding: where both arms went from the warm start says so beside the live run drawn over them.
import type { RecordedDifference, RecordedRun } from '../rl/recorded_run.ts';
import { recordWorld } from '../rl/recorded_run_check.ts';
import { theWorld } from '../worlds/facts.ts';
import { armName } from './setting_labels.ts';
import type { EnvironmentName } from '../worlds/names.ts';
import { isBaseline } from '../rl/arms.ts';

type Verdict = 'ahead' | 'behind' | 'not ahead' | 'not clearly ahead';

export interface Finding {
  /** The arm compared with GRPO, as the record names it. */
  arm: string;
  /** The world the benchmark played. */
  world: EnvironmentName;
  seeds: number;
  preset: string;
  /** Paired difference arm − GRPO on eval-unseen, in fractions, with its 95% interval. */
  value: number;
  ci: [number, number];
  verdict: Verdict;
  text: string;
}

/** Percentage points with one decimal and a sign, as typeset (a true minus sign). */
export function signedPoints(x: number): string {
  const s = (100 * x).toFixed(1);
  const negative = s.startsWith('-') && Number(s) !== 0;
  return negative ? `−${s.slice(1)}` : `+${s.replace(/^-/, '')}`;
}

function verdictOf(value: number, [lo, hi]: [number, number]): Verdict {
  if (lo > 0) return 'ahead';
  if (hi < 0) return 'behind';
  return value > 0 ? 'not clearly ahead' : 'not ahead';
}

/**
 * The comparison the finding is about: the record's headline arm against GRPO (the benchmark's question, its arm
 * picked on validation); in a record that names none, the first main arm that is not GRPO; without either, the
 * first difference against GRPO; null when the record holds none.
 */
function headlineDifference(run: RecordedRun): RecordedDifference | null {
  const againstGrpo = run.differences.filter((d) => isBaseline(d.b));
  const named = againstGrpo.find((d) => d.a === run.headline);
  if (named) return named;
  const mainArms = new Set(run.arms.filter((a) => a.role === 'main' && !isBaseline(a.algo)).map((a) => a.algo));
  return againstGrpo.find((d) => mainArms.has(d.a)) ?? againstGrpo[0] ?? null;
}

/**
 * The record with only the arms its question is about, GRPO and the distilling arm it compares (the headline arm
 * where the record names one, else every main arm): the controls and any other main arm stay in the curves below.
 */
export function headlineArms(run: RecordedRun): RecordedRun {
  const asked = (algo: string) => run.headline === undefined || isBaseline(algo) || run.headline === algo;
  return { ...run, arms: run.arms.filter((a) => a.role === 'main' && asked(a.algo)) };
}

/**
 * Where both compared arms ended against the warm start, in the record's words; empty when the record holds no such
 * difference for either. It tells the recorded arms' own course apart from the live run's drawn over them.
 */
function fromWarmStart(run: RecordedRun, arm: string): string {
  const moved = (algo: string) => run.differences.find((d) => d.a === algo && d.b === 'warm start')?.unseen.value;
  const grpo = moved('grpo');
  const other = moved(arm);
  if (grpo === undefined || other === undefined) return '';
  return `; GRPO moved ${signedPoints(grpo)} and ${armName(arm)} ${signedPoints(other)} points from the warm start`;
}

export function findingOf(run: RecordedRun): Finding | null {
  const d = headlineDifference(run);
  if (!d) return null;
  const { value, ci } = d.unseen;
  const verdict = verdictOf(value, ci);
  const seeds = d.seeds.length;
  const world = recordWorld(run);
  const text =
    `In ${theWorld(world)}’s recorded benchmark (${seeds} seed${seeds === 1 ? '' : 's'}, ${run.preset}), ${armName(d.a)} − GRPO on eval-unseen is ` +
    `${signedPoints(value)} points [${signedPoints(ci[0])}, ${signedPoints(ci[1])}]: ${verdict === 'behind' ? 'behind GRPO' : verdict} at this scale` +
    `${fromWarmStart(run, d.a)}.`;
  return { arm: d.a, world, seeds, preset: run.preset, value, ci: [ci[0], ci[1]], verdict, text };
}

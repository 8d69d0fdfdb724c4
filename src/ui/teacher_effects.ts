// The recorded run's teacher checks as the teacher panel draws them (TeacherEffects.tsx): the own skill's lead
// taken apart into the block effect (another game's skill against none: what a block of advice does, whatever it
// says) and the content effect (the game's own skill against another game's: what its facts add), each over
// updates as a small chart with a line per arm that checked the teacher. Both charts share one scale of updates
// and one of points, so that the two effects read against each other.
import type { Algo } from '../rl/arms.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';

export const EFFECT_KINDS = ['block', 'content'] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

/** One arm's effect after each update its runs were checked at, mean over seeds (fractions). */
interface EffectLine {
  algo: Algo;
  points: [update: number, value: number][];
}

export interface TeacherEffectLines {
  /** The first and the last update checked, over every arm. */
  updates: [number, number];
  /** The y range: every value and 0 within it. */
  range: [number, number];
  lines: Record<EffectKind, EffectLine[]>;
}

/** The effects of the arms of `run` that kept teacher checks; null when none did (an older record, or no checks). */
export function teacherEffectLines(run: RecordedRun): TeacherEffectLines | null {
  const arms = run.arms.filter((a) => a.teacher?.length);
  if (arms.length === 0) return null;
  // A bootstrap over no common seeds gives no value (NaN): that check is left out of the line.
  const line = (kind: EffectKind) =>
    arms.map((a) => ({
      algo: a.algo,
      points: a
        .teacher!.filter((c) => Number.isFinite(c[kind].value))
        .map((c): [number, number] => [c.update, c[kind].value]),
    }));
  const lines = { block: line('block'), content: line('content') };
  const points = [...lines.block, ...lines.content].flatMap((l) => l.points);
  const updates = arms.flatMap((a) => a.teacher!.map((c) => c.update));
  const values = [0, ...points.map(([, v]) => v)];
  return {
    updates: [Math.min(...updates), Math.max(...updates)],
    range: [Math.min(...values), Math.max(...values)],
    lines,
  };
}

/**
 * Where each point of a line lies in a box of `width` x `height` pixels: updates left to right, values bottom to
 * top; a single update or a flat range is drawn at the box's middle.
 */
export function linePoints(
  points: readonly [number, number][],
  updates: readonly [number, number],
  range: readonly [number, number],
  width: number,
  height: number,
): [x: number, y: number][] {
  const at = (v: number, [lo, hi]: readonly [number, number], size: number) =>
    hi > lo ? ((v - lo) / (hi - lo)) * size : size / 2;
  return points.map(([u, v]) => [at(u, updates, width), height - at(v, range, height)]);
}

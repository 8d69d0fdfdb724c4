// The recorded run's teacher checks as the teacher panel draws them: a line per checked arm for each effect, on
// shared scales of updates and points that hold 0, and nothing for a record without checks (every shipped one).
import { describe, expect, it } from 'vitest';
import type { RecordedArm, RecordedRun, RecordedTeacherCheck } from '../rl/recorded_run.ts';
import { linePoints, teacherEffectLines } from './teacher_effects.ts';

const check = (update: number, block: number, content: number): RecordedTeacherCheck => ({
  update,
  seeds: 2,
  none: 0.25,
  own: 0.25 + block + content,
  other: 0.25 + block,
  blank: 0.25,
  block: { value: block, ci: [block - 0.1, block + 0.1] },
  content: { value: content, ci: [content - 0.1, content + 0.1] },
});

const arm = (algo: RecordedArm['algo'], teacher?: RecordedTeacherCheck[]): RecordedArm => ({
  algo,
  role: 'main',
  lr: 5e-4,
  final: { seen: { value: 0.5, ci: [0.4, 0.6] }, unseen: { value: 0.5, ci: [0.4, 0.6] } },
  seeds: [],
  ...(teacher ? { teacher } : {}),
});

const run = (arms: RecordedArm[]) => ({ arms }) as RecordedRun;

describe('the recorded teacher checks drawn in the teacher panel', () => {
  it('gives each checked arm a line per effect over its updates, on scales that hold every value and 0', () => {
    const effects = teacherEffectLines(
      run([
        arm('grpo'),
        arm('seed', [check(0, 0.05, 0.2), check(48, 0.1, 0.3)]),
        arm('seed-exact', [
          check(0, 0.05, 0.2),
          check(24, -0.05, 0.25),
          { ...check(96, 0, 0), content: { value: NaN, ci: [NaN, NaN] } },
        ]),
      ]),
    );
    expect(effects).not.toBeNull();
    expect(effects!.updates).toEqual([0, 96]);
    expect(effects!.range).toEqual([-0.05, 0.3]);
    expect(effects!.lines.block).toEqual([
      {
        algo: 'seed',
        points: [
          [0, 0.05],
          [48, 0.1],
        ],
      },
      {
        algo: 'seed-exact',
        points: [
          [0, 0.05],
          [24, -0.05],
          [96, 0],
        ],
      },
    ]);
    // A content effect without a value (no seeds in common) is left out of its line.
    expect(effects!.lines.content.map((l) => l.points.map(([u]) => u))).toEqual([
      [0, 48],
      [0, 24],
    ]);
  });

  it('draws nothing for a record whose arms kept no teacher checks', () => {
    expect(teacherEffectLines(run([arm('grpo'), arm('seed')]))).toBeNull();
    expect(teacherEffectLines(run([arm('seed', [])]))).toBeNull();
  });

  it('places updates left to right and values bottom to top; one update or a flat range at the middle', () => {
    expect(
      linePoints(
        [
          [0, -0.1],
          [50, 0.1],
          [100, 0.3],
        ],
        [0, 100],
        [-0.1, 0.3],
        200,
        40,
      ),
    ).toEqual([
      [0, 40],
      [100, 20],
      [200, 0],
    ]);
    expect(linePoints([[24, 0]], [24, 24], [0, 0], 200, 40)).toEqual([[100, 20]]);
  });
});

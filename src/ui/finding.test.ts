// The finding sentence is written from the record the page ships: its numbers are the record's paired
// difference and interval, read back from the sentence itself.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecordedRun } from '../rl/recorded_run_check.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';
import { findingOf, signedPoints } from './finding.ts';

function shippedRecord(): RecordedRun {
  const index = JSON.parse(readFileSync('public/runs/index.json', 'utf8')) as {
    runs: { file: string; created: string }[];
  };
  const newest = [...index.runs].sort((a, b) => a.created.localeCompare(b.created)).pop()!;
  return parseRecordedRun(readFileSync(`public/runs/${newest.file}`, 'utf8'));
}

/** The numbers a sentence states, in order, as percentage points. */
function numbersIn(text: string): number[] {
  return [...text.replaceAll('−', '-').matchAll(/[-+]?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

describe('findingOf', () => {
  it("states the shipped record's main arm − GRPO on eval-unseen with its interval and seed count", () => {
    const run = shippedRecord();
    const finding = findingOf(run)!;
    const diff = run.differences.find((d) => d.a === finding.arm && d.b === 'grpo')!;
    expect(run.arms.find((a) => a.algo === finding.arm)?.role).toBe('main');
    const [seeds, value, lo, hi] = numbersIn(finding.text);
    expect(seeds).toBe(diff.seeds.length);
    expect(value).toBeCloseTo(100 * diff.unseen.value, 1);
    expect(lo).toBeCloseTo(100 * diff.unseen.ci[0], 1);
    expect(hi).toBeCloseTo(100 * diff.unseen.ci[1], 1);
    expect(finding.text).toContain(run.preset);
    const straddles = diff.unseen.ci[0] <= 0 && diff.unseen.ci[1] >= 0;
    if (straddles) expect(finding.text).toMatch(/not (clearly )?ahead at this scale/);
  });

  it('says ahead or behind only when the interval leaves out zero', () => {
    const run = shippedRecord();
    const shifted = (value: number, ci: [number, number]): RecordedRun => ({
      ...run,
      differences: run.differences.map((d) => (d.b === 'grpo' ? { ...d, unseen: { value, ci } } : d)),
    });
    expect(findingOf(shifted(0.05, [0.01, 0.09]))!.verdict).toBe('ahead');
    expect(findingOf(shifted(-0.05, [-0.09, -0.01]))!.text).toContain('behind GRPO');
    expect(findingOf(shifted(0.02, [-0.01, 0.05]))!.verdict).toBe('not clearly ahead');
    expect(findingOf({ ...run, differences: [] })).toBeNull();
  });

  it('writes points with a sign and a true minus', () => {
    expect(signedPoints(-0.0373)).toBe('−3.7');
    expect(signedPoints(0.0065)).toBe('+0.7');
    expect(signedPoints(-0.0001)).toBe('+0.0');
  });
});

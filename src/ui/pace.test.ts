import { describe, expect, it } from 'vitest';
import type { UpdateMetrics } from '../worker/protocol.ts';
import { metrics } from './curves_testing.ts';
import { aboutDuration, updatesPerSecond, waitingText } from './pace.ts';

/** A point of update `update` that waited `updateMs`, `evalMs` of it evaluating. */
function timed(update: number, updateMs: number | null, evalMs: number | null = null): UpdateMetrics {
  return { ...metrics('seed', update, evalMs === null ? null : 0.5), updateMs, evalMs };
}

describe('the pace the page shows', () => {
  it('is the updates per second over the last timed updates, evaluations included, the warm start left out', () => {
    expect(updatesPerSecond([])).toBeNull();
    expect(updatesPerSecond([timed(0, null, 900)])).toBeNull();
    // A stepped update has no wait of its own: it is left out.
    expect(updatesPerSecond([timed(0, null, 900), timed(1, null), timed(2, 500), timed(3, 1500, 1000)])).toBeCloseTo(
      1,
      12,
    );
    const long = Array.from({ length: 30 }, (_, k) => timed(k + 1, k < 20 ? 10_000 : 250));
    expect(updatesPerSecond(long)).toBeCloseTo(4, 12);
    expect(updatesPerSecond(long, 20)).toBeCloseTo(20 / (10 * 10 + 10 * 0.25), 12);
  });

  it('says what the run waits for: the evaluation and its games, and while training its pace', () => {
    expect(waitingText('', false, 2)).toBe('');
    expect(waitingText('evaluating the warm start: 57 of 134 games', false, null)).toBe(
      'Evaluating the warm start: 57 of 134 games…',
    );
    expect(waitingText('', true, null)).toBe('Training: timing the first update…');
    expect(waitingText('evaluating seed after update 10: 3 of 8 games', true, 1.5)).toBe(
      'Evaluating seed after update 10: 3 of 8 games; training at 1.50 updates/s (the last updates, their evaluations included)…',
    );
    expect(waitingText('', true, 12.34)).toBe(
      'Training at 12.3 updates/s (the last updates, their evaluations included)…',
    );
  });

  it('puts a wait in words', () => {
    expect(aboutDuration(0.2)).toBe('about 1 s');
    expect(aboutDuration(42.4)).toBe('about 42 s');
    expect(aboutDuration(120)).toBe('about 2 min');
    expect(aboutDuration(130)).toBe('about 2 min 10 s');
    expect(aboutDuration(3 * 3600 + 5 * 60 + 20)).toBe('about 3 h 5 min');
  });
});

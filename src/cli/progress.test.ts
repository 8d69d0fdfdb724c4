// Progress lines and bars: the count, the time elapsed and the time left, on a terminal and off one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDuration, progressBar, progressLine, secondsLeft } from './progress.ts';

afterEach(() => vi.restoreAllMocks());

/** A stream that keeps what is written; `isTTY` says whether it passes for a terminal. */
function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    chunks,
    isTTY,
    columns: 200,
    write: (chunk: string) => {
      chunks.push(String(chunk));
      return true;
    },
  };
}

describe('progress', () => {
  it('durations read as people write them, "?" when unknown', () => {
    expect([0, 7.4, 59.6, 65, 3599, 3725].map(formatDuration)).toEqual([
      '0s',
      '7s',
      '1m00s',
      '1m05s',
      '59m59s',
      '1h02m',
    ]);
    expect([NaN, Infinity, -1].map(formatDuration)).toEqual(['?', '?', '?']);
  });

  it('the time left is the rate since the bar started, applied to what is left', () => {
    expect(secondsLeft(3, 12, 0, 30)).toBe(90);
    // A resumed run: 2 updates were done before; 1 update in 30 s leaves 9 at 30 s each.
    expect(secondsLeft(3, 12, 2, 30)).toBe(270);
    expect(secondsLeft(2, 12, 2, 30)).toBeNaN();
  });

  it('a plain line holds the count, the elapsed time and the ETA, then "done"', () => {
    expect(progressLine('seed micro seed 3', 3, 12, 41, 123, 'update', 'success 0.25 loss 1.234')).toBe(
      'seed micro seed 3: update 3/12, 41s elapsed, ETA 2m03s, success 0.25 loss 1.234',
    );
    expect(progressLine('eval', 0, 140, 0, NaN)).toBe('eval: 0/140, 0s elapsed, ETA ?');
    expect(progressLine('eval', 140, 140, 75, 0)).toBe('eval: 140/140, 1m15s elapsed, done');
  });

  it('off a terminal: a line at the start and at every tenth, with elapsed time and ETA', () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const out = stream(false);
    const bar = progressBar('train', 20, { unit: 'update', stream: out });
    for (let v = 1; v <= 20; v++) {
      now += 2000;
      bar.update(v, { info: `at ${v}` });
    }
    bar.stop();
    expect(out.chunks).toHaveLength(11);
    expect(out.chunks[0]).toBe('train: update 0/20, 0s elapsed, ETA ?\n');
    expect(out.chunks[5]).toBe('train: update 10/20, 20s elapsed, ETA 20s, at 10\n');
    expect(out.chunks[10]).toBe('train: update 20/20, 40s elapsed, done, at 20\n');
  });

  it('on a terminal: the cli-progress bar shows the count, the elapsed time and the ETA', () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const out = stream(true);
    const bar = progressBar('train', 10, { unit: 'update', start: 2, stream: out });
    now += 8000;
    bar.update(6, { info: 'success 0.50' });
    bar.stop();
    const text = out.chunks.join('');
    // 4 updates in 8 s from the start value 2: 4 left take 8 s.
    expect(text).toContain('train [');
    expect(text).toContain('] update 6/10, 8s elapsed, ETA 8s  success 0.50');
  });
});

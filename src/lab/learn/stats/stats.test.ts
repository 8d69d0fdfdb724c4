import { describe, expect, it } from 'vitest';
import { Rng } from '../../../common/rng.ts';
import { efficiencyText } from '../report/learn_prose.ts';
import { areaByGame, clusterBootstrap, dataEfficiency, seedBootstrap, type GameScores } from './stats.ts';

/** Games 0..n-1 in layouts of `size` consecutive games. */
const layouts = (n: number, size: number) =>
  Array.from({ length: Math.ceil(n / size) }, (_, c) =>
    Array.from({ length: Math.min(size, n - c * size) }, (_, k) => c * size + k),
  );
const seeded = (...runs: GameScores[]) => new Map(runs.map((w, i) => [i + 1, w]));

describe('bench learn: cluster bootstrap over seeds and layouts', () => {
  it("is a point for an arm whose every game agrees, and brackets an arm's mean", () => {
    const all = (v: number, n: number) => new Array<number>(n).fill(v);
    expect(clusterBootstrap(seeded(all(1, 6), all(1, 6)), null, layouts(6, 2), new Rng(1), 200)).toEqual({
      value: 1,
      ci: [1, 1],
      seeds: [1, 2],
    });
    const half = Array.from({ length: 80 }, (_, g) => (Math.floor(g / 4) % 2 === 0 ? 1 : 0));
    const { value, ci } = clusterBootstrap(seeded(half, half, half), null, layouts(80, 4), new Rng(2), 1000);
    expect(value).toBe(0.5);
    expect(ci[0]).toBeLessThan(0.5);
    expect(ci[1]).toBeGreaterThan(0.5);
  });

  it('gives the point 0 for identical arms, and an interval around 0 for two draws of one arm', () => {
    const games = Array.from({ length: 60 }, (_, g) => ((g * 7) % 5) / 4);
    expect(clusterBootstrap(seeded(games, games), seeded(games, games), layouts(60, 3), new Rng(1), 500)).toEqual({
      value: 0,
      ci: [0, 0],
      seeds: [1, 2],
    });
    const rng = new Rng(9);
    const draw = () => Array.from({ length: 120 }, () => (rng.float() < 0.4 ? 1 : 0));
    const { ci } = clusterBootstrap(
      seeded(draw(), draw(), draw()),
      seeded(draw(), draw(), draw()),
      layouts(120, 4),
      new Rng(3),
      2000,
    );
    expect(ci[0]).toBeLessThan(0);
    expect(ci[1]).toBeGreaterThan(0);
  });

  it('gives exactly the shift when one arm beats the other by a constant on every game of every seed', () => {
    // Seeds differ a lot in level (seed 2 is much worse), layouts in difficulty: both cancel in a paired difference.
    const b1 = Array.from({ length: 24 }, (_, g) => (g % 4) / 4);
    const b2 = b1.map((x) => x / 2);
    const shift = (w: number[]) => w.map((x) => x + 0.25);
    expect(clusterBootstrap(seeded(shift(b1), shift(b2)), seeded(b1, b2), layouts(24, 4), new Rng(4), 2000)).toEqual({
      value: 0.25,
      ci: [0.25, 0.25],
      seeds: [1, 2],
    });
    // Against one fixed list (the warm start) the shift is exact too.
    expect(clusterBootstrap(seeded(shift(b1)), b1, layouts(24, 4), new Rng(4), 500).ci).toEqual([0.25, 0.25]);
  });

  it('pairs by seed: only the seeds both arms ran count', () => {
    const w = [1, 0, 1, 0];
    const a = new Map([
      [1, w],
      [2, w],
      [3, w],
    ]);
    const b = new Map([
      [2, w],
      [3, w],
      [4, w],
      [5, w],
    ]);
    expect(clusterBootstrap(a, b, layouts(4, 1), new Rng(1), 10).seeds).toEqual([2, 3]);
  });

  it('resamples layouts, not games: games of one room that agree widen the interval', () => {
    // Each layout is all won or all lost: 30 layouts of 4 games carry the information of 30 games, not 120.
    const games = Array.from({ length: 120 }, (_, g) => (Math.floor(g / 4) % 2 === 0 ? 1 : 0));
    const width = (clusters: number[][]) => {
      const { ci } = clusterBootstrap(seeded(games), null, clusters, new Rng(5), 2000);
      return ci[1] - ci[0];
    };
    expect(width(layouts(120, 4))).toBeGreaterThan(1.6 * width(layouts(120, 1)));
  });

  it('refuses clusters that do not hold every game once, and runs of different games', () => {
    expect(() => clusterBootstrap(seeded([1, 0, 1]), null, [[0, 1]], new Rng(1), 10)).toThrow(/every game once/);
    expect(() =>
      clusterBootstrap(
        seeded([1, 0, 1]),
        null,
        [
          [0, 1],
          [1, 2],
        ],
        new Rng(1),
        10,
      ),
    ).toThrow(/every game once/);
    expect(() => clusterBootstrap(seeded([1, 0, 1]), seeded([1, 0]), layouts(3, 1), new Rng(1), 10)).toThrow(
      /same games/,
    );
    expect(() => clusterBootstrap(seeded([1, 0, 1]), [1, 0], layouts(3, 1), new Rng(1), 10)).toThrow(/same games/);
  });
});

describe('bench learn: data efficiency', () => {
  const grpo: [number, number][] = [
    [0, 0.2],
    [100, 0.22],
    [200, 0.25],
    [300, 0.3],
  ];
  it("counts the episodes from which SEED stays at or above GRPO's final success", () => {
    const seed: [number, number][] = [
      [0, 0.2],
      [100, 0.31],
      [200, 0.28],
      [300, 0.3],
    ];
    expect(efficiencyText(dataEfficiency(grpo, seed, 0.2), 'SEED', 300, ['grpo', 'seed'])).toBe(
      "SEED reaches GRPO's final eval-unseen success (30.0%) after 300 of 300 episodes (100.0%) and stays there (its mean curve first touched it after 100).",
    );
    const early: [number, number][] = [
      [0, 0.2],
      [100, 0.25],
      [200, 0.3],
      [300, 0.35],
    ];
    expect(efficiencyText(dataEfficiency(grpo, early, 0.2), 'SEED', 300, ['grpo', 'seed'])).toBe(
      "SEED reaches GRPO's final eval-unseen success (30.0%) after 200 of 300 episodes (66.7%) and stays there.",
    );
  });
  it('does not count a touch that does not last', () => {
    const seed: [number, number][] = [
      [0, 0.2],
      [100, 0.31],
      [200, 0.26],
      [300, 0.27],
    ];
    expect(efficiencyText(dataEfficiency(grpo, seed, 0.2), 'SEED', 300, ['grpo', 'seed'])).toBe(
      "SEED does not reach GRPO's final eval-unseen success (30.0%) to stay: its mean curve touches it after 100 of 300 episodes (33.3%) but ends at 27.0%.",
    );
    expect(
      efficiencyText(
        dataEfficiency(
          grpo,
          [
            [0, 0.2],
            [300, 0.1],
          ],
          0.2,
        ),
        'SEED',
        300,
        ['grpo', 'seed'],
      ),
    ).toMatch(/does not reach .* within 300 episodes/);
  });
  it('gives no figure when GRPO did not beat the warm start, or one side is missing', () => {
    expect(efficiencyText(dataEfficiency(grpo, grpo, 0.3), 'SEED', 300, ['grpo', 'seed'])).toMatch(
      /no data-efficiency figure/,
    );
    expect(efficiencyText(dataEfficiency([], grpo, 0.2), 'SEED', 300, ['seed'])).toMatch(/ran only seed/);
  });
});

describe('bench learn: area under the curve', () => {
  it('is per game the trapezoid area over the episodes it spans, uneven steps included', () => {
    // Game 0: 0 -> 1 over the first 100 episodes, then 1 for 300: (50 + 300) / 400. Game 1: flat at 0.5.
    expect(
      areaByGame(
        [
          [0, 0.25],
          [100, 0.75],
          [400, 0.75],
        ],
        [
          [0, 0.5],
          [1, 0.5],
          [1, 0.5],
        ],
      ),
    ).toEqual([350 / 400, 0.5]);
    // A run whose every game is won from the start has area 1; one that learns at the very end, half its last step.
    expect(
      areaByGame(
        [
          [0, 1],
          [10, 1],
        ],
        [
          [1, 1],
          [1, 1],
        ],
      ),
    ).toEqual([1, 1]);
    expect(
      areaByGame(
        [
          [0, 0],
          [10, 0],
          [20, 1],
        ],
        [[0], [0], [1]],
      ),
    ).toEqual([0.25]);
  });

  it('is the point itself for a curve of one point, and refuses outcomes that do not match the curve', () => {
    expect(areaByGame([[0, 0.5]], [[1, 0]])).toEqual([1, 0]);
    expect(() =>
      areaByGame(
        [
          [0, 0.5],
          [10, 0.5],
        ],
        [[1, 0]],
      ),
    ).toThrow(/one list of game scores per point/);
    expect(() =>
      areaByGame(
        [
          [0, 0.5],
          [10, 0.5],
        ],
        [[1, 0], [1]],
      ),
    ).toThrow(/same games/);
  });
});

describe('bench learn: the interval over seeds alone', () => {
  it('bootstraps the per-seed differences (hand-computed), counts the seeds ahead, pairs only common seeds', () => {
    // Per-seed differences of mean scores: seed 1 +0.5, seed 2 +0.25, seed 3 -0.25 (seed 4 has no partner).
    const a = new Map<number, GameScores>([
      [1, [1, 1, 1, 1]],
      [2, [1, 1, 0, 0]],
      [3, [0, 0, 0, 0]],
      [4, [1, 1, 1, 1]],
    ]);
    const b = new Map<number, GameScores>([
      [1, [1, 1, 0, 0]],
      [2, [1, 0, 0, 0]],
      [3, [1, 0, 0, 0]],
    ]);
    const e = seedBootstrap(a, b, new Rng(3), 4000);
    expect(e.seeds).toEqual([1, 2, 3]);
    expect(e.value).toBeCloseTo(0.5 / 3, 12);
    expect(e.ahead).toBe(2);
    // Means of three draws from {+0.5, +0.25, -0.25}: the extremes are -0.25 and +0.5, each with chance 1/27.
    expect(e.ci[0]).toBeGreaterThanOrEqual(-0.25);
    expect(e.ci[1]).toBeLessThanOrEqual(0.5);
    expect(e.ci[0]).toBeLessThan(e.value);
    expect(e.ci[1]).toBeGreaterThan(e.value);
    // Against one fixed list (the warm start), every seed counts; identical arms give the point 0.
    expect(seedBootstrap(a, [1, 0, 0, 0], new Rng(1), 100)).toMatchObject({ seeds: [1, 2, 3, 4], ahead: 3 });
    expect(seedBootstrap(b, b, new Rng(1), 100)).toEqual({ value: 0, ci: [0, 0], seeds: [1, 2, 3], ahead: 0 });
    expect(seedBootstrap(new Map(), b, new Rng(1), 100).seeds).toEqual([]);
  });
});

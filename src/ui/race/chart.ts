// The race's two charts as data for UPlotChart: both arms' eval-unseen and eval-seen success (each arm its
// algorithm's colour, each split its own dash, so every series differs from the others by dash as well as by
// colour), and the paired difference SEED − GRPO at each evaluation both arms reached, with its mean so far.
import type { Algo } from '../../rl/arms.ts';
import type { UpdateMetrics } from '../../worker/protocol.ts';
import { X_LABELS, colourOfRun, type ChartData, type ChartDef, type SeriesSpec } from '../charts.ts';
import { armName } from '../setting_labels.ts';
import { pairedEvaluations, runningMeans, trainedPairs, type EvalSplit } from './pairs.ts';

export const RACE_SUCCESS: ChartDef = {
  id: 'race-success',
  title: 'Race: success on eval-unseen and eval-seen',
  metrics: [],
  recorded: null,
  yRange: [0, 1],
  percent: true,
};

export const RACE_DIFFERENCE: ChartDef = {
  id: 'race-difference',
  title: 'Race: SEED − GRPO at each evaluation after training that both reached (percentage points)',
  metrics: [],
  recorded: null,
  yRange: [-1, 1],
  percent: true,
};

const SPLITS: readonly { key: EvalSplit; name: string }[] = [
  { key: 'evalUnseen', name: 'eval-unseen' },
  { key: 'evalSeen', name: 'eval-seen' },
];

/** Dash per arm and split: GRPO solid and dotted, the hindsight arm dashed and dash-dotted. */
const ARM_DASH: readonly [number[], number[]][] = [
  [[], [2, 3]],
  [
    [7, 4],
    [10, 3, 2, 3],
  ],
];
const DIFFERENCE_COLOUR = '#000000';

interface Column {
  xs: number[];
  at: (points: ReadonlyMap<number, number>) => (number | null)[];
}

function columns(updates: Iterable<number>): Column {
  const xs = [...new Set(updates)].sort((a, b) => a - b);
  return { xs, at: (points) => xs.map((x) => points.get(x) ?? null) };
}

function line(label: string, run: string, colour: string, dash: number[], points: boolean): SeriesSpec {
  return { label, run, source: 'live', colour, dash, width: 2, alpha: 1, points, band: null };
}

/** Both arms' evaluations, arms in race order (GRPO first). */
export function raceSuccessData(arms: readonly Algo[], curves: readonly (readonly UpdateMetrics[])[]): ChartData {
  const perSeries: { spec: SeriesSpec; points: Map<number, number> }[] = [];
  arms.forEach((algo, a) => {
    SPLITS.forEach(({ key, name }, s) => {
      const points = new Map<number, number>();
      for (const m of curves[a] ?? []) if (m[key] !== null) points.set(m.update, m[key]!);
      if (points.size > 0)
        perSeries.push({
          spec: line(`${armName(algo)} ${name}`, algo, colourOfRun(algo), ARM_DASH[a % 2][s], true),
          points,
        });
    });
  });
  const grid = columns(perSeries.flatMap((p) => [...p.points.keys()]));
  return {
    xs: grid.xs,
    xLabel: X_LABELS.update,
    series: perSeries.map((p) => p.spec),
    ys: perSeries.map((p) => grid.at(p.points)),
  };
}

/**
 * The paired differences of both splits after training began and the running mean of eval-unseen's: nothing until
 * both arms reach an evaluation after update 0, as the readout says.
 */
export function raceDifferenceData(grpo: readonly UpdateMetrics[], seed: readonly UpdateMetrics[]): ChartData {
  const unseen = trainedPairs(pairedEvaluations(grpo, seed, 'evalUnseen'));
  const seen = trainedPairs(pairedEvaluations(grpo, seed, 'evalSeen'));
  const rows = [
    {
      spec: line('eval-unseen difference', 'race', DIFFERENCE_COLOUR, [], true),
      points: new Map(unseen.map((p) => [p.update, p.difference])),
    },
    {
      spec: line('eval-unseen mean so far', 'race', '#0072B2', [7, 4], false),
      points: new Map(runningMeans(unseen).map((p) => [p.update, p.mean])),
    },
    {
      spec: line('eval-seen difference', 'race', '#D55E00', [2, 3], true),
      points: new Map(seen.map((p) => [p.update, p.difference])),
    },
  ].filter((r) => r.points.size > 0);
  const grid = columns(rows.flatMap((r) => [...r.points.keys()]));
  return {
    xs: grid.xs,
    xLabel: X_LABELS.update,
    series: rows.map((r) => r.spec),
    ys: rows.map((r) => grid.at(r.points)),
  };
}

// What each learning-curve chart draws, as data: the charts (Curves.tsx draws them with uPlot, chart_view.ts)
// get from here their series, one x axis of updates shared by every series, and each series' look. A run is
// told apart by colour, one fixed colour per algorithm from the Okabe-Ito palette (readable with every common
// colour-vision deficiency); the metrics of one chart by dash; the recorded run (a finished benchmark, dashed,
// with a 95% band over its seeds) from the live one (solid). Eval lines are drawn after, so on top of, the
// thin line of the training rollouts.
import type { Algo } from '../rl/config.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';
import type { UpdateMetrics } from '../worker/protocol.ts';
import { armBand } from './recorded_curves.ts';
import { ema } from './smoothing.ts';

type MetricKey = Exclude<keyof UpdateMetrics, 'run' | 'skipped'>;

export interface ChartMetric {
  key: MetricKey;
  label: string;
  /** 'train': a thin line under the others; 'eval': sparse points, joined across updates without one. */
  kind: 'train' | 'eval' | 'line';
}

export interface ChartDef {
  id: string;
  title: string;
  metrics: ChartMetric[];
  /** The recorded run's split drawn here (mean over seeds with its band), if any. */
  recorded: 'seen' | 'unseen' | null;
  /** Fixed y range, or null to fit the data. */
  yRange: [number, number] | null;
  /** Values are fractions, read out as percentages. */
  percent: boolean;
}

export const CHARTS: readonly ChartDef[] = [
  {
    id: 'success-unseen',
    title: 'Success on eval-unseen (rooms never trained on)',
    metrics: [
      { key: 'successTrain', label: 'train rollouts', kind: 'train' },
      { key: 'evalUnseen', label: 'eval-unseen', kind: 'eval' },
    ],
    recorded: 'unseen',
    yRange: [0, 1],
    percent: true,
  },
  {
    id: 'success-seen',
    title: 'Success on eval-seen (training rooms, new games)',
    metrics: [
      { key: 'successTrain', label: 'train rollouts', kind: 'train' },
      { key: 'evalSeen', label: 'eval-seen', kind: 'eval' },
    ],
    recorded: 'seen',
    yRange: [0, 1],
    percent: true,
  },
  { id: 'reward', title: 'Mean reward', metrics: [{ key: 'meanReward', label: 'mean reward', kind: 'line' }], recorded: null, yRange: null, percent: false },
  {
    id: 'loss',
    title: 'Loss terms',
    metrics: [
      { key: 'L_GRPO', label: 'L_GRPO', kind: 'line' },
      { key: 'L_OPD', label: 'L_OPD', kind: 'line' },
      { key: 'KL', label: 'KL', kind: 'line' },
    ],
    recorded: null,
    yRange: null,
    percent: false,
  },
  {
    id: 'gate',
    title: 'Mean gate and skills',
    metrics: [
      { key: 'meanGate', label: 'mean gate (decision tokens)', kind: 'line' },
      { key: 'validSkillRate', label: 'valid skills', kind: 'line' },
      { key: 'degenerateSkillRate', label: 'degenerate skills (repeat a phrase)', kind: 'line' },
      { key: 'skillFidelity', label: 'skill fidelity', kind: 'line' },
      { key: 'skillPlaceTrue', label: "skills stating the object's true start", kind: 'line' },
      { key: 'skillPlaceFalse', label: 'skills stating a false one', kind: 'line' },
    ],
    recorded: null,
    yRange: [0, 1],
    percent: false,
  },
  {
    // corr(Delta, A) is weaker: the advantage is the same on every token of a game (it stays in the CSV).
    id: 'credit',
    title: "Skill credit: corr(Delta, token on the expert's shortest plan)",
    metrics: [{ key: 'corrDeltaExpert', label: 'on decision tokens', kind: 'line' }],
    recorded: null,
    yRange: [-1, 1],
    percent: false,
  },
];

/** One colour per algorithm (Okabe-Ito), the same in every chart, recorded or live. */
export const ALGO_COLOURS: Record<Algo, string> = {
  seed: '#0072B2',
  grpo: '#E69F00',
  'seed-crossgame': '#009E73',
  'seed-annotator': '#CC79A7',
  'seed-sibling': '#D55E00',
  'seed-static': '#56B4E9',
  opid: '#000000',
  'seed-nogate': '#7F7F7F',
  'seed-exact': '#332288',
  'seed-exact-crossgame': '#882255',
};

export function colourOfRun(run: string): string {
  return ALGO_COLOURS[run as Algo] ?? '#444444';
}

/** Dash per metric of a chart (first solid), and the recorded run's dash. */
const METRIC_DASH: number[][] = [[], [7, 4], [2, 3]];
export const RECORDED_DASH = [9, 5];

export interface Smoothing {
  /** EMA weight in [0, 1); 0 draws the raw values only. */
  weight: number;
  /** Draw the raw values faintly under the smoothed ones. */
  showRaw: boolean;
}

export interface SeriesSpec {
  label: string;
  run: string;
  source: 'recorded' | 'live';
  colour: string;
  dash: number[];
  width: number;
  /** 0..1: raw values under a smoothed line, and the training line, are faint. */
  alpha: number;
  points: boolean;
  /** Recorded means: the band and the number of seeds at each x (null where the series has no value). */
  band: { lo: (number | null)[]; hi: (number | null)[]; seeds: (number | null)[] } | null;
}

export interface ChartData {
  /** Updates, ascending: the x of every series. */
  xs: number[];
  series: SeriesSpec[];
  /** One row per series, aligned with xs; null where a series has no value. */
  ys: (number | null)[][];
}

function aligned(xs: readonly number[], points: ReadonlyMap<number, number | null>): (number | null)[] {
  return xs.map((x) => points.get(x) ?? null);
}

/** The chart's series: the recorded arms (if the chart has a split of them), then each live run's metrics. */
export function chartData(def: ChartDef, curves: Record<string, UpdateMetrics[]>, recorded: RecordedRun | null, smoothing: Smoothing): ChartData {
  const runs = Object.keys(curves).sort();
  const arms = def.recorded && recorded ? recorded.arms.map((arm) => ({ arm, band: armBand(arm, def.recorded!) })) : [];
  const xSet = new Set<number>();
  for (const run of runs) for (const m of curves[run]) xSet.add(m.update);
  for (const { band } of arms) for (const p of band) xSet.add(p.update);
  const xs = [...xSet].sort((a, b) => a - b);
  const series: SeriesSpec[] = [];
  const ys: (number | null)[][] = [];
  const column = new Map(xs.map((x, i) => [x, i]));
  for (const { arm, band } of arms) {
    const at = (f: (p: (typeof band)[number]) => number) => {
      const out: (number | null)[] = new Array(xs.length).fill(null);
      for (const p of band) out[column.get(p.update)!] = f(p);
      return out;
    };
    const n = arm.seeds.length;
    series.push({
      label: `recorded ${arm.algo} eval-${def.recorded} (mean of ${n} seed${n === 1 ? '' : 's'})`,
      run: arm.algo,
      source: 'recorded',
      colour: colourOfRun(arm.algo),
      dash: RECORDED_DASH,
      width: 2,
      alpha: 1,
      points: true,
      band: n > 1 ? { lo: at((p) => p.lo), hi: at((p) => p.hi), seeds: at((p) => p.seeds) } : null,
    });
    ys.push(at((p) => p.mean));
  }
  // Training lines first: uPlot draws series in order, so the eval lines lie on top of them.
  const ordered = [...def.metrics].sort((a, b) => Number(b.kind === 'train') - Number(a.kind === 'train'));
  for (const run of runs) {
    for (const metric of ordered) {
      const raw = aligned(xs, new Map(curves[run].map((m) => [m.update, m[metric.key] as number | null])));
      if (raw.every((v) => v === null)) continue;
      const base = {
        run,
        source: 'live' as const,
        colour: colourOfRun(run),
        dash: METRIC_DASH[def.metrics.indexOf(metric)] ?? [],
        width: metric.kind === 'train' ? 1 : 2,
        alpha: metric.kind === 'train' ? 0.55 : 1,
        points: metric.kind === 'eval',
        band: null,
      };
      const label = `live ${run} ${metric.label}`;
      if (smoothing.weight > 0) {
        if (smoothing.showRaw) {
          series.push({ ...base, label: `${label} (raw)`, width: 1, alpha: base.alpha * 0.35, points: false });
          ys.push(raw);
        }
        series.push({ ...base, label: `${label} (smoothed)` });
        ys.push(ema(raw, smoothing.weight));
      } else {
        series.push({ ...base, label });
        ys.push(raw);
      }
    }
  }
  return { xs, series, ys };
}

/** What decides the uPlot instance: a chart is rebuilt when its series change, and only given new data else. */
export function seriesKey(data: ChartData): string {
  return data.series.map((s) => s.label).join('|');
}

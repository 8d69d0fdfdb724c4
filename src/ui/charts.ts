// What each learning-curve chart draws, as data: the charts (Curves.tsx draws them with uPlot, chart_view.ts)
// get from here their series, one x axis (updates, episodes or seconds) shared by every series, each series'
// look and the y range.
// Every series differs from the others of its chart by dash as well as by colour, so that a chart reads without
// colour vision too. An algorithm keeps one colour from the Okabe-Ito palette (readable with every common
// colour-vision deficiency) in every chart where runs are compared; the recorded run (a finished benchmark,
// dashed, with a 95% band over its seeds) is told from the live one (solid) by dash. A chart of several
// metrics of one live run (loss terms, skills) gives each metric a colour and a dash of its own; with several
// live runs, the colour is the run's and the dash the metric's. The raw training rollouts are left out of the
// eval charts unless asked for: their swings would hide the recorded bands. Eval lines are drawn after, so on
// top of, the thin training line.
import type { WorldWords } from '../env/world_facts.ts';
import { partControlTable, type Algo, type PartArm, type PartControl, type SkillPart } from '../rl/arms.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';
import type { UpdateMetrics } from '../worker/protocol.ts';
import { factsOf } from '../worlds/facts.ts';
import type { EnvironmentName } from '../worlds/names.ts';
import { armBand } from './recorded_curves.ts';
import { armName } from './setting_labels.ts';
import { ema } from './smoothing.ts';

type MetricKey = Exclude<keyof UpdateMetrics, 'run' | 'skipped'>;

interface ChartMetric {
  key: MetricKey;
  label: string;
  /** 'train': a thin line under the others; 'eval': sparse points, joined across updates without one. */
  kind: 'train' | 'eval' | 'line';
}

export interface ChartDef {
  id: string;
  title: string;
  metrics: ChartMetric[];
  /** The title in a world's words, where it names what the world's games are (WorldFacts.words). */
  worldTitle?: (words: WorldWords) => string;
  /** The recorded run's split drawn here (mean over seeds with its band), if any. */
  recorded: 'seen' | 'unseen' | null;
  /** The range of the fixed-range view, and the bounds of the auto range; null: the auto range only. */
  yRange: [number, number] | null;
  /** Values are fractions, read out as percentages. */
  percent: boolean;
  /** Drawn only in a world with a score (WorldFacts.scored). */
  scored?: boolean;
}

export const CHARTS: readonly ChartDef[] = [
  {
    id: 'success-unseen',
    title: 'Success on eval-unseen',
    worldTitle: (words) => `Success on eval-unseen (${words.evalGames.unseen})`,
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
    title: 'Success on eval-seen',
    worldTitle: (words) => `Success on eval-seen (${words.evalGames.seen})`,
    metrics: [
      { key: 'successTrain', label: 'train rollouts', kind: 'train' },
      { key: 'evalSeen', label: 'eval-seen', kind: 'eval' },
    ],
    recorded: 'seen',
    yRange: [0, 1],
    percent: true,
  },
  {
    id: 'score',
    title: 'Mean score',
    worldTitle: (words) => `Mean score (${words.score})`,
    metrics: [
      { key: 'scoreTrain', label: 'train rollouts', kind: 'train' },
      { key: 'scoreSeen', label: 'eval-seen', kind: 'eval' },
      { key: 'scoreUnseen', label: 'eval-unseen', kind: 'eval' },
    ],
    recorded: null,
    yRange: [0, 1],
    percent: false,
    scored: true,
  },
  {
    id: 'reward',
    title: 'Mean reward',
    metrics: [{ key: 'meanReward', label: 'mean reward', kind: 'line' }],
    recorded: null,
    yRange: null,
    percent: false,
  },
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
      { key: 'validSkillRate', label: 'well-formed skills', kind: 'line' },
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
  {
    // How much of the step the distillation term drives, measured each update (the scale lambda sets), and how
    // much of the sampled-token term's coefficient the skill's shift makes (the rest is self-imitation).
    id: 'scale',
    title:
      'Distillation scale: OPD / GRPO gradient norm, OPD share of the gradient, the Delta-dependent share of its coefficient, and the divergence to the teacher',
    metrics: [
      { key: 'gradNormRatio', label: 'OPD / GRPO gradient norm', kind: 'line' },
      { key: 'opdShare', label: 'OPD share of the gradient', kind: 'line' },
      { key: 'opdDeltaShare', label: 'Delta-dependent share of the OPD coefficient', kind: 'line' },
      { key: 'meanDivergence', label: 'KL(student ‖ teacher), decision tokens', kind: 'line' },
    ],
    recorded: null,
    yRange: null,
    percent: false,
  },
];

/** The charts of a world's page: those of a score only where it has one, each titled in the world's words. */
export function worldCharts(world: EnvironmentName): ChartDef[] {
  const { scored, words } = factsOf(world);
  return CHARTS.filter((def) => scored || !def.scored).map((def) =>
    def.worldTitle ? { ...def, title: def.worldTitle(words) } : def,
  );
}

/** A colour per part, its seed control's and its seed-exact control's (Okabe-Ito, then Paul Tol's). */
const PART_COLOURS: Readonly<Record<SkillPart, Readonly<Record<PartArm, string>>>> = {
  crossgame: { seed: '#009E73', 'seed-exact': '#882255' },
  procedure: { seed: '#DDCC77', 'seed-exact': '#999933' },
  facts: { seed: '#88CCEE', 'seed-exact': '#117733' },
  empty: { seed: '#BBBBBB', 'seed-exact': '#555555' },
  shuffled: { seed: '#EE8866', 'seed-exact': '#AA4499' },
  frozen: { seed: '#44BB99', 'seed-exact': '#225555' },
};

/** One colour per algorithm (Okabe-Ito), the same in every chart, recorded or live. */
export const ALGO_COLOURS: Readonly<Record<Algo, string>> = {
  seed: '#0072B2',
  grpo: '#E69F00',
  'seed-annotator': '#CC79A7',
  'seed-sibling': '#D55E00',
  'seed-static': '#56B4E9',
  opid: '#000000',
  'seed-nogate': '#7F7F7F',
  'seed-exact': '#332288',
  ...partControlTable((arm, part) => PART_COLOURS[part][arm]),
} satisfies Record<Exclude<Algo, PartControl>, string>;

export function colourOfRun(run: string): string {
  return ALGO_COLOURS[run as Algo] ?? '#444444';
}

/** Dash per metric of a chart (first solid), and the recorded run's dash. */
export const METRIC_DASH: number[][] = [[], [7, 4], [2, 3], [10, 3, 2, 3], [1, 4], [14, 4], [5, 2, 1, 2, 1, 2]];
/** Colour per metric in a chart of several metrics of one run: Okabe-Ito, its yellow left out (too light on white). */
const METRIC_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
export const RECORDED_DASH = [9, 5];
/** The training rollouts on an eval chart: dotted, under the eval line. */
export const TRAIN_DASH = [2, 3];

/** What the x axis counts: updates, training episodes played, or the live run's seconds of training. */
export type XAxis = 'update' | 'episodes' | 'wall';

export const X_LABELS: Record<XAxis, string> = { update: 'update', episodes: 'episodes', wall: 'training seconds' };

export interface ChartOptions {
  /** EMA weight in [0, 1); 0 draws the raw values only. */
  weight: number;
  /** Draw the raw values faintly under the smoothed ones. */
  showRaw: boolean;
  /** Draw the training rollouts' success on the eval charts (left out by default). */
  showTrain?: boolean;
  /** The x axis; updates by default. A recording keeps no wall time: its arms are left out against seconds. */
  x?: XAxis;
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
  /** The x of every series, ascending: updates, episodes or seconds (xLabel). */
  xs: number[];
  xLabel: string;
  series: SeriesSpec[];
  /** One row per series, aligned with xs; null where a series has no value. */
  ys: (number | null)[][];
}

function aligned(xs: readonly number[], points: ReadonlyMap<number, number | null>): (number | null)[] {
  return xs.map((x) => points.get(x) ?? null);
}

/** The chart's series: the recorded arms (if the chart has a split of them), then each live run's metrics. */
export function chartData(
  def: ChartDef,
  curves: Record<string, UpdateMetrics[]>,
  recorded: RecordedRun | null,
  options: ChartOptions,
): ChartData {
  const x = options.x ?? 'update';
  const runs = Object.keys(curves).sort();
  const arms =
    def.recorded && recorded && x !== 'wall'
      ? recorded.arms.map((arm) => ({ arm, band: armBand(arm, def.recorded!) }))
      : [];
  const recordedX = (update: number) => (x === 'episodes' ? update * recorded!.episodesPerUpdate : update);
  const liveX = new Map(runs.map((run) => [run, liveXs(curves[run], x)]));
  const xSet = new Set<number>();
  for (const run of runs) for (const v of liveX.get(run)!) xSet.add(v);
  for (const { band } of arms) for (const p of band) xSet.add(recordedX(p.update));
  const xs = [...xSet].sort((a, b) => a - b);
  const series: SeriesSpec[] = [];
  const ys: (number | null)[][] = [];
  const column = new Map(xs.map((x, i) => [x, i]));
  for (const { arm, band } of arms) {
    const at = (f: (p: (typeof band)[number]) => number) => {
      const out: (number | null)[] = new Array(xs.length).fill(null);
      for (const p of band) out[column.get(recordedX(p.update))!] = f(p);
      return out;
    };
    const n = arm.seeds.length;
    series.push({
      label: `recorded ${armName(arm.algo)} eval-${def.recorded} (mean of ${n} seed${n === 1 ? '' : 's'})`,
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
  const shown = def.metrics.filter((m) => m.kind !== 'train' || options.showTrain === true);
  const ordered = [...shown].sort((a, b) => Number(b.kind === 'train') - Number(a.kind === 'train'));
  const perMetric = def.recorded === null && def.metrics.length > 1;
  for (const run of runs) {
    for (const metric of ordered) {
      const pointXs = liveX.get(run)!;
      const raw = aligned(xs, new Map(curves[run].map((m, k) => [pointXs[k], m[metric.key] as number | null])));
      if (raw.every((v) => v === null)) continue;
      const at = def.metrics.indexOf(metric);
      const base = {
        run,
        source: 'live' as const,
        colour: perMetric && runs.length === 1 ? METRIC_COLOURS[at % METRIC_COLOURS.length] : colourOfRun(run),
        dash: def.recorded !== null ? (metric.kind === 'train' ? TRAIN_DASH : []) : (METRIC_DASH[at] ?? []),
        width: metric.kind === 'train' ? 1 : 2,
        alpha: metric.kind === 'train' ? 0.55 : 1,
        points: metric.kind === 'eval',
        band: null,
      };
      const label = `live ${armName(run)} ${metric.label}`;
      if (options.weight > 0) {
        if (options.showRaw) {
          series.push({ ...base, label: `${label} (raw)`, width: 1, alpha: base.alpha * 0.35, points: false });
          ys.push(raw);
        }
        series.push({ ...base, label: `${label} (smoothed)` });
        ys.push(ema(raw, options.weight));
      } else {
        series.push({ ...base, label });
        ys.push(raw);
      }
    }
  }
  return { xs, xLabel: X_LABELS[x], series, ys };
}

/**
 * The y range a chart shows. Fixed: the chart's own range (a chart without one is always auto). Auto: the
 * values drawn, the recorded bands included, padded by a tenth of their span (a tenth of the value when they
 * are all equal; 5 percentage points, or 1, when they are all 0) and kept within the chart's range, so that a rise from 33% to 43% fills the
 * chart instead of a tenth of it; before any value, the chart's range or [0, 1].
 */
export function yRangeOf(def: ChartDef, data: ChartData, fixed: boolean): [number, number] {
  if (fixed && def.yRange) return def.yRange;
  let lo = Infinity;
  let hi = -Infinity;
  const take = (v: number | null) => {
    if (v === null || !Number.isFinite(v)) return;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  };
  for (const row of data.ys) row.forEach(take);
  for (const s of data.series) {
    s.band?.lo.forEach(take);
    s.band?.hi.forEach(take);
  }
  if (lo > hi) return def.yRange ?? [0, 1];
  const pad = hi > lo ? (hi - lo) / 10 : hi !== 0 ? Math.abs(hi) / 10 : def.percent ? 0.05 : 1;
  const [min, max] = def.yRange ?? [-Infinity, Infinity];
  return [Math.max(min, lo - pad), Math.min(max, hi + pad)];
}

/** What decides the uPlot instance: a chart is rebuilt when its series or its x axis change, and only given new data else. */
export function seriesKey(data: ChartData): string {
  return [data.xLabel, ...data.series.map((s) => s.label)].join('|');
}

/**
 * The x of each of a run's points: its update, the episodes it had played after it, or its seconds of
 * training so far (the sum of its updates' wall times, in seconds; the warm start's point, at 0).
 */
function liveXs(list: readonly UpdateMetrics[], x: XAxis): number[] {
  if (x === 'update') return list.map((m) => m.update);
  if (x === 'episodes') return list.map((m) => m.episodes);
  let ms = 0;
  return list.map((m) => {
    ms += m.wallMs ?? 0;
    return Math.round(ms) / 1000;
  });
}

// What a chart's text reads: each series' value at the hovered update, else at its last update with a value
// (its legend chips), as a percentage on charts of fractions, with the recorded run's 95% interval where it has
// one; the y axis's tick labels, and the width of the axis that holds them.
import type { ChartData, ChartDef, SeriesSpec } from './charts.ts';

function formatValue(def: ChartDef, v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return def.percent ? `${(100 * v).toFixed(1)}%` : Number(v.toPrecision(3)).toString();
}

function readout(def: ChartDef, s: SeriesSpec, v: number | null, idx: number): string {
  const text = formatValue(def, v);
  if (!s.band || v === null) return text;
  const lo = s.band.lo[idx];
  const hi = s.band.hi[idx];
  return lo === null || hi === null ? text : `${text} [${formatValue(def, lo)}, ${formatValue(def, hi)}]`;
}

/**
 * Tick labels with as many decimals as the step between ticks needs, so that close ticks of an auto range
 * (0.0005 apart, or half a percentage point) never read alike.
 */
export function tickLabels(ticks: readonly number[], percent: boolean): string[] {
  const scale = percent ? 100 : 1;
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) * scale : 1;
  let decimals = 0;
  while (decimals < 8 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6 * 10 ** decimals)
    decimals++;
  return ticks.map((t) => `${(t * scale).toFixed(decimals)}${percent ? '%' : ''}`);
}

/** CSS pixels between the widest y tick label and the chart's left edge. */
const Y_AXIS_EDGE = 4;

/**
 * The width of a y axis, in CSS pixels, that holds its widest tick label whole: the label as `measure` gives
 * its width in the axis's font, the tick and the gap drawn between the label and the plot (`tickAndGap`), and a
 * margin at the chart's edge; at least `min`. uPlot right-aligns the labels against the plot, so an axis
 * narrower than its widest label cuts that label's first characters at the chart's left edge ("53.0%" reads
 * ":3.0%"); a width guessed from the number of characters does so in a font wider than the guess.
 */
export function yAxisSize(
  labels: readonly string[] | null,
  measure: (text: string) => number,
  tickAndGap: number,
  min: number,
): number {
  let widest = 0;
  for (const label of labels ?? []) widest = Math.max(widest, measure(label));
  return Math.max(min, Math.ceil(widest + tickAndGap + Y_AXIS_EDGE));
}

/** Per series: its value at the column `cursor` (the hovered update), or at its last value when null. */
export function chipValues(def: ChartDef, data: ChartData, cursor: number | null): string[] {
  return data.series.map((s, i) => {
    const row = data.ys[i];
    let idx = cursor;
    if (idx === null) for (let k = row.length - 1; k >= 0 && idx === null; k--) if (row[k] !== null) idx = k;
    return idx === null ? '–' : readout(def, s, row[idx] ?? null, idx);
  });
}

// What a chart's text reads: each series' value at the hovered update, else at its last update with a value
// (its legend chips), as a percentage on charts of fractions, with the recorded run's 95% interval where it has
// one; and the y axis's tick labels.
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

/** Per series: its value at the column `cursor` (the hovered update), or at its last value when null. */
export function chipValues(def: ChartDef, data: ChartData, cursor: number | null): string[] {
  return data.series.map((s, i) => {
    const row = data.ys[i];
    let idx = cursor;
    if (idx === null) for (let k = row.length - 1; k >= 0 && idx === null; k--) if (row[k] !== null) idx = k;
    return idx === null ? '–' : readout(def, s, row[idx] ?? null, idx);
  });
}

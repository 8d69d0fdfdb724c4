// One learning-curve chart drawn by uPlot (canvas): hover readout of every series in its legend, drag to zoom
// (double-click to reset), a cursor shared by every chart, the recorded run's 95% bands under the lines, and a
// marker at the recorded update being scrubbed. The chart is built again only when its series change; a live
// run's new points are handed to the same chart (setData), so the run grows on the same axes.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { seriesKey, yRangeOf, type ChartData, type ChartDef, type SeriesSpec } from './charts.ts';

const CHART_HEIGHT = 200;
const SYNC_KEY = 'seed-curves';

function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

function formatValue(def: ChartDef, v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return def.percent ? `${(100 * v).toFixed(1)}%` : Number(v.toPrecision(3)).toString();
}

function readout(def: ChartDef, s: SeriesSpec, v: number | null, idx: number | null): string {
  const text = formatValue(def, v);
  if (!s.band || idx === null || v === null) return text;
  const lo = s.band.lo[idx];
  const hi = s.band.hi[idx];
  return lo === null || hi === null ? text : `${text} [${formatValue(def, lo)}, ${formatValue(def, hi)}]`;
}

/** The filled 95% bands of the recorded series: over the grid, under every line. */
function drawBands(u: uPlot, data: ChartData): void {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  data.series.forEach((s, i) => {
    if (!s.band || u.series[i + 1]?.show === false) return;
    const idx = data.xs.map((_, k) => k).filter((k) => s.band!.lo[k] !== null && s.band!.hi[k] !== null);
    if (idx.length < 2) return;
    ctx.beginPath();
    idx.forEach((k, j) => {
      const x = u.valToPos(data.xs[k], 'x', true);
      const y = u.valToPos(s.band!.hi[k]!, 'y', true);
      if (j === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    for (const k of [...idx].reverse()) ctx.lineTo(u.valToPos(data.xs[k], 'x', true), u.valToPos(s.band!.lo[k]!, 'y', true));
    ctx.closePath();
    ctx.fillStyle = withAlpha(s.colour, 0.16);
    ctx.fill();
  });
  ctx.restore();
}

function drawMarker(u: uPlot, update: number): void {
  const ctx = u.ctx;
  const { top, height } = u.bbox;
  const x = u.valToPos(update, 'x', true);
  if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) return;
  ctx.save();
  ctx.strokeStyle = '#495057';
  ctx.lineWidth = devicePixelRatio;
  ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
  ctx.beginPath();
  ctx.moveTo(x, top);
  ctx.lineTo(x, top + height);
  ctx.stroke();
  ctx.restore();
}

/** Percent ticks with a decimal where the ticks are closer than a percentage point (an auto range). */
function percentTicks(ticks: number[]): string[] {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
  return ticks.map((t) => `${(100 * t).toFixed(step < 0.01 ? 1 : 0)}%`);
}

function options(def: ChartDef, data: () => ChartData, marker: () => number | null, fixedY: boolean, width: number, onZoom: () => void): uPlot.Options {
  const d = data();
  return {
    width,
    height: CHART_HEIGHT,
    cursor: { sync: { key: SYNC_KEY }, drag: { x: true, y: false } },
    scales: { x: { time: false }, y: { auto: true, range: () => yRangeOf(def, data(), fixedY) } },
    axes: [
      // Updates are whole numbers: ticks at 1, 2, 5 times a power of ten, never at 2.5.
      { label: 'update', size: 36, labelSize: 14, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000] },
      // An option given as undefined replaces uPlot's default: the formatter is set only where it is wanted.
      def.percent ? { size: 46, values: (_u, ticks) => percentTicks(ticks) } : { size: 46 },
    ],
    legend: { live: true },
    series: [
      { label: 'update', value: (_u, v) => (v === null || v === undefined ? '–' : String(v)) },
      ...d.series.map(
        (s, i): uPlot.Series => ({
          label: s.label,
          stroke: s.colour,
          width: s.width,
          dash: s.dash,
          alpha: s.alpha,
          spanGaps: true,
          // uPlot leaves out the points of a series where they would crowd (a long recorded curve): drawing
          // tens of thousands of them held the page for seconds.
          points: s.points ? { size: 5, fill: s.colour, stroke: s.colour } : { show: false },
          value: (_u, v, _si, idx) => readout(def, data().series[i] ?? s, v, idx),
        }),
      ),
    ],
    hooks: {
      // A drag selects a range of updates, and uPlot zooms to it when the drag ends.
      setSelect: [(u) => (u.select.width > 0 ? onZoom() : undefined)],
      drawAxes: [(u) => drawBands(u, data())],
      draw: [
        (u) => {
          const m = marker();
          if (m !== null) drawMarker(u, m);
        },
      ],
    },
  };
}

function plotData(data: ChartData): uPlot.AlignedData {
  return [data.xs, ...data.ys] as uPlot.AlignedData;
}

export interface UPlotChartProps {
  def: ChartDef;
  data: ChartData;
  /** The recorded update being scrubbed: a marker line, and the cursor there. */
  marker: number | null;
  /** Called with the chart once drawn, and with null when it goes (the PNG export reads the canvases). */
  register: (id: string, plot: uPlot | null) => void;
  /** The chart's fixed y range (ChartDef.yRange) rather than one fitted to the data. */
  fixedY: boolean;
}

export function UPlotChart({ def, data, marker, register, fixedY }: UPlotChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);
  const plot = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;
  const markerRef = useRef(marker);
  markerRef.current = marker;
  const key = seriesKey(data);
  // A chart zoomed by dragging keeps its zoom as live points arrive; a double-click (uPlot's zoom out) lets the
  // axes follow the data again.
  const zoomed = useRef(false);

  const empty = data.xs.length === 0;
  useEffect(() => {
    // uPlot has no axes to draw without a point: the chart is made once there is one.
    const el = host.current;
    if (!el || empty) return;
    const u = new uPlot(options(def, () => dataRef.current, () => markerRef.current, fixedY, el.clientWidth || 400, () => void (zoomed.current = true)), plotData(dataRef.current), el);
    plot.current = u;
    register(def.id, u);
    // The recorded series uPlot has drawn (data-recorded-series says what it is given, before it draws).
    figure.current?.setAttribute('data-drawn-recorded', String(dataRef.current.series.filter((x) => x.source === 'recorded').length));
    zoomed.current = false;
    u.over.addEventListener('dblclick', () => void (zoomed.current = false));
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width) u.setSize({ width: el.clientWidth, height: CHART_HEIGHT });
    });
    resize.observe(el);
    return () => {
      figure.current?.removeAttribute('data-drawn-recorded');
      resize.disconnect();
      u.destroy();
      plot.current = null;
      register(def.id, null);
    };
  }, [def, key, register, empty, fixedY]);

  useEffect(() => {
    plot.current?.setData(plotData(data), !zoomed.current);
  }, [data]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    u.redraw(false);
    if (marker !== null && data.xs.includes(marker)) u.setCursor({ left: u.valToPos(marker, 'x'), top: u.bbox.height / devicePixelRatio / 2 });
    // The cursor goes to the scrubbed update when that changes, not at every live point.
  }, [marker]);

  const recorded = data.series.filter((s) => s.source === 'recorded').length;
  const live = data.series.filter((s) => s.source === 'live').length;
  return (
    <figure
      ref={figure}
      className="chart"
      data-testid={`chart-${def.id}`}
      data-recorded-series={recorded}
      data-live-series={live}
      data-series={data.series.map((s) => s.label).join('|')}
      data-y-range={yRangeOf(def, data, fixedY).map((v) => Number(v.toPrecision(4))).join(',')}
    >
      <figcaption className="chart-title">{def.title}</figcaption>
      {empty ? <p className="hint">No points yet.</p> : null}
      <div ref={host} className="chart-plot" role="img" aria-label={`${def.title}: ${data.series.map((s) => s.label).join(', ') || 'no points yet'}`} />
    </figure>
  );
}

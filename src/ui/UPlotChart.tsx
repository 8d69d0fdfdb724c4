// One learning-curve chart drawn by uPlot (canvas): a legend of chips that show and hide the series and read
// out their values at the hovered update (ChartLegend.tsx), drag to zoom (double-click to reset), a cursor
// shared by every chart, the recorded run's 95% bands under the lines, and a marker at the recorded update
// being scrubbed. The chart is built again only when its series change; a live run's new points are handed to
// the same chart (setData), so the run grows on the same axes. A chart out of sight keeps its newest points
// and draws them when it comes into view (or when its canvas is read): every draw sets the fonts and paths of
// each axis and series, and a playing run brings new points several times a second to charts mostly unseen.
import { useCallback, useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ChartLegend } from './ChartLegend.tsx';
import { chipValues, tickLabels, yAxisSize } from './chart_readout.ts';
import { X_LABELS, seriesKey, yRangeOf, type ChartData, type ChartDef } from './charts.ts';

const DEFAULT_HEIGHT = 200;
const SYNC_KEY = 'seed-curves';
/** uPlot's own axis font, named so that the y axis is measured in the font its labels are drawn in. */
const AXIS_FONT =
  '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"';
/** The y axis's least width, in CSS pixels: charts whose labels are short keep their plots aligned. */
const MIN_Y_AXIS = 46;

let measuring: CanvasRenderingContext2D | null = null;

/**
 * A tick label's width in CSS pixels in the axis font, measured on a canvas of its own: uPlot remembers the font
 * it last set on its canvas and does not set it again, so a font changed there would draw its next text.
 */
function labelWidth(text: string): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  // A canvas without a 2D context measures nothing: 8 pixels a character is wider than the font's.
  if (!measuring) return 8 * text.length;
  measuring.font = AXIS_FONT;
  return measuring.measureText(text).width;
}

function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
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
    for (const k of [...idx].reverse())
      ctx.lineTo(u.valToPos(data.xs[k], 'x', true), u.valToPos(s.band!.lo[k]!, 'y', true));
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

interface ChartHooks {
  data: () => ChartData;
  marker: () => number | null;
  hidden: () => ReadonlySet<string>;
  onZoom: () => void;
  onCursor: (idx: number | null) => void;
}

function options(def: ChartDef, hooks: ChartHooks, fixedY: boolean, width: number, height: number): uPlot.Options {
  const { data, marker, onZoom } = hooks;
  const d = data();
  return {
    width,
    height,
    cursor: { sync: { key: SYNC_KEY }, drag: { x: true, y: false } },
    scales: { x: { time: false }, y: { auto: true, range: () => yRangeOf(def, data(), fixedY) } },
    axes: [
      // Updates and episodes are whole numbers: ticks at 1, 2, 5 times a power of ten, never at 2.5; seconds
      // take uPlot's own steps (an option given as undefined replaces uPlot's default, so it is left out).
      d.xLabel === X_LABELS.wall
        ? { label: d.xLabel, size: 36, labelSize: 14 }
        : {
            label: d.xLabel,
            size: 36,
            labelSize: 14,
            incrs: [
              1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
              1_000_000,
            ],
          },
      // An option given as undefined replaces uPlot's default: the formatter is set only where it is wanted.
      // Wide enough for the widest label as drawn, measured in the axis's font (a minus sign, decimals, a %).
      {
        font: AXIS_FONT,
        size: (u, values, axisIdx) => {
          const axis = u.axes[axisIdx];
          const tick = axis.ticks?.show === false ? 0 : (axis.ticks?.size ?? 0);
          return yAxisSize(values, labelWidth, tick + (axis.gap ?? 0), MIN_Y_AXIS);
        },
        values: (_u, ticks) => tickLabels(ticks, def.percent),
      },
    ],
    legend: { show: false },
    series: [
      { label: d.xLabel },
      ...d.series.map(
        (s): uPlot.Series => ({
          label: s.label,
          stroke: s.colour,
          width: s.width,
          dash: s.dash,
          alpha: s.alpha,
          show: !hooks.hidden().has(s.label),
          spanGaps: true,
          // uPlot leaves out the points of a series where they would crowd (a long recorded curve): drawing
          // tens of thousands of them held the page for seconds.
          points: s.points ? { size: 5, fill: s.colour, stroke: s.colour } : { show: false },
        }),
      ),
    ],
    hooks: {
      // A drag selects a range of updates, and uPlot zooms to it when the drag ends.
      setSelect: [(u) => (u.select.width > 0 ? onZoom() : undefined)],
      setCursor: [(u) => hooks.onCursor(u.cursor.idx ?? null)],
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

/** A drawn chart's canvas, for the PNG export: read through `canvas()`, which first draws any points not yet drawn. */
export interface ChartCanvas {
  canvas: () => HTMLCanvasElement;
}

interface UPlotChartProps {
  def: ChartDef;
  data: ChartData;
  /** The recorded update being scrubbed, in the x axis's units: a marker line, and the cursor there. */
  marker: number | null;
  /** Called with the chart once drawn, and with null when it goes (the PNG export reads the canvases). */
  register: (id: string, chart: ChartCanvas | null) => void;
  /** The chart's fixed y range (ChartDef.yRange) rather than one fitted to the data. */
  fixedY: boolean;
  /** The plot's height in CSS pixels (its width is its container's). */
  height?: number;
}

export function UPlotChart({ def, data, marker, register, fixedY, height = DEFAULT_HEIGHT }: UPlotChartProps) {
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
  // Whether the chart is within sight (or near it), and whether it holds points it has not drawn.
  const inSight = useRef(true);
  const stale = useRef(false);
  // Series hidden by their chips, by label: they stay hidden when the chart is built again.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const [cursor, setCursor] = useState<number | null>(null);
  const toggle = useCallback((i: number) => {
    const label = dataRef.current.series[i]?.label;
    if (label === undefined) return;
    const next = new Set(hiddenRef.current);
    if (next.has(label)) next.delete(label);
    else next.add(label);
    hiddenRef.current = next;
    setHidden(next);
    plot.current?.setSeries(i + 1, { show: !next.has(label) });
  }, []);

  /** Hands the newest points to the chart, which draws them (uPlot draws in a microtask, or at once in a batch). */
  const drawNewest = useCallback((u: uPlot) => {
    stale.current = false;
    u.setData(plotData(dataRef.current), !zoomed.current);
  }, []);

  const empty = data.xs.length === 0;
  // The chart is made again when its x axis or its series change (key: uPlot fixes its series when made), not at
  // every new point, which it reads through dataRef.
  // biome-ignore lint/correctness/useExhaustiveDependencies: key is the trigger to make the chart again
  useEffect(() => {
    // uPlot has no axes to draw without a point: the chart is made once there is one.
    const el = host.current;
    if (!el || empty) return;
    const hooks: ChartHooks = {
      data: () => dataRef.current,
      marker: () => markerRef.current,
      hidden: () => hiddenRef.current,
      onZoom: () => {
        zoomed.current = true;
      },
      onCursor: setCursor,
    };
    const u = new uPlot(options(def, hooks, fixedY, el.clientWidth || 400, height), plotData(dataRef.current), el);
    plot.current = u;
    stale.current = false;
    register(def.id, {
      canvas: () => {
        if (stale.current) u.batch(() => drawNewest(u));
        return u.ctx.canvas;
      },
    });
    // The recorded series uPlot has drawn (data-recorded-series says what it is given, before it draws).
    figure.current?.setAttribute(
      'data-drawn-recorded',
      String(dataRef.current.series.filter((x) => x.source === 'recorded').length),
    );
    zoomed.current = false;
    u.over.addEventListener('dblclick', () => {
      zoomed.current = false;
    });
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && el.clientWidth !== u.width) u.setSize({ width: el.clientWidth, height });
    });
    resize.observe(el);
    return () => {
      figure.current?.removeAttribute('data-drawn-recorded');
      resize.disconnect();
      u.destroy();
      plot.current = null;
      register(def.id, null);
    };
  }, [def, key, register, empty, fixedY, height, drawNewest]);

  // Each new data is drawn; drawNewest reads it through dataRef, as the PNG export and the sight observer do.
  // biome-ignore lint/correctness/useExhaustiveDependencies: data is the trigger to draw
  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    if (inSight.current) drawNewest(u);
    else stale.current = true;
  }, [data, drawNewest]);

  useEffect(() => {
    const el = figure.current;
    if (!el) return;
    // A margin: a chart scrolled towards is drawn before it shows.
    const sight = new IntersectionObserver(
      (entries) => {
        inSight.current = entries[entries.length - 1].isIntersecting;
        if (inSight.current && stale.current && plot.current) drawNewest(plot.current);
      },
      { rootMargin: '300px' },
    );
    sight.observe(el);
    return () => sight.disconnect();
  }, [drawNewest]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    if (stale.current) u.batch(() => drawNewest(u));
    else u.redraw(false);
    // The cursor goes to the scrubbed update when that changes, not at every live point: the points are read
    // through dataRef.
    if (marker !== null && dataRef.current.xs.includes(marker))
      u.setCursor({ left: u.valToPos(marker, 'x'), top: u.bbox.height / devicePixelRatio / 2 });
  }, [marker, drawNewest]);

  const values = chipValues(def, data, cursor !== null && cursor < data.xs.length ? cursor : null);
  const recorded = data.series.filter((s) => s.source === 'recorded').length;
  const live = data.series.filter((s) => s.source === 'live').length;
  return (
    <figure
      ref={figure}
      className="chart"
      data-testid={`chart-${def.id}`}
      data-recorded-series={recorded}
      data-live-series={live}
      data-live-points={data.ys.reduce(
        (n, ys, i) => (data.series[i].source === 'live' ? n + ys.filter((y) => y !== null).length : n),
        0,
      )}
      data-series={data.series.map((s) => s.label).join('|')}
      data-y-range={yRangeOf(def, data, fixedY)
        .map((v) => Number(v.toPrecision(4)))
        .join(',')}
    >
      <figcaption className="chart-title">{def.title}</figcaption>
      {empty ? <p className="hint">No points yet.</p> : null}
      <div
        ref={host}
        className="chart-plot"
        role="img"
        aria-label={`${def.title}: ${data.series.map((s) => s.label).join(', ') || 'no points yet'}`}
      />
      <ChartLegend
        chips={data.series.map((s, i) => ({ series: s, shown: !hidden.has(s.label), value: values[i] }))}
        at={cursor !== null && data.xs[cursor] !== undefined ? `${data.xLabel} ${data.xs[cursor]}:` : 'last values:'}
        onToggle={toggle}
      />
    </figure>
  );
}

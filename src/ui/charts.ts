// The learning curves as SVG text: the page shows exactly what the SVG and PNG exports hold. One chart per
// quantity, x = update; each run has one colour per metric and a dash pattern per run (SEED solid, GRPO
// dashed), so two runs share the axes.
import type { UpdateMetrics } from '../worker/protocol.ts';

type MetricKey = Exclude<keyof UpdateMetrics, 'run'>;

export interface ChartDef {
  id: string;
  title: string;
  metrics: { key: MetricKey; label: string; colour: string }[];
  /** Fixed y range (fractions), or null to fit the data. */
  yRange: [number, number] | null;
}

export const CHARTS: readonly ChartDef[] = [
  {
    id: 'success',
    title: 'Success',
    metrics: [
      { key: 'evalSeen', label: 'eval-seen', colour: '#2f6fdb' },
      { key: 'evalUnseen', label: 'eval-unseen', colour: '#d9480f' },
      { key: 'successTrain', label: 'train rollouts', colour: '#868e96' },
    ],
    yRange: [0, 1],
  },
  { id: 'reward', title: 'Mean reward', metrics: [{ key: 'meanReward', label: 'mean reward', colour: '#2b8a3e' }], yRange: null },
  {
    id: 'loss',
    title: 'Loss terms',
    metrics: [
      { key: 'L_GRPO', label: 'L_GRPO', colour: '#5f3dc4' },
      { key: 'L_OPD', label: 'L_OPD', colour: '#e8590c' },
      { key: 'KL', label: 'KL', colour: '#0c8599' },
    ],
    yRange: null,
  },
  {
    id: 'gate',
    title: 'Mean gate and skills',
    metrics: [
      { key: 'meanGate', label: 'mean gate', colour: '#1a9850' },
      { key: 'validSkillRate', label: 'valid skills', colour: '#c2255c' },
      { key: 'skillFidelity', label: 'skill fidelity', colour: '#f08c00' },
    ],
    yRange: [0, 1],
  },
  {
    id: 'credit',
    title: 'Skill credit: corr(Delta, advantage)',
    metrics: [{ key: 'corrDeltaAdvantage', label: 'on decision tokens', colour: '#364fc7' }],
    yRange: [-1, 1],
  },
];

const RUN_DASH: Record<string, string> = { seed: '', grpo: '6 4' };

function dashOf(run: string): string {
  return RUN_DASH[run] ?? '2 3';
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** Up to five round tick values covering [lo, hi]. */
export function ticks(lo: number, hi: number): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e4 || a < 1e-3 ? v.toExponential(0) : String(Number(v.toPrecision(3)));
}

export interface ChartLayout {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One chart as an SVG group at the given place. */
export function chartGroup(def: ChartDef, curves: Record<string, UpdateMetrics[]>, at: ChartLayout): string {
  const pad = { left: 46, right: 10, top: 22, bottom: 34 };
  const w = at.width - pad.left - pad.right;
  const h = at.height - pad.top - pad.bottom;
  const runs = Object.keys(curves).sort();
  let xMax = 1;
  let yLo = Infinity;
  let yHi = -Infinity;
  for (const run of runs) {
    for (const m of curves[run]) {
      xMax = Math.max(xMax, m.update);
      for (const { key } of def.metrics) {
        const v = m[key];
        if (typeof v === 'number' && Number.isFinite(v)) {
          yLo = Math.min(yLo, v);
          yHi = Math.max(yHi, v);
        }
      }
    }
  }
  let [lo, hi] = def.yRange ?? [yLo, yHi];
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (hi - lo < 1e-12) [lo, hi] = [lo - 0.5, hi + 0.5];
  // A little room right of the newest update, so its points are not drawn on the frame.
  const sx = (u: number) => pad.left + (u / (xMax * 1.04)) * w;
  const sy = (v: number) => pad.top + h - ((v - lo) / (hi - lo)) * h;

  const parts: string[] = [`<g transform="translate(${at.x} ${at.y})" data-chart="${def.id}">`];
  parts.push(`<text x="${pad.left}" y="14" font-size="13" font-weight="600" fill="currentColor">${escapeXml(def.title)}</text>`);
  parts.push(`<rect x="${pad.left}" y="${pad.top}" width="${w}" height="${h}" fill="none" stroke="#adb5bd" stroke-width="1"/>`);
  for (const t of ticks(lo, hi)) {
    const y = sy(t).toFixed(1);
    parts.push(`<line x1="${pad.left}" x2="${pad.left + w}" y1="${y}" y2="${y}" stroke="#dee2e6" stroke-width="1"/>`);
    parts.push(`<text x="${pad.left - 4}" y="${y}" font-size="10" text-anchor="end" dominant-baseline="middle" fill="currentColor">${formatTick(t)}</text>`);
  }
  for (const t of ticks(0, xMax).filter((v) => Number.isInteger(v))) {
    const x = sx(t).toFixed(1);
    parts.push(`<text x="${x}" y="${pad.top + h + 13}" font-size="10" text-anchor="middle" fill="currentColor">${t}</text>`);
  }
  parts.push(`<text x="${pad.left + w / 2}" y="${pad.top + h + 28}" font-size="10" text-anchor="middle" fill="currentColor">update</text>`);
  for (const run of runs) {
    for (const metric of def.metrics) {
      const pts = curves[run]
        .filter((m) => typeof m[metric.key] === 'number' && Number.isFinite(m[metric.key] as number))
        .map((m) => `${sx(m.update).toFixed(1)},${sy(m[metric.key] as number).toFixed(1)}`);
      if (pts.length === 0) continue;
      const dash = dashOf(run);
      const label = escapeXml(`${run} ${metric.label}`);
      parts.push(
        `<polyline data-series="${label}" points="${pts.join(' ')}" fill="none" stroke="${metric.colour}" stroke-width="1.8"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
      );
      for (const p of pts) {
        const [x, y] = p.split(',');
        parts.push(`<circle cx="${x}" cy="${y}" r="2.2" fill="${metric.colour}"/>`);
      }
    }
  }
  // Legend: metric colours, then run dash patterns.
  let lx = pad.left + 4;
  const ly = pad.top + 10;
  for (const metric of def.metrics) {
    parts.push(`<rect x="${lx}" y="${ly - 6}" width="10" height="3" fill="${metric.colour}"/>`);
    parts.push(`<text x="${lx + 13}" y="${ly}" font-size="10" fill="currentColor">${escapeXml(metric.label)}</text>`);
    lx += 18 + metric.label.length * 5.6;
  }
  if (runs.length > 1) {
    for (const run of runs) {
      const dash = dashOf(run);
      parts.push(`<line x1="${lx}" x2="${lx + 16}" y1="${ly - 4}" y2="${ly - 4}" stroke="currentColor" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
      parts.push(`<text x="${lx + 19}" y="${ly}" font-size="10" fill="currentColor">${escapeXml(run)}</text>`);
      lx += 24 + run.length * 5.6;
    }
  }
  parts.push('</g>');
  return parts.join('');
}

export const CHART_WIDTH = 440;
export const CHART_HEIGHT = 220;

/** A standalone SVG document of one chart. */
export function chartSvg(def: ChartDef, curves: Record<string, UpdateMetrics[]>, width = CHART_WIDTH, height = CHART_HEIGHT): string {
  const body = chartGroup(def, curves, { x: 0, y: 0, width, height });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" role="img" aria-label="${escapeXml(def.title)}">${body}</svg>`;
}

/** Every chart in a two-column grid, on a white background: the SVG export and the source of the PNG. */
export function allChartsSvg(curves: Record<string, UpdateMetrics[]>): string {
  const cols = 2;
  const rows = Math.ceil(CHARTS.length / cols);
  const width = cols * CHART_WIDTH;
  const height = rows * CHART_HEIGHT;
  const groups = CHARTS.map((def, i) =>
    chartGroup(def, curves, { x: (i % cols) * CHART_WIDTH, y: Math.floor(i / cols) * CHART_HEIGHT, width: CHART_WIDTH, height: CHART_HEIGHT }),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="system-ui, sans-serif" color="#1d2330"><rect width="100%" height="100%" fill="#ffffff"/>${groups.join('')}</svg>`
  );
}

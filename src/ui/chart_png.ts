// The PNG export of the curves: every chart's canvas as uPlot drew it, two to a row on white, each under its
// title and over a legend of its series (colour, dash, label), so the file reads without the page.
import type { SeriesSpec } from './charts.ts';

interface ChartImage {
  title: string;
  canvas: HTMLCanvasElement;
  series: readonly Pick<SeriesSpec, 'label' | 'colour' | 'dash'>[];
}

const COLUMNS = 2;
const TITLE = 22;
const LEGEND_LINE = 15;
const PAD = 12;

export async function chartsPng(charts: readonly ChartImage[], scale = 2): Promise<Blob> {
  const cellWidth = Math.max(...charts.map((c) => c.canvas.clientWidth || c.canvas.width / scale), 300);
  const plotHeight = Math.max(...charts.map((c) => c.canvas.clientHeight || c.canvas.height / scale), 100);
  const legendLines = Math.max(...charts.map((c) => c.series.length), 0);
  const cellHeight = TITLE + plotHeight + PAD + legendLines * LEGEND_LINE + PAD;
  const rows = Math.ceil(charts.length / COLUMNS);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(COLUMNS * (cellWidth + PAD) * scale);
  canvas.height = Math.round(rows * cellHeight * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  ctx.scale(scale, scale);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  charts.forEach((chart, i) => {
    const x = (i % COLUMNS) * (cellWidth + PAD) + PAD / 2;
    const y = Math.floor(i / COLUMNS) * cellHeight;
    ctx.fillStyle = '#1d2330';
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.fillText(chart.title, x, y + 15);
    ctx.drawImage(chart.canvas, x, y + TITLE, cellWidth, plotHeight);
    ctx.font = '11px system-ui, sans-serif';
    chart.series.forEach((s, k) => {
      const ly = y + TITLE + plotHeight + PAD + k * LEGEND_LINE;
      ctx.strokeStyle = s.colour;
      ctx.lineWidth = 2;
      ctx.setLineDash(s.dash);
      ctx.beginPath();
      ctx.moveTo(x, ly + 5);
      ctx.lineTo(x + 22, ly + 5);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#1d2330';
      ctx.fillText(s.label, x + 28, ly + 9);
    });
  });
  return new Promise<Blob>((done, fail) =>
    canvas.toBlob((b) => (b ? done(b) : fail(new Error('PNG encoding failed'))), 'image/png'),
  );
}

import { useMemo } from 'react';
import { CHARTS, CHART_HEIGHT, CHART_WIDTH, allChartsSvg, chartSvg } from './charts.ts';
import { downloadBlob, downloadText, svgToPng } from './download.ts';
import { curvesCsv } from './run_record.ts';
import { usePlayground } from './store.ts';

export function Curves() {
  const curves = usePlayground((s) => s.record.curves);
  const charts = useMemo(() => CHARTS.map((def) => ({ def, svg: chartSvg(def, curves) })), [curves]);
  const points = Object.values(curves).reduce((n, list) => n + list.length, 0);

  const exportSvg = () => downloadText(allChartsSvg(curves), 'seed-curves.svg', 'image/svg+xml');
  const exportCsv = () => downloadText(curvesCsv(curves), 'seed-curves.csv', 'text/csv');
  const exportPng = async () => {
    const svg = allChartsSvg(curves);
    const rows = Math.ceil(CHARTS.length / 2);
    downloadBlob(await svgToPng(svg, 2 * CHART_WIDTH, rows * CHART_HEIGHT), 'seed-curves.png');
  };

  return (
    <section className="panel" aria-labelledby="curves-title" data-testid="curves" data-points={points}>
      <div className="panel-head">
        <h2 id="curves-title">Curves</h2>
        <div className="button-row">
          <button type="button" className="secondary" onClick={() => void exportPng()} disabled={points === 0} data-testid="export-png">
            PNG
          </button>
          <button type="button" className="secondary" onClick={exportSvg} disabled={points === 0} data-testid="export-svg">
            SVG
          </button>
          <button type="button" className="secondary" onClick={exportCsv} disabled={points === 0} data-testid="export-csv">
            CSV
          </button>
        </div>
      </div>
      {points === 0 ? (
        <p className="hint">Each update adds a point per run: success on eval-seen and eval-unseen, reward, loss terms, gate.</p>
      ) : null}
      <div className="charts">
        {charts.map(({ def, svg }) => (
          <figure key={def.id} className="chart" data-testid={`chart-${def.id}`} dangerouslySetInnerHTML={{ __html: svg }} />
        ))}
      </div>
    </section>
  );
}

import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { ALGO_COLOURS, X_LABELS, chartData, worldCharts, type XAxis } from './charts.ts';
import { chartsPng } from './chart_png.ts';
import { curvesCsv } from './curves_csv.ts';
import { downloadBlob, downloadText } from './download.ts';
import { raceCurves } from './race/store.ts';
import { useRecorded, useRecordedOf } from './recorded_store.ts';
import { DEFAULT_SMOOTHING, MAX_SMOOTHING } from './smoothing.ts';
import { usePlayground } from './store.ts';
import { UPlotChart, type ChartCanvas } from './UPlotChart.tsx';
import { factsOf, theWorld } from '../worlds/facts.ts';
import { usePageWorld } from './world.ts';
import './curves.css';

export function Curves() {
  const curves = usePlayground((s) => s.record.curves);
  const liveSeed = usePlayground((s) => s.runSettings?.seed ?? null);
  const marker = useRecorded((s) => s.update);
  // The recorded run of the page's world: a world with none shows the live run alone.
  const world = usePageWorld();
  const recordedLoad = useRecordedOf(world);
  const recorded = recordedLoad.state === 'ready' ? recordedLoad.run : null;
  const { scored } = factsOf(world);
  const [weight, setWeight] = useState(DEFAULT_SMOOTHING);
  const [showRaw, setShowRaw] = useState(true);
  const [showTrain, setShowTrain] = useState(false);
  const [fixedY, setFixedY] = useState(false);
  const [x, setX] = useState<XAxis>('update');
  const xId = useId();
  const smoothingId = useId();
  const rawId = useId();
  const trainId = useId();
  const fixedId = useId();
  // The same definitions while the world stays, so that a chart is not rebuilt at every point.
  const defs = useMemo(() => worldCharts(world), [world]);
  const charts = useMemo(
    () => defs.map((def) => ({ def, data: chartData(def, curves, recorded, { weight, showRaw, showTrain, x }) })),
    [defs, curves, recorded, weight, showRaw, showTrain, x],
  );
  const plots = useRef(new Map<string, ChartCanvas>());
  const register = useCallback((id: string, plot: ChartCanvas | null) => {
    if (plot) plots.current.set(id, plot);
    else plots.current.delete(id);
  }, []);
  // The scrubbed recorded update, in the x axis's units (a recording keeps no wall time).
  const markerX =
    recorded && marker !== null && x !== 'wall'
      ? x === 'episodes'
        ? marker * recorded.episodesPerUpdate
        : marker
      : null;
  // Points of finished updates (the warm start's evaluation, update 0, is not one): tools and tests read it as the updates done.
  const points = Object.values(curves).reduce((n, list) => n + list.filter((m) => m.update > 0).length, 0);
  const hasData = points > 0 || recorded !== null || Object.keys(curves).length > 0;

  const exportCsv = () =>
    downloadText(curvesCsv(curves, recorded, liveSeed, raceCurves(), scored), 'seed-curves.csv', 'text/csv');
  const exportPng = async () => {
    const images = charts.flatMap(({ def, data }) => {
      const plot = plots.current.get(def.id);
      return plot ? [{ title: def.title, canvas: plot.canvas(), series: data.series }] : [];
    });
    downloadBlob(await chartsPng(images), 'seed-curves.png');
  };

  return (
    <section className="panel" aria-labelledby="curves-title" data-testid="curves" data-points={points}>
      <div className="panel-head">
        <h2 id="curves-title">Curves</h2>
        <div className="button-row">
          <button
            type="button"
            className="secondary"
            onClick={() => void exportPng()}
            disabled={!hasData}
            data-testid="export-png"
          >
            PNG
          </button>
          <button type="button" className="secondary" onClick={exportCsv} disabled={!hasData} data-testid="export-csv">
            CSV
          </button>
        </div>
      </div>
      <div className="curve-controls">
        <label htmlFor={smoothingId}>Smoothing</label>
        <input
          id={smoothingId}
          type="range"
          min={0}
          max={MAX_SMOOTHING}
          step={0.01}
          value={weight}
          onChange={(e) => setWeight(Number(e.target.value))}
          aria-valuetext={weight === 0 ? 'off' : `exponential moving average, weight ${weight.toFixed(2)}`}
          data-testid="smoothing"
        />
        <output htmlFor={smoothingId}>{weight === 0 ? 'off' : weight.toFixed(2)}</output>
        <span>
          <input
            id={rawId}
            type="checkbox"
            checked={showRaw}
            disabled={weight === 0}
            onChange={(e) => setShowRaw(e.target.checked)}
            data-testid="show-raw"
          />{' '}
          <label htmlFor={rawId}>show raw values too</label>
        </span>
        <span>
          <input
            id={trainId}
            type="checkbox"
            checked={showTrain}
            onChange={(e) => setShowTrain(e.target.checked)}
            data-testid="show-train"
          />{' '}
          <label htmlFor={trainId}>training rollouts on the eval charts</label>
        </span>
        <span>
          <input
            id={fixedId}
            type="checkbox"
            checked={fixedY}
            onChange={(e) => setFixedY(e.target.checked)}
            data-testid="fixed-y"
          />{' '}
          <label htmlFor={fixedId}>fixed y range (each chart’s full scale)</label>
        </span>
        <span>
          <label htmlFor={xId}>x axis</label>{' '}
          <select id={xId} value={x} onChange={(e) => setX(e.target.value as XAxis)} data-testid="x-axis">
            {(Object.keys(X_LABELS) as XAxis[]).map((k) => (
              <option key={k} value={k}>
                {X_LABELS[k]}
              </option>
            ))}
          </select>
        </span>
      </div>
      <p className="hint">
        Colour is the algorithm (<span className="swatch" style={{ background: ALGO_COLOURS.seed }} /> SEED,{' '}
        <span className="swatch" style={{ background: ALGO_COLOURS.grpo }} /> GRPO, other colours the other algorithms);
        solid lines are the run training here, dashed ones the recorded run, with its 95% band over seeds
        {recordedLoad.state === 'none' ? ` (none is recorded for ${theWorld(world)}, so this run is drawn alone)` : ''}.
        A chart of several figures of one run gives each its own colour and dash. The y axis fits the data unless the
        range is fixed. Hover a chart to read every series at an update; drag to zoom, double-click to zoom out.
        Smoothing (an exponential moving average) applies to the live run.
      </p>
      {points === 0 ? (
        <p className="hint">
          Each update adds a point per run: success on eval-seen and eval-unseen, reward, loss terms, gate.
        </p>
      ) : null}
      <div className="charts">
        {charts.map(({ def, data }) => (
          <UPlotChart key={def.id} def={def} data={data} marker={markerX} register={register} fixedY={fixedY} />
        ))}
      </div>
    </section>
  );
}

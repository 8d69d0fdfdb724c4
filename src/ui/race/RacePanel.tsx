// Race mode: one button trains GRPO and SEED side by side from the same weights on the same tasks, each in
// its own worker on half the cores, and shows both live with their paired difference (store.ts).
import { useMemo } from 'react';
import { curvesCsv } from '../curves_csv.ts';
import { downloadText } from '../download.ts';
import { RACE_DIFFERENCE, RACE_SUCCESS, raceDifferenceData, raceSuccessData } from './chart.ts';
import { changedSinceStart, coresHere, racePlan } from './plan.ts';
import { raceCurves, useRace } from './store.ts';
import { useRecorded } from '../recorded_store.ts';
import { armName, SETTING_LABELS } from '../setting_labels.ts';
import { usePlayground } from '../store.ts';
import { UPlotChart } from '../UPlotChart.tsx';
import { theWorld } from '../../worlds/facts.ts';
import { RaceReadout } from './RaceReadout.tsx';
import '../curves.css';
import './race.css';

const noRegister = () => undefined;

const PHASE_TEXT = {
  idle: 'not started',
  starting: 'starting both workers…',
  playing: 'racing',
  paused: 'paused',
  stopped: 'stopped',
  failed: 'failed',
} as const;

function exportCsv(): void {
  const page = usePlayground.getState();
  const recordedLoad = useRecorded.getState().recorded;
  const recorded = recordedLoad.state === 'ready' ? recordedLoad.run : null;
  downloadText(
    curvesCsv(page.record.curves, recorded, page.runSettings?.seed ?? null, raceCurves()),
    'seed-curves.csv',
    'text/csv',
  );
}

function RaceButtons() {
  const { phase, start, play, pause, stop } = useRace();
  const hasPoints = useRace((s) => s.arms.some((a) => a.curve.length > 0));
  const running = phase === 'starting' || phase === 'playing';
  return (
    <div className="button-row">
      <button type="button" onClick={() => void start()} disabled={running} data-testid="race-start">
        {phase === 'idle' ? 'Race GRPO vs SEED' : 'Race again'}
      </button>
      {phase === 'paused' ? (
        <button type="button" className="secondary" onClick={() => void play()} data-testid="race-play">
          Play race
        </button>
      ) : (
        <button
          type="button"
          className="secondary"
          onClick={() => void pause()}
          disabled={phase !== 'playing'}
          data-testid="race-pause"
        >
          Pause race
        </button>
      )}
      <button
        type="button"
        className="secondary"
        onClick={stop}
        disabled={phase === 'idle' || phase === 'stopped' || phase === 'failed'}
        data-testid="race-stop"
      >
        Stop
      </button>
      <button
        type="button"
        className="secondary"
        onClick={exportCsv}
        disabled={!hasPoints}
        data-testid="race-export-csv"
      >
        CSV
      </button>
    </div>
  );
}

export function RacePanel() {
  const phase = useRace((s) => s.phase);
  const arms = useRace((s) => s.arms);
  const started = useRace((s) => s.settings);
  const message = useRace((s) => s.message);
  const page = usePlayground((s) => s.settings);
  const cores = coresHere();
  const plan = racePlan(page, cores);
  const changed = started && phase !== 'failed' && phase !== 'stopped' ? changedSinceStart(started, page) : [];
  const success = useMemo(
    () =>
      raceSuccessData(
        arms.map((a) => a.algo),
        arms.map((a) => a.curve),
      ),
    [arms],
  );
  const difference = useMemo(
    () => (arms.length === 2 ? raceDifferenceData(arms[0].curve, arms[1].curve) : null),
    [arms],
  );
  return (
    <section className="panel race" aria-labelledby="race-title" data-testid="race" data-phase={phase}>
      <div className="panel-head">
        <h2 id="race-title">Race: does SEED beat GRPO?</h2>
        <RaceButtons />
      </div>
      <p className="hint" data-testid="race-hint">
        Trains GRPO and {armName((started ? arms[1]?.algo : undefined) ?? plan.arms[1])} side by side in{' '}
        {theWorld((started ?? page).env)}, from the same starting weights (the run’s warm start where one ships) with
        the page’s settings (seed {started?.seed ?? page.seed}: the same training tasks and evaluation games for both),
        each in its own worker (on the CPU backend, {plan.threads === 1 ? 'one thread' : `${plan.threads} threads`} of
        this machine’s {cores}). The page’s own run pauses while the race plays, and playing it pauses the race. The
        race keeps the settings it started with: edits apply to the next race.
      </p>
      <p data-testid="race-status" data-phase={phase}>
        Race: {PHASE_TEXT[phase]}
      </p>
      {message ? (
        <div
          className={`banner ${phase === 'failed' ? 'banner-error' : 'banner-warn'}`}
          role="alert"
          data-testid="race-message"
        >
          {message}
        </div>
      ) : null}
      {changed.length > 0 ? (
        <p className="hint" data-testid="race-settings-changed">
          Changed since the race started ({changed.map((key) => SETTING_LABELS[key].label).join(', ')}): they apply to
          the next race.
        </p>
      ) : null}
      {arms.length === 2 && started ? (
        <RaceReadout arms={arms} evalEvery={started.evalEvery} playing={phase === 'playing'} />
      ) : null}
      {success.xs.length > 0 ? (
        <div className="charts race-charts">
          <UPlotChart def={RACE_SUCCESS} data={success} marker={null} register={noRegister} fixedY={false} />
          {difference ? (
            <UPlotChart def={RACE_DIFFERENCE} data={difference} marker={null} register={noRegister} fixedY={false} />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

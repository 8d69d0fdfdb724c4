// What the first screen holds beside the run's controls and its "Now" numbers: the large chart of eval-unseen
// success, where the live run grows over the recorded GRPO and SEED runs, the one-sentence finding of the
// recorded benchmark, and the words of the header that name the backend that actually trains.
import { useMemo, type ReactNode } from 'react';
import { RECORDED_WORLD, type RecordedRun } from '../rl/recorded_run.ts';
import { factsOf } from '../worlds/facts.ts';
import { CHARTS, chartData, type ChartDef, type SeriesSpec } from './charts.ts';
import { findingOf } from './finding.ts';
import { useRecorded } from './recorded_store.ts';
import { usePlayground } from './store.ts';
import { UPlotChart } from './UPlotChart.tsx';
import { usePageWorld } from './world.ts';

const EVAL_UNSEEN = CHARTS.find((c) => c.id === 'success-unseen')!;

const HEADLINE: ChartDef = {
  ...EVAL_UNSEEN,
  id: 'headline-unseen',
  title: `Success on eval-unseen (${factsOf(RECORDED_WORLD).words.evalGames.unseen}): this run (solid) over the recorded benchmark (dashed, 95% bands)`,
};

/** The headline of a world with no recorded benchmark: the run alone (the recorded world's benchmark is not drawn). */
const HEADLINE_ALONE: ChartDef = {
  ...HEADLINE,
  recorded: null,
  title: `Success on eval-unseen (games never trained on): this run (the recorded benchmark is the ${RECORDED_WORLD}’s, so it is not drawn)`,
};

/** The chart's height: most of a phone's screen width, more on a wide screen. */
function headlineHeight(): number {
  return typeof window !== 'undefined' && window.innerWidth >= 900 ? 400 : 170;
}

const noRegister = () => undefined;

/** Only the benchmark's main arms (GRPO and the SEED arm it asks about): the controls stay in the curves below. */
function mainArms(run: RecordedRun): RecordedRun {
  return { ...run, arms: run.arms.filter((a) => a.role === 'main') };
}

/** The recorded arm or the live run a series is, in a word or two: the chips must fit a phone's width. */
function shortLabel(s: SeriesSpec): string {
  return `${s.run} ${s.source === 'live' ? 'live' : 'recorded'}`;
}

export function HeadlineChart({ children }: { children?: ReactNode }) {
  const curves = usePlayground((s) => s.record.curves);
  const recordedLoad = useRecorded((s) => s.recorded);
  const recordedHere = usePageWorld() === RECORDED_WORLD;
  const def = recordedHere ? HEADLINE : HEADLINE_ALONE;
  const recorded = useMemo(
    () => (recordedLoad.state === 'ready' && recordedHere ? mainArms(recordedLoad.run) : null),
    [recordedLoad, recordedHere],
  );
  // Raw points, one series per live run: the first screen reads at a glance (the curves below smooth).
  const data = useMemo(() => {
    const full = chartData(def, curves, recorded, { weight: 0, showRaw: false });
    return { ...full, series: full.series.map((s) => ({ ...s, label: shortLabel(s) })) };
  }, [def, curves, recorded]);
  const height = useMemo(headlineHeight, []);
  return (
    <section className="panel headline" aria-label="Eval-unseen success, live and recorded" data-testid="headline">
      <UPlotChart def={def} data={data} marker={null} register={noRegister} fixedY={false} height={height} />
      {children}
    </section>
  );
}

export function FindingSentence() {
  const recorded = useRecorded((s) => s.recorded);
  const world = usePageWorld();
  if (world !== RECORDED_WORLD) {
    return (
      <p className="finding muted" data-testid="finding" data-state="other-world">
        The recorded benchmark and its finding are the {RECORDED_WORLD}’s: no {world} run is recorded yet, so this run
        is shown alone.
      </p>
    );
  }
  const finding = recorded.state === 'ready' ? findingOf(recorded.run) : null;
  if (!finding) {
    return (
      <p className="finding muted" data-testid="finding" data-state={recorded.state}>
        {recorded.state === 'loading' ? 'Loading the recorded benchmark…' : 'No recorded benchmark to compare with.'}
      </p>
    );
  }
  return (
    <p
      className="finding"
      data-testid="finding"
      data-state="ready"
      data-arm={finding.arm}
      data-value={finding.value}
      data-ci={finding.ci.join(',')}
      data-verdict={finding.verdict}
    >
      <strong>The finding so far:</strong> {finding.text}
    </p>
  );
}

/** Where the run trains, as the engine chose: the CPU with its threads, or WebGPU. */
export function TrainingBackend() {
  const backend = usePlayground((s) => s.info?.backend);
  if (!backend) return <span data-testid="header-backend">is starting</span>;
  const threads = backend.cpuThreads?.threads ?? 1;
  const where = backend.kind === 'webgpu' ? 'on WebGPU' : `on the CPU (${threads} thread${threads === 1 ? '' : 's'})`;
  return (
    <span data-testid="header-backend" data-kind={backend.kind}>
      trains {where}
    </span>
  );
}

// What the first screen holds beside the run's controls and its "Now" numbers: the large chart of eval-unseen
// success, where the live run grows over the main arms of the recorded benchmark of the page's world (GRPO and
// the distilling arm it compares), the one-sentence finding of that benchmark, or a plain word that the world has
// none, and the words of the header that name the backend that actually trains.
import { useMemo, type ReactNode } from 'react';
import { factsOf, theWorld } from '../worlds/facts.ts';
import type { EnvironmentName } from '../worlds/names.ts';
import { CHARTS, chartData, type ChartDef, type SeriesSpec } from './charts.ts';
import { findingOf, headlineArms } from './finding.ts';
import { armName } from './setting_labels.ts';
import type { RecordedLoad } from './recorded_load.ts';
import { useRecordedOf } from './recorded_store.ts';
import { SettingsDifference } from './SettingsDifference.tsx';
import { usePlayground } from './store.ts';
import { UPlotChart } from './UPlotChart.tsx';
import { usePageWorld } from './world.ts';

const EVAL_UNSEEN = CHARTS.find((c) => c.id === 'success-unseen')!;

/** What the headline says of the recorded benchmark: drawn (or on its way), or why the run is drawn alone. */
function headlineNote(world: EnvironmentName, state: RecordedLoad['state']): string {
  if (state === 'none') return `this run alone (no benchmark of ${theWorld(world)} is recorded)`;
  if (state === 'failed') return 'this run alone (the recorded benchmark was not read)';
  return 'this run (solid) over the recorded benchmark (dashed, 95% bands)';
}

function headlineDef(world: EnvironmentName, state: RecordedLoad['state']): ChartDef {
  return {
    ...EVAL_UNSEEN,
    id: 'headline-unseen',
    title: `Success on eval-unseen (${factsOf(world).words.evalGames.unseen}): ${headlineNote(world, state)}`,
  };
}

/** The chart's height: most of a phone's screen width, more on a wide screen. */
function headlineHeight(): number {
  return typeof window !== 'undefined' && window.innerWidth >= 900 ? 400 : 170;
}

const noRegister = () => undefined;

/** The recorded arm or the live run a series is, in a word or two: the chips must fit a phone's width. */
function shortLabel(s: SeriesSpec): string {
  return `${armName(s.run)} ${s.source === 'live' ? 'live' : 'recorded'}`;
}

export function HeadlineChart({ children }: { children?: ReactNode }) {
  const curves = usePlayground((s) => s.record.curves);
  const world = usePageWorld();
  const recordedLoad = useRecordedOf(world);
  // The same definition while the world and what it says of the benchmark stay: a new one makes the chart again.
  const def = useMemo(() => headlineDef(world, recordedLoad.state), [world, recordedLoad.state]);
  const recorded = useMemo(
    () => (recordedLoad.state === 'ready' ? headlineArms(recordedLoad.run) : null),
    [recordedLoad],
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
      {recordedLoad.state === 'ready' ? <SettingsDifference run={recordedLoad.run} /> : null}
    </section>
  );
}

/** The finding's place while there is none: loading, the world has no record, or it was not read. */
function noFindingText(world: EnvironmentName, state: RecordedLoad['state']): string {
  if (state === 'loading') return `Loading ${theWorld(world)}’s recorded benchmark…`;
  if (state === 'none') return `No benchmark of ${theWorld(world)} is recorded yet, so this run is shown alone.`;
  if (state === 'failed')
    return `${theWorld(world, true)}’s recorded benchmark was not read, so this run is shown alone.`;
  return `${theWorld(world, true)}’s recorded benchmark compares no arm with GRPO.`;
}

export function FindingSentence() {
  const world = usePageWorld();
  const recorded = useRecordedOf(world);
  const finding = recorded.state === 'ready' ? findingOf(recorded.run) : null;
  if (!finding) {
    return (
      <p
        className="finding muted"
        data-testid="finding"
        data-world={world}
        data-state={recorded.state === 'ready' ? 'no-comparison' : recorded.state}
      >
        {noFindingText(world, recorded.state)}
      </p>
    );
  }
  return (
    <p
      className="finding"
      data-testid="finding"
      data-world={finding.world}
      data-state="ready"
      data-arm={finding.arm}
      data-value={finding.value}
      data-ci={finding.ci.join(',')}
      data-verdict={finding.verdict}
    >
      <strong>The recorded finding:</strong> {finding.text}
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

// The settings a recorded run ran at, as the page's settings: a live run of the record's world and model preset
// takes them as its defaults (a link's own settings win), so that it is drawn over recorded bands of the same
// settings, and a run carried elsewhere (export-verl) reads them as the playground's defaults, not as choices.
import type { TrainConfig } from './config.ts';
import { isBaseline, ofAlgo, type Algo } from './arms.ts';
import {
  PAGE_TRAIN_KEYS,
  numberProblem,
  numberSpecOf,
  presetDefaultsKeeping,
  runIdsOf,
  type NumericKey,
  type Settings,
} from './page_settings.ts';
import type { RecordedArm, RecordedRun } from './recorded_run.ts';
import { recordWorld } from './recorded_run_check.ts';

/** The arm the record's finding is about: its headline arm, else its first main arm that is not GRPO, else its first. */
function headlineArm(run: RecordedRun): RecordedArm | null {
  const main = run.arms.filter((a) => a.role === 'main');
  return (
    (run.headline === undefined ? undefined : main.find(ofAlgo(run.headline))) ??
    main.find((a) => !isBaseline(a.algo)) ??
    main[0] ??
    run.arms[0] ??
    null
  );
}

/** The recorded arm a live run of `algo` is drawn beside: the main arm of that algorithm, else the headline arm. */
export function armBeside(run: RecordedRun, algo: Algo): RecordedArm | null {
  return run.arms.filter((a) => a.role === 'main').find(ofAlgo(algo)) ?? headlineArm(run);
}

/** The arm whose settings a live run of the page's algorithm takes: its own where recorded, else the headline's. */
function armFor(run: RecordedRun, algo: Settings['algo']): RecordedArm | null {
  const ids = runIdsOf(algo);
  return ids.length === 1 ? armBeside(run, ids[0]) : headlineArm(run);
}

/** The eval games a split a live run plays to match the record: as many as it played, up to the world's most. */
function recordedEvalGames(run: RecordedRun): number {
  const { max } = numberSpecOf('evalEpisodes', recordWorld(run));
  return Math.min(run.evalGames.seen, run.evalGames.unseen, max);
}

/**
 * The page's settings that the recorded run ran at, for a live run of `algo`: the base configuration's training
 * settings the page shows, the arm's learning rate and lambda, the decoding, and the eval games a split. A value the
 * page refuses, and a setting the record does not keep, are left out.
 */
export function recordedSettings(run: RecordedRun, algo: Settings['algo']): Partial<Settings> {
  const env = recordWorld(run);
  const arm = armFor(run, algo);
  const config: Partial<TrainConfig> = { ...run.config, lr: arm?.lr ?? run.config?.lr, lambda: arm?.lambda };
  const out: Partial<Record<NumericKey, number>> = {};
  const take = (key: NumericKey, value: number | undefined) => {
    if (value !== undefined && numberProblem(key, value, String(value), env) === null) out[key] = value;
  };
  for (const key of PAGE_TRAIN_KEYS) take(key, config[key]);
  take('evalEpisodes', recordedEvalGames(run));
  const constrained = run.config?.constrained;
  const decoding = constrained === undefined ? {} : { decoding: constrained === 1 ? 'constrained' : 'free' };
  return { ...out, ...(decoding as Partial<Settings>) };
}

/**
 * `settings` with the recorded run's where the record is of their world and model preset; the settings in `named`
 * (those a link gave) are kept. Without such a record, `settings` as they are.
 */
export function withRecordedDefaults(
  settings: Settings,
  run: RecordedRun | null,
  named: readonly (keyof Settings)[] = [],
): Settings {
  if (!run || recordWorld(run) !== settings.env || run.preset !== settings.preset) return settings;
  const recorded = recordedSettings(run, settings.algo) as Record<string, unknown>;
  const out = { ...settings } as Record<string, unknown>;
  for (const [key, value] of Object.entries(recorded)) if (!named.includes(key as keyof Settings)) out[key] = value;
  return out as unknown as Settings;
}

/**
 * The playground's defaults for a run of these settings (their preset and world, their algorithm, seed and backend):
 * the page's own, or the recorded run's settings where `run` is a record of that world and preset.
 */
export function playgroundDefaults(settings: Settings, run: RecordedRun | null): Settings {
  return withRecordedDefaults(presetDefaultsKeeping(settings), run);
}

// The live run beside the recorded run of its world: the settings the recorded run ran at, which a live run of the
// record's world and model takes as its defaults (a link's own settings win), and the one line the headline chart
// says when the live run's settings differ from the recorded run's, so that a live point is never read against
// recorded bands of other settings without a word.
import { distils, type Algo, type TrainConfig } from '../rl/config.ts';
import {
  PAGE_TRAIN_KEYS,
  numberProblem,
  numberSpecOf,
  runIdsOf,
  type NumericKey,
  type Settings,
} from '../rl/page_settings.ts';
import type { RecordedArm, RecordedRun } from '../rl/recorded_run.ts';
import { recordWorld } from '../rl/recorded_run_check.ts';
import { SETTING_LABELS } from './setting_labels.ts';

/** The arm the record's finding is about: its headline arm, else its first main arm that is not GRPO, else its first. */
function headlineArm(run: RecordedRun): RecordedArm | null {
  const main = run.arms.filter((a) => a.role === 'main');
  return (
    main.find((a) => a.algo === run.headline) ?? main.find((a) => a.algo !== 'grpo') ?? main[0] ?? run.arms[0] ?? null
  );
}

/** The recorded arm a live run of `algo` is drawn beside: the main arm of that algorithm, else the headline arm. */
function armBeside(run: RecordedRun, algo: Algo): RecordedArm | null {
  return run.arms.find((a) => a.role === 'main' && a.algo === algo) ?? headlineArm(run);
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

export interface SettingDifference {
  key: keyof Settings;
  /** The setting's label on the page. */
  label: string;
  live: string;
  recorded: string;
}

/**
 * The settings at which the live run differs from the recorded run it is drawn over: the model preset, the eval games
 * a split, and per live run the learning rate and (where it distils) the lambda of the recorded arm beside it, then
 * every other training setting the page shows that the record keeps.
 */
export function settingsDifferences(live: Settings, run: RecordedRun): SettingDifference[] {
  const out: SettingDifference[] = [];
  const add = (key: keyof Settings, mine: string | number, theirs: string | number) => {
    const entry = { key, label: SETTING_LABELS[key].label, live: String(mine), recorded: String(theirs) };
    if (entry.live !== entry.recorded && !out.some((d) => d.key === key && d.recorded === entry.recorded))
      out.push(entry);
  };
  add('preset', live.preset, run.preset);
  const { seen, unseen } = run.evalGames;
  if (live.evalEpisodes !== seen || live.evalEpisodes !== unseen)
    out.push({
      key: 'evalEpisodes',
      label: SETTING_LABELS.evalEpisodes.label,
      live: String(live.evalEpisodes),
      recorded: seen === unseen ? String(seen) : `${seen} seen, ${unseen} unseen`,
    });
  for (const id of runIdsOf(live.algo)) {
    const arm = armBeside(run, id);
    if (!arm) continue;
    add('lr', live.lr, arm.lr);
    if (distils(id) && arm.lambda !== undefined) add('lambda', live.lambda, arm.lambda);
  }
  const config = run.config ?? {};
  for (const key of PAGE_TRAIN_KEYS) {
    const value = config[key];
    if (key !== 'lr' && key !== 'lambda' && value !== undefined) add(key, live[key], value);
  }
  if (config.constrained !== undefined)
    add('decoding', live.decoding, config.constrained === 1 ? 'constrained' : 'free');
  return out;
}

/** The differences the line names one by one; past them it counts the rest (`full` names every one). */
const NAMED_DIFFERENCES = 4;

/**
 * The headline's one line on the settings: null when the live run's are the recorded run's. It names the first
 * few differences and counts the others, unless `full`.
 */
export function differenceLine(differences: readonly SettingDifference[], full = false): string | null {
  if (differences.length === 0) return null;
  const shown = full ? differences : differences.slice(0, NAMED_DIFFERENCES);
  const parts = shown.map((d) => `${d.label} ${d.live} (recorded: ${d.recorded})`);
  const more = differences.length - shown.length;
  const rest = more > 0 ? ` and ${more} more setting${more === 1 ? '' : 's'}` : '';
  return `This run’s settings differ from the recorded run’s: ${parts.join(', ')}${rest}.`;
}

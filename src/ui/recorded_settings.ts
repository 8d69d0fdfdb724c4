// The line the headline chart says when the live run's settings differ from those of the recorded run it is drawn
// over (rl/recorded_defaults.ts: the recorded run's settings, the live run's defaults), so that a live point is never
// read against recorded bands of other settings without a word.
import { distils } from '../rl/arms.ts';
import { PAGE_TRAIN_KEYS, runIdsOf, type Settings } from '../rl/page_settings.ts';
import { armBeside } from '../rl/recorded_defaults.ts';
import type { RecordedRun } from '../rl/recorded_run.ts';
import { SETTING_LABELS } from './setting_labels.ts';

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

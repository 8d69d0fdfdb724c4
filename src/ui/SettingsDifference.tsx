// The headline chart's line on the settings: how the live run's differ from those of the recorded run it is drawn
// over (recorded_settings.ts), in one line, or nothing when they agree.
import { useMemo } from 'react';
import type { RecordedRun } from '../rl/recorded_run.ts';
import { differenceLine, settingsDifferences } from './recorded_settings.ts';
import { usePlayground } from './store.ts';

export function SettingsDifference({ run }: { run: RecordedRun }) {
  // The settings of the run now training (an edit applies at its next update), or those of the run starting.
  const live = usePlayground((s) => s.runSettings ?? s.settings);
  const differences = useMemo(() => settingsDifferences(live, run), [live, run]);
  const line = differenceLine(differences);
  if (!line) return null;
  return (
    <p
      className="hint settings-difference"
      data-testid="settings-difference"
      data-keys={differences.map((d) => d.key).join(' ')}
      title={differenceLine(differences, true) ?? undefined}
    >
      {line}
    </p>
  );
}

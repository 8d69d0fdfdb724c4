import { useEffect, useId, useState } from 'react';
import {
  CHOICE_SPECS,
  PAGE_NUMBER_KEYS,
  PAGE_TRAIN_KEYS,
  RESET_KEYS,
  numberProblem,
  numberSpecOf,
  withPaperValues,
  type NumericKey,
  type Settings,
} from '../rl/page_settings.ts';
import { PRESET_LABELS, PRESET_NOTES, shippedWarmStartsSentence } from './explain.ts';
import { CopyLink } from './CopyLink.tsx';
import { ShortcutList } from './Guide.tsx';
import { ALGORITHM_LABELS, SETTING_LABELS, WORLD_LABELS } from './setting_labels.ts';
import { usePlayground } from './store.ts';
import { theWorld } from '../worlds/facts.ts';
import { namedWorld } from '../worlds/names.ts';

/** Play, Step, Next stage and Reset, with the engine's state: the first screen's controls. */
export function Transport() {
  const engine = usePlayground((s) => s.engine);
  const status = usePlayground((s) => s.record.status);
  const env = usePlayground((s) => s.settings.env);
  const play = usePlayground((s) => s.play);
  const pause = usePlayground((s) => s.pause);
  const stepUpdate = usePlayground((s) => s.stepUpdate);
  const stepStage = usePlayground((s) => s.stepStage);
  const reset = usePlayground((s) => s.reset);
  const ready = engine.state === 'ready';
  const playing = engine.state === 'playing';

  return (
    <section className="panel transport" aria-labelledby="controls-title" data-testid="transport">
      <div className="panel-head">
        <h2 id="controls-title">Training</h2>
        <span
          className="engine-state"
          data-testid="engine-state"
          data-state={engine.state}
          role="status"
          aria-live="polite"
        >
          {engine.state === 'starting' &&
            (namedWorld(env) === undefined ? 'Loading the warm-start policy…' : `Starting a run in ${theWorld(env)}…`)}
          {engine.state === 'ready' && 'Ready'}
          {engine.state === 'playing' && `Training…${status ? ` (${status})` : ''}`}
          {engine.state === 'busy' && `Busy: ${engine.what}…`}
          {engine.state === 'failed' && `Failed: ${engine.message}`}
        </span>
      </div>
      <div className="button-row" role="toolbar" aria-label="Run controls">
        {playing ? (
          <button type="button" onClick={() => void pause()} data-testid="pause">
            Pause
          </button>
        ) : (
          <button type="button" onClick={() => void play()} disabled={!ready} data-testid="play">
            Play
          </button>
        )}
        <button type="button" onClick={() => void stepUpdate()} disabled={!ready} data-testid="step-update">
          Step one update
        </button>
        <button type="button" onClick={() => void stepStage()} disabled={!ready} data-testid="step-stage">
          Next stage
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => void reset()}
          disabled={engine.state === 'starting'}
          data-testid="reset"
        >
          Reset
        </button>
      </div>
      <ShortcutList />
      {engine.state === 'failed' ? (
        <div className="banner banner-error" role="alert" data-testid="start-failed">
          <strong>The run stopped:</strong> {engine.message}.
          <p>Reset tries again; choosing another preset or any other setting starts a new run.</p>
        </div>
      ) : null}
    </section>
  );
}

/** The settings form, below the first screen: the run's choices and the hyper-parameters. */
export function SettingsPanel() {
  return (
    <section className="panel" aria-labelledby="settings-title" data-testid="settings">
      <div className="panel-head">
        <h2 id="settings-title">Settings</h2>
        <CopyLink />
      </div>
      <SettingsFields />
    </section>
  );
}

function SettingsFields() {
  const settings = usePlayground((s) => s.settings);
  const setSettings = usePlayground((s) => s.setSettings);
  const setDefaults = usePlayground((s) => s.setDefaults);
  const update = (patch: Partial<Settings>) => void setSettings({ ...settings, ...patch });

  return (
    <div className="settings">
      <p className="hint preset-note" data-testid="preset-note" data-preset={settings.preset}>
        <strong>What to look for:</strong> {PRESET_NOTES[settings.preset]}
        {namedWorld(settings.env) === undefined ? null : ` ${shippedWarmStartsSentence(settings.env)}`}
      </p>
      {/* The choices span the form's width, each select as wide as its label: a world's or an algorithm's name is
          long, and a select cut to a column would hide the part that tells them apart. */}
      <fieldset className="choices" data-testid="setting-choices">
        <legend>World and method</legend>
        <ChoiceField
          settingKey="env"
          value={settings.env}
          labels={WORLD_LABELS}
          onChange={(v) => void setDefaults(settings.preset, v as Settings['env'])}
        />
        <ChoiceField
          settingKey="algo"
          value={settings.algo}
          labels={ALGORITHM_LABELS}
          onChange={(v) => update({ algo: v as Settings['algo'] })}
        />
        <ChoiceField
          settingKey="preset"
          value={settings.preset}
          labels={PRESET_LABELS}
          onChange={(v) => void setDefaults(v as Settings['preset'])}
        />
        <ChoiceField
          settingKey="backend"
          value={settings.backend}
          onChange={(v) => update({ backend: v as Settings['backend'] })}
        />
        <ChoiceField
          settingKey="decoding"
          value={settings.decoding}
          onChange={(v) => update({ decoding: v as Settings['decoding'] })}
        />
      </fieldset>
      <fieldset>
        <legend>Run</legend>
        {PAGE_NUMBER_KEYS.map((key) => (
          <NumberField
            key={key}
            settingKey={key}
            value={settings[key]}
            env={settings.env}
            onCommit={(v) => update({ [key]: v })}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Hyper-parameters</legend>
        {PAGE_TRAIN_KEYS.map((key) => (
          <NumberField
            key={key}
            settingKey={key}
            value={settings[key]}
            env={settings.env}
            onCommit={(v) => update({ [key]: v })}
          />
        ))}
        <div className="button-row">
          <button
            type="button"
            className="secondary"
            data-testid="paper-values"
            onClick={() => void setSettings(withPaperValues(settings))}
          >
            Paper’s values
          </button>
          <button type="button" className="secondary" data-testid="preset-defaults" onClick={() => void setDefaults()}>
            Playground defaults
          </button>
        </div>
        <p className="hint">Changes apply at the next update; {[...RESET_KEYS].join(', ')} start a new run.</p>
      </fieldset>
    </div>
  );
}

function ChoiceField({
  settingKey,
  value,
  labels,
  onChange,
}: {
  settingKey: keyof typeof CHOICE_SPECS;
  value: string;
  labels?: Readonly<Record<string, string>>;
  onChange: (value: string) => void;
}) {
  const spec = CHOICE_SPECS[settingKey];
  const { label, help } = SETTING_LABELS[settingKey];
  const id = useId();
  return (
    <div className="field field-choice">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-setting={spec.hash} title={help}>
        {spec.options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A number input that commits on Enter or blur, and only a valid value; an invalid one is marked and kept for editing. */
function NumberField({
  settingKey,
  value,
  env,
  onCommit,
}: {
  settingKey: NumericKey;
  value: number;
  /** The world of the run: its range is the world's (the eval games per split). */
  env: Settings['env'];
  onCommit: (value: number) => void;
}) {
  const spec = numberSpecOf(settingKey, env);
  const { label, help } = SETTING_LABELS[settingKey];
  const id = useId();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const parsed = text.trim() === '' ? Number.NaN : Number(text);
  const problem = Number.isNaN(parsed) ? 'not a number' : numberProblem(settingKey, parsed, text.trim(), env);
  const commit = () => {
    if (!problem && parsed !== value) onCommit(parsed);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={spec.min}
        max={spec.max}
        step={spec.kind === 'real' ? 'any' : 1}
        value={text}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        title={help}
        data-setting={spec.hash}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      {problem ? (
        <span id={`${id}-problem`} className="field-problem">
          {problem}
        </span>
      ) : null}
    </div>
  );
}

// "Run it at scale": the page's run carried to the SEED repository's trainer (verl-agent based), as
// `npm run seed -- export-verl` carries a run directory or a link: the launch script for the current settings
// and the skill SFT's dataset to put beside it. Both are written here, in the browser, by the same code as the
// command's (src/rl/verl/); the dataset's module and its parquet writer load on the first click.
import { useMemo, useState } from 'react';
import { SEED_REPOSITORY } from '../rl/verl/config_keys.ts';
import {
  benchmarkOf,
  launchScript,
  NoCounterpartError,
  runsOfSettings,
  settingsThere,
  SFT_FILES,
} from '../rl/verl/launch_script.ts';
import { numberText, type ScaledSettings } from '../rl/verl/mapping.ts';
import { formatHash, type Settings } from '../rl/page_settings.ts';
import { playgroundDefaults } from '../rl/recorded_defaults.ts';
import { useRecordedOf } from './recorded_store.ts';
import { SETTING_LABELS } from './setting_labels.ts';
import { downloadBlob, downloadText } from './download.ts';
import { usePlayground } from './store.ts';
import type { SftFiles } from '../rl/verl/carry.ts';

type Split = keyof typeof SFT_FILES;

/**
 * docs/verl.md, shipped with the build as an asset of its own (Vite emits what `new URL(..., import.meta.url)`
 * names), so that the link works from wherever the site is served.
 */
const VERL_DOC = new URL('../../docs/verl.md', import.meta.url).href;

/**
 * The scripts of the settings' runs and the settings they set (one for all: the runs share them), or why there are
 * none; `defaults` are the playground's for them (the recorded run's settings where a record ships for them).
 */
function scriptsOf(settings: Settings, defaults: Settings) {
  try {
    const runs = runsOfSettings(settings, defaults);
    return { scripts: runs.map(launchScript), there: settingsThere(runs[0]), refusal: null };
  } catch (err) {
    if (err instanceof NoCounterpartError) return { scripts: [], there: null, refusal: err.message };
    throw err;
  }
}

/** A setting as the page names it (its control's label), or its name in the trainer's table for one it does not show. */
const labelOf = (key: string) => (key in SETTING_LABELS ? SETTING_LABELS[key as keyof Settings].label : key);

/** The script's settings that are not the page's: the paper's in the place of the page's defaults, and the page's own choices. */
function SettingsThere({ there }: { there: ScaledSettings }) {
  const list = (items: readonly { key: string; value: number; other: string }[]) =>
    items.length === 0 ? 'none' : items.map((c) => `${labelOf(c.key)} ${numberText(c.value)} (${c.other})`).join(', ');
  return (
    <>
      <p className="hint" data-testid="scale-from-paper">
        The paper's values, for its models of 1.7B to 7B parameters, in the place of the settings left at the
        playground's defaults (chosen for its small model):{' '}
        {list(there.fromPaper.map((c) => ({ key: c.key, value: c.paper, other: `here ${numberText(c.run)}` })))}.
      </p>
      <p className="hint" data-testid="scale-carried">
        Carried as set here, changed from the playground's defaults:{' '}
        {list(there.carried.map((c) => ({ key: c.key, value: c.run, other: `paper ${numberText(c.paper)}` })))}.
      </p>
    </>
  );
}

export function ScalePanel() {
  const settings = usePlayground((s) => s.settings);
  const recorded = useRecordedOf(settings.env);
  const defaults = useMemo(
    () => playgroundDefaults(settings, recorded.state === 'ready' ? recorded.run : null),
    [settings, recorded],
  );
  const { scripts, there, refusal } = useMemo(() => scriptsOf(settings, defaults), [settings, defaults]);
  const [dataset, setDataset] = useState<{ hash: string; files: SftFiles } | null>(null);
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  const bench = refusal === null ? benchmarkOf(settings.env) : null;

  const download = async (split: Split) => {
    const hash = formatHash(settings);
    setState({ busy: true, message: null });
    try {
      let files = dataset?.hash === hash ? dataset.files : null;
      if (!files) {
        const { DEFAULT_SFT_GAMES, sftFiles } = await import('../rl/verl/carry.ts');
        files = await sftFiles(runsOfSettings(settings, defaults)[0], DEFAULT_SFT_GAMES);
        setDataset({ hash, files });
      }
      downloadBlob(
        new Blob([files[split] as Uint8Array<ArrayBuffer>], { type: 'application/vnd.apache.parquet' }),
        SFT_FILES[split],
      );
      setState({ busy: false, message: `${files.rows.train} training rows and ${files.rows.val} validation rows.` });
    } catch (err) {
      setState({
        busy: false,
        message: `The dataset could not be written: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  };

  return (
    <section className="panel" aria-labelledby="scale-title" data-testid="run-at-scale">
      <h2 id="scale-title">Run it at scale</h2>
      <p className="hint">
        This run, for the SEED repository's trainer (verl-agent based: <code>{SEED_REPOSITORY.repo}</code> at{' '}
        <code>{SEED_REPOSITORY.commit.slice(0, 7)}</code>) with a language model
        {bench ? ` on ${bench.name}` : ''}: a launch script with its algorithm and settings, and the paper's first
        stage, the hindsight-skill SFT, as a dataset to put beside the script.{' '}
        <a href={VERL_DOC} target="_blank" rel="noopener" data-testid="scale-doc">
          docs/verl.md
        </a>{' '}
        says what each setting becomes; <code>npm run seed -- export-verl</code> writes the same from a run directory or
        a link.
      </p>
      {there ? <SettingsThere there={there} /> : null}
      {refusal !== null ? (
        <p className="bad" data-testid="scale-refused">
          No script for these settings: {refusal}.
        </p>
      ) : (
        <div className="button-row">
          {scripts.map((s) => (
            <button
              key={s.file}
              type="button"
              data-testid="scale-script"
              data-file={s.file}
              onClick={() => downloadText(s.text, s.file, 'text/x-shellscript')}
            >
              Launch script ({s.file})
            </button>
          ))}
          {(Object.keys(SFT_FILES) as Split[]).map((split) => (
            <button
              key={split}
              type="button"
              className="secondary"
              data-testid={`scale-sft-${split}`}
              disabled={state.busy}
              onClick={() => void download(split)}
            >
              SFT dataset, {split === 'train' ? 'training' : 'validation'} ({SFT_FILES[split]})
            </button>
          ))}
        </div>
      )}
      {state.busy ? <p data-testid="scale-busy">Playing the expert and the explorer for the dataset…</p> : null}
      {state.message ? (
        <p className="muted" data-testid="scale-message">
          {state.message}
        </p>
      ) : null}
    </section>
  );
}

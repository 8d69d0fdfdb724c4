// The smaller panels around a run: URL notices, the offer to resume a saved run, which backend trains and
// why, and checkpoint import/export.
import { useId, useRef } from 'react';
import { formatAdapter } from '../backend/webgpu/device.ts';
import { MAX_SAVED_RUNS } from '../worker/saved_run.ts';
import { downloadBlob } from './download.ts';
import { shippedWarmStartsSentence } from './explain.ts';
import { armName } from './setting_labels.ts';
import { usePlayground } from './store.ts';
import { theWorld } from '../worlds/facts.ts';
import { DEFAULT_WORLD, namedWorld, worldPrefix } from '../worlds/names.ts';

export function Notices() {
  const notices = usePlayground((s) => s.notices);
  const dismiss = usePlayground((s) => s.dismissNotices);
  const errors = usePlayground((s) => s.record.errors);
  const initial = usePlayground((s) => s.info?.initial);
  if (notices.length === 0 && errors.length === 0 && !initial?.random) return null;
  return (
    <div className="notices">
      {initial?.random ? (
        <div className="banner banner-warn" role="status" data-testid="random-start" data-env={initial.env}>
          <strong>
            No warm start ships for{' '}
            {namedWorld(initial.env) === undefined
              ? `the ${initial.preset} preset`
              : `${theWorld(initial.env)}'s ${initial.preset} preset`}
            :
          </strong>{' '}
          this run starts from {initial.source.replace(/ \(.*\)$/, '')}, so it plays at random and will win almost
          nothing for a long time. {shippedWarmStartsSentence(initial.env)}
          {namedWorld(initial.env) === undefined ? null : ` ${shippedWarmStartsSentence(DEFAULT_WORLD, true)}`}
        </div>
      ) : null}
      {notices.length > 0 ? (
        <div className="banner banner-warn" role="alert" data-testid="hash-notices">
          <strong>Some settings in the link were not used:</strong>
          <ul>
            {notices.map((n, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the link's notices are read once, in the link's order
              <li key={i} data-testid="hash-notice" data-key={n.key}>
                {n.more ? null : (
                  <>
                    <code>
                      {n.key}={n.value}
                    </code>{' '}
                  </>
                )}
                {n.message}
              </li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      ) : null}
      {errors.length > 0 ? (
        <div className="banner banner-error" role="alert" data-testid="run-errors">
          {errors.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the errors are only appended
            <p key={i}>{e}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The runs saved in this browser, newest first, each with Resume and Discard: the other tabs' runs, this tab's
 * earlier runs, and this tab's run once its device was lost. A record that cannot be resumed is listed with
 * the reason, to be discarded.
 */
export function ResumeOffer() {
  const { runs, refused } = usePlayground((s) => s.saved);
  const message = usePlayground((s) => s.savedMessage);
  const thisRun = usePlayground((s) => s.info?.runId);
  const resume = usePlayground((s) => s.resume);
  const discard = usePlayground((s) => s.discardSaved);
  if (runs.length === 0 && refused.length === 0 && !message) return null;
  return (
    <section className="banner banner-info saved-runs" aria-label="Saved runs" data-testid="saved-runs">
      <strong>Runs saved in this browser</strong> (the {MAX_SAVED_RUNS} saved last are kept):
      <ul>
        {runs.map((r) => (
          <li key={r.id} data-testid="resume-offer" data-run-id={r.id} data-updates={r.updates}>
            {r.id === thisRun ? 'This tab’s run, stopped by the loss of the GPU device: ' : ''}
            {armName(r.settings.algo)} in {theWorld(r.settings.env)}, {r.settings.preset}, seed {r.settings.seed},
            reached update {r.updates} on {new Date(r.savedAt).toLocaleString()}.
            <span className="button-row">
              <button type="button" onClick={() => void resume(r.id)} data-testid="resume">
                Resume it
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => void discard(r.id)}
                data-testid="discard-saved"
              >
                Discard
              </button>
            </span>
          </li>
        ))}
        {refused.map((r) => (
          <li key={`refused-${r.id}`} className="bad" data-testid="saved-refused" data-run-id={r.id}>
            A saved run cannot be resumed: {r.problem}.
            {r.id ? (
              <span className="button-row">
                <button
                  type="button"
                  className="secondary"
                  onClick={() => void discard(r.id)}
                  data-testid="discard-saved"
                >
                  Discard
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {message ? (
        <p className="bad" role="alert" data-testid="saved-message">
          {message}
        </p>
      ) : null}
    </section>
  );
}

export function BackendPanel() {
  const info = usePlayground((s) => s.info);
  if (!info) return null;
  const b = info.backend;
  const how =
    b.requested === 'auto'
      ? 'picked automatically'
      : b.requested === b.kind
        ? 'as requested'
        : `instead of the requested ${b.requested === 'webgpu' ? 'WebGPU' : 'CPU'}`;
  return (
    <section className="panel" aria-labelledby="backend-title" data-testid="backend" data-kind={b.kind}>
      <h2 id="backend-title">Training backend</h2>
      <p>
        <strong data-testid="backend-kind">{b.kind === 'webgpu' ? 'WebGPU' : 'CPU'}</strong> ({how}):{' '}
        <span data-testid="backend-reason">{b.reason}</span>
        {b.adapter ? <span className="muted"> Adapter: {formatAdapter(b.adapter)}.</span> : null}
      </p>
      {b.kind === 'cpu' && b.cpuThreads ? (
        <p data-testid="backend-threads" data-threads={b.cpuThreads.threads}>
          {b.cpuThreads.threads > 1
            ? `Runs on ${b.cpuThreads.threads} threads (WebAssembly workers sharing one memory; the same results as on one).`
            : `Runs on one thread: ${b.cpuThreads.single ?? 'one was asked for'}.`}
        </p>
      ) : null}
      {b.fallback ? (
        <div className="banner banner-warn" role="alert" data-testid="backend-fallback">
          Training on the CPU because WebGPU could not be used: {b.fallback.detail}. To enable WebGPU: {b.fallback.fix}.
        </div>
      ) : null}
      <p className="muted">
        Started from <span data-testid="initial-source">{info.initial.source}</span> ({theWorld(info.initial.env)},{' '}
        {info.initial.preset}, {info.initial.parameters.toLocaleString()} parameters).
      </p>
    </section>
  );
}

export function CheckpointPanel() {
  const exportCheckpoint = usePlayground((s) => s.exportCheckpoint);
  const importCheckpoint = usePlayground((s) => s.importCheckpoint);
  const message = usePlayground((s) => s.checkpointMessage);
  const last = usePlayground((s) => s.record.lastCheckpoint);
  const settings = usePlayground((s) => s.settings);
  const engineState = usePlayground((s) => s.engine.state);
  const run = usePlayground((s) => s.view.run);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const canUse = engineState === 'ready' || engineState === 'playing';

  const onExport = async () => {
    const bytes = await exportCheckpoint();
    if (bytes)
      downloadBlob(
        new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }),
        `seed-${run}-${worldPrefix(settings.env)}${settings.preset}.ckpt`,
      );
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    await importCheckpoint(new Uint8Array(await file.arrayBuffer()));
    if (input.current) input.current.value = '';
  };

  return (
    <section className="panel" aria-labelledby="ckpt-title" data-testid="checkpoints">
      <h2 id="ckpt-title">Checkpoints</h2>
      <p className="muted" data-testid="autosave">
        The run is saved in this browser every {settings.checkpointEvery} updates
        {last ? `; last saved at update ${last.update}, ${new Date(last.savedAt).toLocaleTimeString()}` : ''}.
      </p>
      <div className="button-row">
        <button
          type="button"
          className="secondary"
          onClick={() => void onExport()}
          disabled={!canUse}
          data-testid="export-checkpoint"
        >
          Export checkpoint
        </button>
        <label htmlFor={id} className="file-button">
          Import checkpoint
        </label>
        <input
          id={id}
          ref={input}
          type="file"
          accept=".ckpt,application/octet-stream"
          disabled={!canUse}
          onChange={(e) => void onFile(e.target.files?.[0])}
          data-testid="import-checkpoint"
        />
      </div>
      {message ? (
        <p className={message.ok ? 'ok' : 'bad'} role="status" data-testid="checkpoint-message" data-ok={message.ok}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

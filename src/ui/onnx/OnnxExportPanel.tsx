// Export the run's policy as ONNX. The file is offered for download only after onnxruntime-web has run it
// and matched the playground's own forward; until then there is nothing to download, and the panel says so.
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../common/errors.ts';
import type { VerifyReport } from '../../onnx/verify.ts';
import { downloadBlob } from '../download.ts';
import { withOnnxWorker } from './onnx_client.ts';
import type { ExportOutcome } from '../../worker/onnx_protocol.ts';
import type { PageExport } from '../../worker/onnx_export.ts';
import './onnx.css';

interface OnnxExportPanelProps {
  /** The current run's checkpoint (what "Export checkpoint" downloads), or null when there is none now. */
  checkpoint: () => Promise<Uint8Array | null>;
}

type Phase = 'weights' | 'verifying';

type ExportState =
  | { state: 'idle' }
  | { state: 'working'; phase: Phase }
  | { state: 'verified'; result: PageExport; filename: string; ms: number }
  | { state: 'failed'; message: string; report: VerifyReport | null };

const PHASE_TEXT: Record<Phase, string> = {
  weights: 'reading the weights from the training worker',
  verifying:
    'exporting, then running the file with onnxruntime-web (loaded once, in its own worker) and comparing its logits with the CPU forward',
};

export function OnnxExportPanel({ checkpoint }: OnnxExportPanelProps) {
  const [status, setStatus] = useState<ExportState>({ state: 'idle' });
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const update = (next: ExportState) => {
    if (alive.current) setStatus(next);
  };

  const onExport = async () => {
    const started = performance.now();
    update({ state: 'working', phase: 'weights' });
    try {
      const bytes = await checkpoint();
      if (!bytes) {
        update({
          state: 'failed',
          message: 'the training worker has no checkpoint to export right now; try again when the run is ready',
          report: null,
        });
        return;
      }
      update({ state: 'working', phase: 'verifying' });
      const outcome = await withOnnxWorker<ExportOutcome>((worker) => worker.exportCheckpoint(bytes));
      if (outcome.ok)
        update({
          state: 'verified',
          result: outcome.result,
          filename: outcome.filename,
          ms: performance.now() - started,
        });
      else update({ state: 'failed', message: outcome.message, report: outcome.report });
    } catch (err) {
      update({ state: 'failed', message: messageOf(err), report: null });
    }
  };

  const onDownload = () => {
    if (status.state !== 'verified') return;
    const { bytes } = status.result;
    downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), status.filename);
  };

  const working = status.state === 'working';
  return (
    <section className="panel onnx-panel" aria-labelledby="onnx-export-title" data-testid="onnx-export-panel">
      <h2 id="onnx-export-title">Export ONNX</h2>
      <p className="hint">
        Writes the policy as an ONNX model (opset 17, <code>input_ids</code> → <code>logits</code>) with its vocabulary
        and training card. Before it is offered, onnxruntime-web runs the file in this page and its logits must equal
        the playground's CPU forward within 1e-4 on random token sequences and on expert episodes.
      </p>
      <div className="button-row">
        <button type="button" onClick={() => void onExport()} disabled={working} data-testid="onnx-export">
          {working ? 'Verifying…' : status.state === 'verified' ? 'Export again' : 'Export and verify'}
        </button>
        {status.state === 'verified' ? (
          <button type="button" onClick={onDownload} data-testid="onnx-download">
            Download .onnx
          </button>
        ) : null}
      </div>
      <div data-testid="onnx-export-status" data-state={status.state} role="status">
        {status.state === 'idle' ? <p className="muted">The download appears here once the check has passed.</p> : null}
        {status.state === 'working' ? (
          <p className="muted">
            Step {status.phase === 'weights' ? 1 : 2} of 2: {PHASE_TEXT[status.phase]}…
          </p>
        ) : null}
        {status.state === 'verified' ? (
          <Verified result={status.result} filename={status.filename} ms={status.ms} />
        ) : null}
        {status.state === 'failed' ? (
          <div className="banner banner-error" role="alert" data-testid="onnx-export-error">
            <strong>No file to download</strong>: {status.message}
            {status.report ? <CaseTable report={status.report} /> : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}

function Verified({ result, filename, ms }: { result: PageExport; filename: string; ms: number }) {
  const { report, card, bytes, threads } = result;
  return (
    <div className="ok-block">
      <p className="ok" data-testid="onnx-verified" data-max-diff={report.maxAbsDiff} data-cases={report.cases.length}>
        Verified: onnxruntime-web ran the file and matched the CPU forward on {report.cases.length} token sequences, max
        |diff| = <span data-testid="onnx-max-diff">{report.maxAbsDiff.toExponential(2)}</span> ≤ {report.tolerance}.
      </p>
      <p className="muted">
        <code>{filename}</code>: {(bytes.length / 1024).toFixed(1)} KiB; {card.algorithm}, {card.updates} update
        {card.updates === 1 ? '' : 's'}, seed {card.seed}; checked in {(ms / 1000).toFixed(1)} s on {threads}{' '}
        WebAssembly thread{threads === 1 ? '' : 's'}.
      </p>
      <CaseTable report={report} />
    </div>
  );
}

function CaseTable({ report }: { report: VerifyReport }) {
  return (
    <details>
      <summary>Every sequence checked</summary>
      <table className="onnx-cases" data-testid="onnx-cases">
        <thead>
          <tr>
            <th>sequence</th>
            <th>batch × length</th>
            <th>max |diff|</th>
          </tr>
        </thead>
        <tbody>
          {report.cases.map((c) => (
            <tr key={c.label} className={c.ok ? '' : 'bad'} data-ok={c.ok}>
              <td>{c.label}</td>
              <td>
                {c.batch} × {c.seqLen}
              </td>
              <td>{Number.isNaN(c.maxAbsDiff) ? 'not finite' : c.maxAbsDiff.toExponential(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

import { useEffect } from 'react';
import { formatAdapter } from '../backend/webgpu/device.ts';
import { SELF_TEST_TOLERANCE } from '../backend/webgpu/self_test.ts';
import { SettingsPanel, Transport } from './Controls.tsx';
import { Curves } from './Curves.tsx';
import { RecordedRun } from './RecordedRun.tsx';
import { EpisodeView } from './EpisodeView.tsx';
import { FindingSentence, HeadlineChart, TrainingBackend } from './FirstScreen.tsx';
import { Guide, SkipLinks, useShortcuts } from './Guide.tsx';
import { LiveNumbers } from './LiveNumbers.tsx';
import { RacePanel } from './race/RacePanel.tsx';
import { BackendPanel, CheckpointPanel, Notices, ResumeOffer } from './RunPanels.tsx';
import { ScalePanel } from './ScalePanel.tsx';
import { StageView } from './StageView.tsx';
import { TeacherCheck } from './TeacherCheck.tsx';
import { OnnxExportPanel } from './onnx/OnnxExportPanel.tsx';
import { OnnxRunPanel } from './onnx/OnnxRunPanel.tsx';
import { parseHash } from '../rl/page_settings.ts';
import { usePlayground, type GpuStatus } from './store.ts';
import { usePageWorld } from './world.ts';
import { factsOf } from '../worlds/facts.ts';

export function App() {
  const connectGpu = usePlayground((s) => s.connectGpu);
  const boot = usePlayground((s) => s.boot);
  useEffect(() => {
    void connectGpu();
    void boot();
  }, [connectGpu, boot]);
  useHashNavigation();
  useShortcuts();
  const world = usePageWorld();

  return (
    <main className="page">
      <SkipLinks />
      <header className="page-header">
        <h1>SEED Playground</h1>
        <p className="tagline" data-testid="tagline">
          SEED is GRPO plus a gated loss that pulls each token toward what the agent would do with its own hindsight
          skill; this page trains a small transformer agent on{' '}
          <span data-testid="tagline-world">{factsOf(world).words.tasks}</span> live in your browser, and this run{' '}
          <TrainingBackend />.
        </p>
      </header>
      <Notices />
      <ResumeOffer />
      {/* The first screen: everything that answers "does SEED beat GRPO?", on one screen of a laptop or a phone. */}
      <div className="first-screen" data-testid="first-screen">
        <div className="first-now">
          <LiveNumbers />
        </div>
        <div className="first-controls">
          <Transport />
        </div>
        <div className="first-chart">
          <HeadlineChart>
            <FindingSentence />
          </HeadlineChart>
        </div>
      </div>
      <RacePanel />
      <Guide />
      <div className="layout">
        <div className="column-main">
          <EpisodeView />
          <StageView />
          <SettingsPanel />
        </div>
        <div className="column-side">
          <Curves />
          <RecordedRun />
          <TeacherCheck />
          <BackendPanel />
          <CheckpointPanel />
          <OnnxExportPanel checkpoint={() => usePlayground.getState().checkpointBytes()} />
          <OnnxRunPanel />
          <ScalePanel />
          <GpuPanel />
          <SelfTestPanel />
        </div>
      </div>
    </main>
  );
}

/** A hash typed or pasted into the address bar applies like a link that was opened. */
function useHashNavigation() {
  const openLink = usePlayground((s) => s.openLink);
  useEffect(() => {
    const onHash = () => void openLink(parseHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [openLink]);
}

function GpuPanel() {
  const gpu = usePlayground((s) => s.gpu);
  return (
    <section className="panel" aria-labelledby="gpu-title">
      <h2 id="gpu-title">GPU adapter</h2>
      <GpuStatusView gpu={gpu} />
    </section>
  );
}

function GpuStatusView({ gpu }: { gpu: GpuStatus }) {
  switch (gpu.state) {
    case 'probing':
      return (
        <p data-testid="adapter-status" data-state="probing">
          Looking for a WebGPU adapter…
        </p>
      );
    case 'unavailable':
      return (
        <div className="banner banner-error" role="alert" data-testid="webgpu-unavailable" data-reason={gpu.reason}>
          <strong>WebGPU is unavailable</strong>: {gpu.detail}.<p data-testid="webgpu-fix">To enable it: {gpu.fix}.</p>
        </div>
      );
    case 'lost':
      return (
        <div className="banner banner-error" role="alert" data-testid="webgpu-lost">
          <strong>The GPU device was lost</strong> ({gpu.reason}): {gpu.message || 'no reason given'}. Reload the page
          to get a new one.
        </div>
      );
    case 'ready': {
      const { adapter } = gpu;
      return (
        <div data-testid="adapter-status" data-state="ready" title={formatAdapter(adapter)}>
          <dl className="facts">
            <dt>Vendor</dt>
            <dd data-testid="adapter-vendor">{adapter.vendor}</dd>
            <dt>Architecture</dt>
            <dd data-testid="adapter-architecture">{adapter.architecture}</dd>
            <dt>Description</dt>
            <dd data-testid="adapter-description">{adapter.description || adapter.device || '—'}</dd>
            <dt>Fallback adapter</dt>
            <dd data-testid="adapter-fallback">{adapter.isFallback ? 'yes (software, slow)' : 'no'}</dd>
          </dl>
        </div>
      );
    }
  }
}

function SelfTestPanel() {
  const gpuReady = usePlayground((s) => s.gpu.state === 'ready');
  const selfTest = usePlayground((s) => s.selfTest);
  const runSelfTest = usePlayground((s) => s.runSelfTest);
  return (
    <section className="panel" aria-labelledby="selftest-title">
      <h2 id="selftest-title">Kernel self-test</h2>
      <p className="hint">
        Runs the masked log-softmax and log-prob gather kernels on the GPU and compares them with the CPU reference
        (tolerance {SELF_TEST_TOLERANCE.abs} + {SELF_TEST_TOLERANCE.rel}·|x|).
      </p>
      <button
        type="button"
        data-testid="selftest-run"
        disabled={!gpuReady || selfTest.state === 'running'}
        onClick={() => void runSelfTest()}
      >
        {selfTest.state === 'running' ? 'Running…' : 'Run self-test'}
      </button>
      <div data-testid="selftest-status" data-state={selfTest.state} className="selftest-result">
        {selfTest.state === 'done' && (
          <p className={selfTest.result.passed ? 'ok' : 'bad'}>
            <span data-testid="selftest-verdict">{selfTest.result.passed ? 'PASS' : 'FAIL'}</span>: max |GPU − CPU| ={' '}
            <span data-testid="selftest-max-error">{selfTest.result.maxAbsError.toExponential(2)}</span> over{' '}
            {selfTest.result.rows} rows × {selfTest.result.vocab} tokens, GPU run {selfTest.result.gpuMs.toFixed(1)} ms.
          </p>
        )}
        {selfTest.state === 'failed' && (
          <p className="bad" data-testid="selftest-error">
            Self-test failed: {selfTest.message}
          </p>
        )}
      </div>
    </section>
  );
}

// Run an exported policy: load an .onnx file written by the playground, and play one game of an eval split of
// its world greedily with onnxruntime-web, step by step, showing the transcript (a shop's pages read into their
// parts, as in the episode view). A file that is not ONNX, or not one of ours, is refused with the reason.
import { proxy } from 'comlink';
import { useId, useState } from 'react';
import { messageOf } from '../../common/errors.ts';
import type { GreedyEpisode, GreedyStep } from '../../onnx/greedy_episode.ts';
import { theWorld } from '../../worlds/facts.ts';
import { viewOf } from '../../worlds/views.ts';
import type { WorldView } from '../world_view.ts';
import { withOnnxWorker } from './onnx_client.ts';
import type { OpenOutcome, PolicySummary } from '../../worker/onnx_protocol.ts';
import './onnx.css';

type FileState =
  | { state: 'empty' }
  | { state: 'loading'; name: string }
  | { state: 'loaded'; name: string; policy: PolicySummary }
  | { state: 'refused'; name: string; message: string };

type PlayState =
  | { state: 'idle' }
  | { state: 'playing'; steps: GreedyStep[] }
  | { state: 'done'; episode: GreedyEpisode; ms: number }
  | { state: 'failed'; message: string; steps: GreedyStep[] };

type Split = 'seen' | 'unseen';

export function OnnxRunPanel() {
  const [file, setFile] = useState<FileState>({ state: 'empty' });
  const [play, setPlay] = useState<PlayState>({ state: 'idle' });
  const [split, setSplit] = useState<Split>('seen');
  const [game, setGame] = useState(0);
  const [maxSteps, setMaxSteps] = useState(15);
  const inputId = useId();

  const onFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setPlay({ state: 'idle' });
    setFile({ state: 'loading', name: chosen.name });
    try {
      const bytes = new Uint8Array(await chosen.arrayBuffer());
      const outcome = await withOnnxWorker<OpenOutcome>((worker) => worker.open(bytes));
      if (outcome.ok) {
        setMaxSteps(outcome.policy.play.maxSteps);
        setFile({ state: 'loaded', name: chosen.name, policy: outcome.policy });
      } else {
        setFile({ state: 'refused', name: chosen.name, message: outcome.message });
      }
    } catch (err) {
      setFile({ state: 'refused', name: chosen.name, message: `The file could not be read: ${messageOf(err)}.` });
    }
  };
  const evalCounts = file.state === 'loaded' ? file.policy.world.evalCounts : { seen: 0, unseen: 0 };

  const onPlay = async () => {
    if (file.state !== 'loaded') return;
    const { history } = file.policy.play;
    const steps: GreedyStep[] = [];
    const started = performance.now();
    // Steps come through their own message channel, so the last of them may arrive after the episode's end.
    let finished = false;
    setPlay({ state: 'playing', steps: [] });
    const onStep = (step: GreedyStep, index: number) => {
      if (finished) return;
      steps[index] = step;
      setPlay({ state: 'playing', steps: steps.filter(Boolean) });
    };
    try {
      const episode = await withOnnxWorker((worker) => worker.play({ split, game, maxSteps, history }, proxy(onStep)));
      finished = true;
      setPlay({ state: 'done', episode, ms: performance.now() - started });
    } catch (err) {
      finished = true;
      setPlay({ state: 'failed', message: messageOf(err), steps: steps.filter(Boolean) });
    }
  };

  const validGame = Number.isInteger(game) && game >= 0 && game < evalCounts[split];
  const validSteps = Number.isInteger(maxSteps) && maxSteps >= 1 && maxSteps <= 50;
  return (
    <section className="panel onnx-panel" aria-labelledby="onnx-run-title" data-testid="onnx-run-panel">
      <h2 id="onnx-run-title">Run an exported model</h2>
      <p className="hint">
        Load an .onnx file exported by the playground; onnxruntime-web runs it in this page and plays one eval game of
        its world greedily (the admissible command with the largest logits, token by token).
      </p>
      <div className="button-row">
        <label htmlFor={inputId} className="file-button">
          Load .onnx file
        </label>
        <input
          id={inputId}
          type="file"
          accept=".onnx,application/octet-stream"
          onChange={(e) => void onFile(e.target.files?.[0])}
          data-testid="onnx-file"
        />
      </div>
      <div data-testid="onnx-file-status" data-state={file.state}>
        {file.state === 'loading' ? <p className="muted">Reading {file.name}…</p> : null}
        {file.state === 'refused' ? (
          <div className="banner banner-error" role="alert" data-testid="onnx-file-error">
            <strong>{file.name}</strong>: {file.message}
          </div>
        ) : null}
        {file.state === 'loaded' ? <PolicyFacts name={file.name} policy={file.policy} /> : null}
      </div>
      {file.state === 'loaded' ? (
        <div className="onnx-play">
          <div className="onnx-fields">
            <label>
              Split{' '}
              <select value={split} onChange={(e) => setSplit(e.target.value as Split)} data-testid="onnx-split">
                <option value="seen">eval-seen</option>
                <option value="unseen">eval-unseen</option>
              </select>
            </label>
            <label>
              Game{' '}
              <input
                type="number"
                min={0}
                max={evalCounts[split] - 1}
                step={1}
                value={game}
                onChange={(e) => setGame(e.target.valueAsNumber)}
                data-testid="onnx-game"
              />
            </label>
            <label>
              Max steps{' '}
              <input
                type="number"
                min={1}
                max={50}
                step={1}
                value={maxSteps}
                onChange={(e) => setMaxSteps(e.target.valueAsNumber)}
                data-testid="onnx-max-steps"
              />
            </label>
          </div>
          <p className="muted" data-testid="onnx-context">
            Context: {contextText(file.policy.play.history)}
            {file.policy.play.fromCard ? ', as the training run played' : ' (the file does not say how its run played)'}
            .
          </p>
          {!validGame ? (
            <p className="bad">The game must be a whole number from 0 to {evalCounts[split] - 1}.</p>
          ) : null}
          {!validSteps ? <p className="bad">Max steps must be a whole number from 1 to 50.</p> : null}
          <button
            type="button"
            onClick={() => void onPlay()}
            disabled={!validGame || !validSteps || play.state === 'playing'}
            data-testid="onnx-play"
          >
            {play.state === 'playing' ? 'Playing…' : 'Play one episode'}
          </button>
          <Transcript play={play} view={viewOf(file.policy.world.name)} />
        </div>
      ) : null}
    </section>
  );
}

function PolicyFacts({ name, policy }: { name: string; policy: PolicySummary }) {
  const { config, card } = policy;
  const success = Object.entries(card.success);
  return (
    <dl
      className="facts"
      data-testid="onnx-policy"
      data-algorithm={card.algorithm}
      data-updates={card.updates}
      data-world={policy.world.name}
    >
      <dt>File</dt>
      <dd>
        {name} ({(policy.bytes / 1024).toFixed(1)} KiB, opset {policy.opsetVersion})
      </dd>
      <dt>Model</dt>
      <dd>
        d {config.dModel}, {config.nLayer} layers, {config.nHead} heads, context {config.contextLength}, vocabulary{' '}
        {config.vocabSize}
      </dd>
      <dt>World</dt>
      <dd>
        {theWorld(policy.world.name)}
        {policy.world.scale === 'tiny' ? '' : ` (${policy.world.scale} scale)`}
      </dd>
      <dt>Training</dt>
      <dd>
        {card.algorithm}, {card.updates} update{card.updates === 1 ? '' : 's'}, seed {card.seed}
        {success.length > 0 ? `; success ${success.map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`).join(', ')}` : ''}
      </dd>
    </dl>
  );
}

function Transcript({ play, view }: { play: PlayState; view: WorldView }) {
  if (play.state === 'idle') return null;
  const steps = play.state === 'done' ? play.episode.steps : play.steps;
  return (
    <div data-testid="onnx-transcript" data-state={play.state}>
      {play.state === 'done' ? (
        <p className="muted" data-testid="onnx-goal">
          Task: {play.episode.goal}
        </p>
      ) : null}
      <ol className="onnx-steps">
        {steps.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an episode's steps never change order
          <li key={i} data-testid="onnx-step" data-valid={s.valid}>
            <span className="command">&gt; {s.action}</span>{' '}
            <span className="muted" title="log-probability of the command under the constrained policy">
              (log p {s.logprob.toFixed(2)})
            </span>
            {view.Page ? <view.Page text={s.observation} /> : <div className="observation">{s.observation}</div>}
          </li>
        ))}
      </ol>
      {play.state === 'done' ? (
        <p className={play.episode.won ? 'ok' : 'bad'} data-testid="onnx-outcome" data-won={play.episode.won}>
          {play.episode.won ? 'Solved' : 'Not solved'} in {play.episode.steps.length} steps; {play.episode.forwards}{' '}
          forward passes in {(play.ms / 1000).toFixed(2)} s.
          {play.episode.windowed ? ' Later steps saw only part of the episode.' : ''}
        </p>
      ) : null}
      {play.state === 'failed' ? (
        <p className="bad" role="alert" data-testid="onnx-play-error">
          The episode stopped: {play.message}
        </p>
      ) : null}
    </div>
  );
}

function contextText(history: number): string {
  if (history === Infinity) return "the whole episode (the oldest steps leave only when the model's context is full)";
  return `the task and the last ${history} step${history === 1 ? '' : 's'}`;
}

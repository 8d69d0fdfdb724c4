// Where the shown run stands, in large numbers: updates done, episodes played, and the success of its last
// evaluation per split with its change since the warm start's evaluation (update 0); in a world with a score
// (the shop), that evaluation's mean score per split beside it; and below them what the run is waiting for.
import { factsOf } from '../worlds/facts.ts';
import type { UpdateMetrics } from '../worker/protocol.ts';
import { signedPoints } from './finding.ts';
import { armName } from './setting_labels.ts';
import { updatesPerSecond, waitingText } from './pace.ts';
import { usePlayground } from './store.ts';
import { usePageWorld } from './world.ts';

const NO_METRICS: readonly UpdateMetrics[] = [];

export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

function lastEval(list: readonly UpdateMetrics[]): UpdateMetrics | null {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].evalSeen !== null) return list[i];
  return null;
}

/** A change of a success rate since the warm start, in points; `value` is the fraction, for tools that read the page. */
interface Change {
  value: number;
  testId: string;
}

/** `raw`: the number shown, unrounded, for tools that read the page (bench page). */
export function Big({
  label,
  value,
  raw,
  detail,
  change,
  testId,
}: {
  label: string;
  value: string;
  raw?: number | null;
  detail?: string;
  change?: Change | null;
  testId: string;
}) {
  return (
    <div className="big-number">
      <div className="big-value">
        <span data-testid={testId} data-value={raw ?? ''}>
          {value}
        </span>
        {change ? (
          <span
            className={`big-change ${change.value > 0 ? 'up' : change.value < 0 ? 'down' : ''}`}
            data-testid={change.testId}
            data-value={change.value}
          >
            {signedPoints(change.value)}
          </span>
        ) : null}
      </div>
      <div className="big-label">{label}</div>
      {detail ? <div className="muted big-detail">{detail}</div> : null}
    </div>
  );
}

/** The change of a split's success from the warm start's evaluation to the last one; null before both exist. */
function changeOf(
  warm: UpdateMetrics | null,
  last: UpdateMetrics | null,
  split: 'evalSeen' | 'evalUnseen',
  testId: string,
): Change | null {
  const from = warm?.[split];
  const to = last?.[split];
  return from == null || to == null ? null : { value: to - from, testId };
}

/** A split's mean WebShop score, in [0, 1] as every figure of the score (success is a score of 1). */
function ScoreBig({ split, value, detail }: { split: 'seen' | 'unseen'; value: number | null; detail: string }) {
  return (
    <Big
      label={`eval-${split} score (0 to 1)`}
      value={value !== null ? value.toFixed(3) : '—'}
      raw={value}
      detail={detail}
      testId={`live-score-${split}`}
    />
  );
}

/** What the run waits for (an evaluation and how far it is) and, while it trains, its updates per second. */
function Waiting({ list }: { list: readonly UpdateMetrics[] }) {
  const status = usePlayground((s) => s.record.status);
  const playing = usePlayground((s) => s.engine.state === 'playing');
  const rate = updatesPerSecond(list);
  const text = waitingText(status, playing, rate);
  // Nothing awaited, no line: the first screen keeps its height while the run rests.
  return text === '' ? null : (
    <p className="muted live-waiting" data-testid="live-waiting" data-rate={playing && rate !== null ? rate : ''}>
      {text}
    </p>
  );
}

export function LiveNumbers() {
  const run = usePlayground((s) => s.view.run);
  // Selectors return what the store holds (a fresh [] each call would render without end).
  const runCount = usePlayground((s) => s.info?.runs.length ?? 0);
  const list = usePlayground((s) => s.record.curves[s.view.run]) ?? NO_METRICS;
  const last = list.length ? list[list.length - 1] : null;
  const evaluated = lastEval(list);
  const warm = list.find((m) => m.update === 0 && m.evalSeen !== null) ?? null;
  const scored = factsOf(usePageWorld()).scored;
  const evalDetail = !evaluated
    ? 'evaluating the warm start…'
    : evaluated.update === 0
      ? 'the warm start (update 0)'
      : `after update ${evaluated.update}${warm ? ', points since the warm start' : ''}`;
  return (
    <section className="panel live" aria-labelledby="live-title" data-testid="live">
      <h2 id="live-title">Now {runCount > 1 ? <small>the {armName(run)} run</small> : null}</h2>
      <div className="big-numbers" aria-live="off" data-eval-update={evaluated?.update ?? ''}>
        <Big label="updates done" value={String(last?.update ?? 0)} raw={last?.update ?? 0} testId="live-update" />
        <Big
          label="training episodes played"
          value={(last?.episodes ?? 0).toLocaleString('en')}
          raw={last?.episodes ?? 0}
          testId="live-episodes"
        />
        <Big
          label="eval-seen success"
          value={evaluated?.evalSeen != null ? percent(evaluated.evalSeen) : '—'}
          raw={evaluated?.evalSeen ?? null}
          detail={evalDetail}
          change={changeOf(warm, evaluated, 'evalSeen', 'live-eval-seen-change')}
          testId="live-eval-seen"
        />
        <Big
          label="eval-unseen success"
          value={evaluated?.evalUnseen != null ? percent(evaluated.evalUnseen) : '—'}
          raw={evaluated?.evalUnseen ?? null}
          detail={evalDetail}
          change={changeOf(warm, evaluated, 'evalUnseen', 'live-eval-unseen-change')}
          testId="live-eval-unseen"
        />
        {scored ? (
          <>
            <ScoreBig split="seen" value={evaluated?.scoreSeen ?? null} detail={evalDetail} />
            <ScoreBig split="unseen" value={evaluated?.scoreUnseen ?? null} detail={evalDetail} />
          </>
        ) : null}
      </div>
      <Waiting list={list} />
    </section>
  );
}

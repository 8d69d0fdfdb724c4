// What a race reads in words: each arm's progress and last evaluation, the paired difference so far, and while it
// plays, when its next paired evaluation is due.
import { armName } from '../setting_labels.ts';
import type { RaceArm } from './arm.ts';
import { aboutDuration } from '../pace.ts';
import { nextPairedPoint } from './eta.ts';
import { differenceSoFar, pairedEvaluations, type DifferenceSoFar, type EvalSplit } from './pairs.ts';

const percent = (v: number) => `${(100 * v).toFixed(1)}%`;
const points = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(100 * v).toFixed(1)} points`;

function lastEvaluation(arm: RaceArm, split: EvalSplit): { update: number; value: number } | null {
  for (let i = arm.curve.length - 1; i >= 0; i--) {
    const v = arm.curve[i][split];
    if (v !== null) return { update: arm.curve[i].update, value: v };
  }
  return null;
}

function ArmLine({ arm, index }: { arm: RaceArm; index: number }) {
  const evaluations = arm.curve.filter((m) => m.evalUnseen !== null).length;
  const unseen = lastEvaluation(arm, 'evalUnseen');
  const updates = arm.curve.at(-1)?.update ?? 0;
  return (
    <li data-testid={`race-arm-${index}`} data-algo={arm.algo} data-updates={updates} data-evaluations={evaluations}>
      <strong>{armName(arm.algo)}</strong>: {updates} update{updates === 1 ? '' : 's'}
      {unseen ? `, eval-unseen ${percent(unseen.value)} at update ${unseen.update}` : ', no evaluation yet'}
      {arm.backend ? ` (${arm.backend})` : ''}
      {arm.note ? <span className="bad"> · {arm.note}</span> : null}
    </li>
  );
}

function splitSentence(name: string, d: DifferenceSoFar): string {
  if (d.mean === null || d.last === null) return `${name}: no evaluation after training that both arms reached yet`;
  return `${name}: ${points(d.last.difference)} at update ${d.last.update}, mean ${points(d.mean)} over ${d.pairs} paired evaluation${d.pairs === 1 ? '' : 's'}`;
}

/** When the next paired point is due, while the race plays. */
function NextPair({ arms, evalEvery }: { arms: readonly RaceArm[]; evalEvery: number }) {
  const next = nextPairedPoint(arms[0].curve, arms[1].curve, evalEvery);
  return (
    <p className="hint" data-testid="race-next" data-update={next.update} data-seconds={next.seconds ?? ''}>
      Next paired evaluation: update {next.update},{' '}
      {next.seconds === null ? 'due once each arm has timed an update' : `due in ${aboutDuration(next.seconds)}`}.
    </p>
  );
}

export function RaceReadout({
  arms,
  evalEvery,
  playing,
}: {
  arms: readonly RaceArm[];
  /** The race's evaluation schedule (its settings' evalEvery). */
  evalEvery: number;
  playing: boolean;
}) {
  const [grpo, seed] = arms;
  const unseen = differenceSoFar(pairedEvaluations(grpo.curve, seed.curve, 'evalUnseen'));
  const seen = differenceSoFar(pairedEvaluations(grpo.curve, seed.curve, 'evalSeen'));
  return (
    <>
      <ul className="race-arms">
        {arms.map((arm, i) => (
          <ArmLine key={arm.algo} arm={arm} index={i} />
        ))}
      </ul>
      <p
        className="race-difference"
        data-testid="race-difference"
        data-pairs={unseen.pairs}
        data-mean={unseen.mean ?? ''}
      >
        <strong>{armName(seed.algo)} − GRPO so far</strong> (the same evaluation games, paired by update):{' '}
        {splitSentence('eval-unseen', unseen)}; {splitSentence('eval-seen', seen)}.
      </p>
      {playing ? <NextPair arms={arms} evalEvery={evalEvery} /> : null}
    </>
  );
}

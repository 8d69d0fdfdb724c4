// The six stages of one update as a picture: a box per stage, the current one lit, and the example token the
// step-through follows, with what the current stage did to it.
import { STAGES, type Stage } from '../rl/update_state.ts';
import type { StageSnapshot, TrajectoryView } from '../worker/protocol.ts';
import { STAGE_CAPTIONS } from './explain.ts';
import { exampleAtStage, trajectoryLabel, type ExampleToken } from './stage_example.ts';
import './stages.css';

const BOXES: Readonly<Record<Stage, { name: string; what: string }>> = {
  rollout: { name: 'Rollout', what: 'play the tasks, keep l_old' },
  rewards: { name: 'Rewards', what: 'R and advantage A per group' },
  skills: { name: 'Skills', what: 'write a hindsight skill per game' },
  rescore: { name: 'Re-score', what: 'l_student, l_skill, l_ref' },
  loss: { name: 'Δ · gate · coef', what: 'the loss, token by token' },
  optimizer: { name: 'AdamW', what: 'gradient, one step' },
};

interface Props {
  snapshot: StageSnapshot | null;
  trajectory: TrajectoryView | null;
  example: ExampleToken | null;
}

export function StagePipeline({ snapshot, trajectory, example }: Props) {
  const current = snapshot ? STAGES.indexOf(snapshot.stage) : -1;
  return (
    <figure className="pipeline" data-testid="stage-pipeline" data-current={snapshot?.stage ?? ''}>
      <ol className="pipeline-boxes" aria-label="Stages of one update">
        {STAGES.map((s, i) => (
          <li
            key={s}
            className={`pipeline-box${i < current ? ' done' : ''}`}
            data-testid="pipeline-box"
            data-stage={s}
            data-lit={i === current}
            aria-current={i === current ? 'step' : undefined}
            title={STAGE_CAPTIONS[s]}
          >
            <span className="pipeline-name">
              {i + 1} {BOXES[s].name}
            </span>
            <span className="pipeline-what">{BOXES[s].what}</span>
          </li>
        ))}
      </ol>
      <figcaption className="pipeline-caption" data-testid="pipeline-caption">
        <ExampleCaption snapshot={snapshot} trajectory={trajectory} example={example} />
      </figcaption>
    </figure>
  );
}

function ExampleCaption({ snapshot, trajectory, example }: Props) {
  if (!snapshot || !trajectory) return <>One token is followed through every stage once the rollout has run.</>;
  if (!example)
    return (
      <>
        Trajectory {trajectoryLabel(trajectory)} has no decision token: the command trie allowed each of its tokens
        alone. Pick another in Episodes.
      </>
    );
  return (
    <>
      Following “
      <mark className="example-token" data-testid="example-token" data-k={example.k}>
        {example.text}
      </mark>
      ” (command {example.step} of trajectory {trajectoryLabel(trajectory)}, the decision its policy was least sure of):{' '}
      <span data-testid="example-at-stage">{exampleAtStage(snapshot.stage, snapshot, trajectory, example.k)}</span>.
    </>
  );
}

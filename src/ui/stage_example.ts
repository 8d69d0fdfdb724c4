// The one token the step-through follows from stage to stage, and what each stage does with it.
import type { Stage } from '../rl/update_state.ts';
import type { StageSnapshot, TrajectoryView } from '../worker/protocol.ts';
import { fmt } from './EpisodeView.tsx';
import { isForced } from './run_record.ts';

export interface ExampleToken {
  /** Index among the trajectory's scored tokens. */
  k: number;
  text: string;
  /** 1-based number of the command (step) that holds it. */
  step: number;
}

/**
 * The decision token (the decoding mask allowed others) the policy was least sure of when it typed it: the
 * lowest l_old, the first of equals. Chosen from the rollout's numbers alone, so every stage follows the same
 * token. Null when every token of the trajectory was forced.
 */
export function exampleToken(t: TrajectoryView): ExampleToken | null {
  let best = -1;
  for (let k = 0; k < t.tokens.length; k++) {
    if (isForced(t, k)) continue;
    if (best < 0 || t.lOld[k] < t.lOld[best]) best = k;
  }
  if (best < 0) return null;
  const step = t.steps.findIndex((s) => best >= s.tokenStart && best < s.tokenStart + s.tokenCount);
  return { k: best, text: t.tokens[best], step: step + 1 };
}

/** The trajectory's name on the page: task and episode, both counted from 1. */
export function trajectoryLabel(t: TrajectoryView): string {
  return `${t.task + 1}.${t.episode + 1}`;
}

/** What a stage did with the example token (or with the game that holds it), as one clause. */
export function exampleAtStage(stage: Stage, snapshot: StageSnapshot, t: TrajectoryView, k: number): string {
  const s = t.scores;
  switch (stage) {
    case 'rollout':
      return `typed with l_old ${fmt(t.lOld[k])}`;
    case 'rewards':
      return `its game scored R ${t.reward.toFixed(1)}, advantage A ${t.advantage === null ? '—' : fmt(t.advantage)}`;
    case 'skills':
      return t.skill
        ? `its game’s skill, ${t.skill.valid ? 'usable' : 'not usable'}: “${t.skill.text || '(empty)'}”`
        : 'its game has no skill';
    case 'rescore':
      return s
        ? `l_student ${fmt(s.lStudent[k])}, l_skill ${fmt(s.lSkill[k])}, l_ref ${fmt(s.lRef[k])}`
        : 'not re-scored';
    case 'loss':
      return s ? `Δ ${fmt(s.delta[k])}, gate ${fmt(s.gate[k])}, coef ${fmt(s.coef[k])}` : 'no loss';
    case 'optimizer':
      return s && snapshot.step
        ? `its coef ${fmt(s.coef[k])} is one term of the gradient (norm ${fmt(snapshot.step.gradNorm)}) that AdamW applied`
        : 'no step';
  }
}

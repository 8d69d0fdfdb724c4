// The token the step-through follows: a decision token, the least sure one, the same at every stage.
import { describe, expect, it } from 'vitest';
import { lossHyper } from '../rl/loss.ts';
import { defaultConfig } from '../rl/config.ts';
import type { StageSnapshot, TokenScores, TrajectoryView } from '../worker/protocol.ts';
import { exampleAtStage, exampleToken, trajectoryLabel } from './stage_example.ts';

/** "go to drawer 1 <end>" then "open drawer 1 <end>": "to", "1" and "<end>" forced. */
function trajectory(lOld: number[], choice: number[]): TrajectoryView {
  const tokens = ['go', 'to', 'drawer', '1', '<end>', 'open', 'drawer', '1', '<end>'];
  return {
    run: 'seed',
    update: 1,
    index: 4,
    task: 1,
    episode: 1,
    goal: 'open the drawer',
    taskType: 'open',
    opening: '',
    steps: [
      { command: 'go to drawer 1', observation: '', valid: true, tokenStart: 0, tokenCount: 5 },
      { command: 'open drawer 1', observation: '', valid: true, tokenStart: 5, tokenCount: 4 },
    ],
    won: true,
    reward: 10,
    invalidSteps: 0,
    tokens,
    choice: Uint8Array.from(choice),
    lOld: Float32Array.from(lOld),
    advantage: 0.5,
    skill: null,
    scores: null,
  };
}

const CHOICE = [1, 0, 1, 0, 0, 1, 1, 0, 0];

describe('example token', () => {
  it('is the decision token with the lowest l_old, never a forced one', () => {
    // The forced "to" has the lowest l_old of all (as no real forced token would): it is skipped.
    const t = trajectory([-0.1, -9, -0.2, 0, 0, -0.05, -1.5, 0, 0], CHOICE);
    expect(exampleToken(t)).toEqual({ k: 6, text: 'drawer', step: 2 });
    expect(trajectoryLabel(t)).toBe('2.2');
  });

  it('takes the first of equals and is null when every token was forced', () => {
    expect(exampleToken(trajectory([-0.3, 0, -0.3, 0, 0, -0.3, -0.3, 0, 0], CHOICE))?.k).toBe(0);
    expect(exampleToken(trajectory(Array(9).fill(0), Array(9).fill(0)))).toBeNull();
  });

  it('states each stage’s numbers of that token', () => {
    const t = trajectory([-0.1, 0, -0.2, 0, 0, -0.05, -1.5, 0, 0], CHOICE);
    const filled = (x: number) => Float32Array.from({ length: 9 }, (_, i) => (i === 6 ? x : 0));
    const scores = {
      lStudent: filled(-1.25),
      lSkill: filled(-0.5),
      lRef: filled(-2),
      delta: filled(0.75),
      gate: filled(0.625),
      coef: filled(-0.375),
    } as unknown as TokenScores;
    const snapshot: StageSnapshot = {
      run: 'seed',
      update: 1,
      stage: 'loss',
      trajectories: [t],
      groups: null,
      step: null,
      hyper: lossHyper('seed', defaultConfig('micro')),
      credit: null,
    };
    expect(exampleAtStage('rollout', snapshot, t, 6)).toBe('typed with l_old -1.5000');
    expect(exampleAtStage('rewards', snapshot, t, 6)).toBe('its game scored R 10.0, advantage A 0.5000');
    expect(exampleAtStage('rescore', snapshot, { ...t, scores }, 6)).toBe(
      'l_student -1.2500, l_skill -0.5000, l_ref -2.0000',
    );
    expect(exampleAtStage('loss', snapshot, { ...t, scores }, 6)).toBe('Δ 0.7500, gate 0.6250, coef -0.3750');
    expect(exampleAtStage('loss', snapshot, t, 6)).toBe('no loss');
  });
});

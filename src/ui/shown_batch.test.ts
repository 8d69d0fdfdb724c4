// The episode view while training plays: the last completed update, scored, never the one being built.
import { describe, expect, it } from 'vitest';
import { lossHyper } from '../rl/loss.ts';
import { defaultConfig } from '../rl/config.ts';
import type { StageSnapshot, TrajectoryView } from '../worker/protocol.ts';
import { EMPTY_RECORD, applyEvent, shownBatch, type RunRecord } from './run_record.ts';

function trajectory(update: number, index: number): TrajectoryView {
  return {
    run: 'seed',
    update,
    index,
    task: 0,
    episode: index,
    goal: 'put a mug in cabinet',
    taskType: 'put',
    opening: '',
    steps: [],
    won: false,
    reward: 0,
    invalidSteps: 0,
    tokens: [],
    choice: new Uint8Array(0),
    lOld: new Float32Array(0),
    advantage: null,
    skill: null,
    scores: null,
  };
}

function snapshot(update: number, stage: StageSnapshot['stage'], indices: number[]): StageSnapshot {
  return {
    run: 'seed',
    update,
    stage,
    trajectories: indices.map((i) => trajectory(update, i)),
    groups: null,
    step: null,
    hyper: lossHyper('seed', defaultConfig('micro')),
    credit: null,
  };
}

describe('shown batch', () => {
  it('is the newest update until one completes, then while playing the last completed one', () => {
    let rec: RunRecord = applyEvent(EMPTY_RECORD, { type: 'trajectory', trajectory: trajectory(1, 0) });
    expect(shownBatch(rec, 'seed', true)).toMatchObject({ update: 1, trajectories: [{ index: 0 }] });
    rec = applyEvent(rec, { type: 'stage', snapshot: snapshot(1, 'skills', [0, 1]) });
    rec = applyEvent(rec, { type: 'stage', snapshot: snapshot(1, 'optimizer', [0, 1]) });
    // Update 2 is being built: its first episode has come in, its skills too.
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory(2, 0) });
    rec = applyEvent(rec, { type: 'stage', snapshot: snapshot(2, 'skills', [0]) });
    const playing = shownBatch(rec, 'seed', true);
    expect(playing.update).toBe(1);
    expect(playing.trajectories.map((t) => [t.update, t.index])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    // Paused or stepping, the update being built is the one on screen.
    expect(shownBatch(rec, 'seed', false).trajectories.map((t) => [t.update, t.index])).toEqual([[2, 0]]);
    rec = applyEvent(rec, { type: 'stage', snapshot: snapshot(2, 'optimizer', [0, 1]) });
    expect(shownBatch(rec, 'seed', true).update).toBe(2);
    expect(shownBatch(rec, 'grpo', true)).toEqual({ trajectories: [], update: undefined });
  });

  it('is the same array while the shown update does not change, so the page renders it only when it does', () => {
    // The page's selectors compare by identity: a fresh array per event would render the episodes at every one.
    expect(shownBatch(EMPTY_RECORD, 'seed', true).trajectories).toBe(
      shownBatch(EMPTY_RECORD, 'seed', false).trajectories,
    );
    let rec: RunRecord = applyEvent(EMPTY_RECORD, { type: 'stage', snapshot: snapshot(1, 'optimizer', [0, 1]) });
    const shown = shownBatch(rec, 'seed', true).trajectories;
    rec = applyEvent(rec, { type: 'trajectory', trajectory: trajectory(2, 0) });
    rec = applyEvent(rec, { type: 'stage', snapshot: snapshot(2, 'rescore', [0]) });
    expect(shownBatch(rec, 'seed', true).trajectories).toBe(shown);
    expect(shownBatch(rec, 'seed', false).trajectories).not.toBe(shown);
  });
});

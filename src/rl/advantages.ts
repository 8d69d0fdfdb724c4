// Episode rewards and GRPO group advantages (docs/seed-loss.md):
//   R_i = winReward * won_i - invalidPenalty * invalid_i            (scoreReward 0)
//   R_i = winReward * score_i - invalidPenalty * invalid_i          (scoreReward 1: a world with a score, the shop)
//   A_i = (R_i - mean_group(R)) / (std_group(R) + 1e-6), std with N - 1 (torch.std); a group of one has mean 0
//   and std 1 (as veRL), so its advantage is its reward.
// With stepNormalised the group statistics are taken over the group's step samples, each trajectory's reward
// repeated once per step (verl-agent: longer episodes weigh more).
import type { Environment } from '../env/environment.ts';
import { theWorld } from '../worlds/facts.ts';
import type { TrainConfig } from './config.ts';
import { totalReward } from './rollout.ts';
import type { TaskGroup, UpdateState } from './update_state.ts';

const ADVANTAGE_EPS = 1e-6;

export interface GroupStats {
  mean: number;
  std: number;
}

/** Mean and sample standard deviation of weighted values (weights are repeat counts). */
export function groupStats(values: readonly number[], weights?: readonly number[]): GroupStats {
  const w = weights ?? values.map(() => 1);
  const n = w.reduce((a, b) => a + b, 0);
  if (n <= 1) return { mean: 0, std: 1 };
  let sum = 0;
  values.forEach((v, i) => {
    sum += w[i] * v;
  });
  const mean = sum / n;
  let sq = 0;
  values.forEach((v, i) => {
    sq += w[i] * (v - mean) * (v - mean);
  });
  return { mean, std: Math.sqrt(sq / (n - 1)) };
}

/**
 * Advantage per trajectory, and per group (task) the statistics it was computed with, groups in order of their
 * first trajectory. groups[i] is the task (group) of trajectory i; steps[i] its step count, used only when
 * stepNormalised.
 */
export function groupAdvantages(
  rewards: readonly number[],
  groups: readonly number[],
  steps: readonly number[],
  stepNormalised: boolean,
): { advantages: Float64Array; groups: TaskGroup[] } {
  const out = new Float64Array(rewards.length);
  const members = new Map<number, number[]>();
  groups.forEach((g, i) => {
    members.set(g, [...(members.get(g) ?? []), i]);
  });
  const stats: TaskGroup[] = [];
  for (const [task, idx] of members) {
    const values = idx.map((i) => rewards[i]);
    const weights = stepNormalised ? idx.map((i) => Math.max(1, steps[i])) : undefined;
    const { mean, std } = groupStats(values, weights);
    for (const i of idx) out[i] = (rewards[i] - mean) / (std + ADVANTAGE_EPS);
    stats.push({ task, members: idx, mean, std });
  }
  return { advantages: out, groups: stats };
}

/** Why a world cannot train with the config's reward (scoreReward 1 where it has no score), or null. */
export function rewardProblem(
  env: Pick<Environment, 'name' | 'score'>,
  config: Pick<TrainConfig, 'scoreReward'>,
): string | null {
  return config.scoreReward === 1 && env.score === null
    ? `scoreReward=1 trains on the world's score, and ${theWorld(env.name)} has none (success is its only result): use scoreReward=0`
    : null;
}

/** Stage 2: every trajectory's reward, and the group advantages with the statistics behind them. */
export function rewardsStage(st: UpdateState): void {
  const { config, trajectories: ts } = st;
  st.rewards = Float64Array.from(ts, (t) => totalReward(t, config));
  const { advantages, groups } = groupAdvantages(
    Array.from(st.rewards),
    ts.map((t) => t.task),
    ts.map((t) => t.records.length - 1),
    config.stepNormalised === 1,
  );
  st.advantages = advantages;
  st.groups = groups;
}

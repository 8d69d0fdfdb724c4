// Stage 1 of an update (`rolloutStage`): B train tasks x G episodes played through rollout.ts; with
// resampleRounds, a group whose rewards are all equal (no advantage, no signal) is replaced by a group of a
// fresh task.
import type { Environment, EpisodeStep } from '../env/environment.ts';
import type { TrainConfig } from './config.ts';
import { rollout, rolloutOptions, totalReward, type Trajectory } from './rollout.ts';
import { updateRng } from './update_rng.ts';
import type { UpdateContext, UpdateState } from './update_state.ts';

/** Train-task indices of resampled groups start here, far above those of the updates' own tasks. */
const RESAMPLE_INDEX_BASE = 1 << 28;

/** The scenes of update u: tasksPerUpdate train games, each repeated groupSize times. */
export function updateScenes<S>(
  run: { seed: number; world: { env: Pick<Environment<S>, 'trainScene'> } },
  update: number,
  config: TrainConfig,
): { scenes: S[]; tasks: number[] } {
  const scenes: S[] = [];
  const tasks: number[] = [];
  for (let b = 0; b < config.tasksPerUpdate; b++) {
    // trainGames > 0: the run's tasks cycle through that many training games (a data-fraction run).
    const game = update * config.tasksPerUpdate + b;
    const scene = run.world.env.trainScene(config.trainGames > 0 ? game % config.trainGames : game, run.seed);
    for (let g = 0; g < config.groupSize; g++) {
      scenes.push(scene);
      tasks.push(b);
    }
  }
  return { scenes, tasks };
}

/** Stage 1: plays the update's episodes, fills trajectories, scenes, token offsets and the played counts. */
export async function rolloutStage<S, R extends EpisodeStep>(
  run: UpdateContext<S, R>,
  st: UpdateState<S, R>,
  onTrajectory?: (t: Trajectory<S, R>) => void,
): Promise<void> {
  const { config } = st;
  const { scenes, tasks } = updateScenes(run, st.update, config);
  st.trajectories = await rollout(
    run.world.env,
    run.backend,
    run.tok,
    scenes,
    tasks,
    rolloutOptions(config),
    updateRng(run.seed, st.update, 'rollout'),
    onTrajectory,
  );
  st.played = st.trajectories.length;
  st.playedWins = st.trajectories.filter((t) => t.won).length;
  if (run.world.env.score) st.playedScore = scoreSum(st.trajectories);
  for (let round = 1; round <= config.resampleRounds; round++) {
    if (!(await resampleFlatGroups(run, st, round, onTrajectory))) break;
  }
  st.scenes = st.trajectories.map((t) => t.scene);
  const offsets = new Int32Array(st.trajectories.length + 1);
  st.trajectories.forEach((t, i) => {
    offsets[i + 1] = offsets[i] + t.lOld.length;
  });
  st.tokenOffsets = offsets;
  st.tokens = st.trajectories.reduce((n, t) => n + t.sequences.reduce((m, s) => m + s.ids.length, 0), 0);
}

/**
 * Replaces every group whose episodes all got the same reward by a group of a fresh train task (drawn from
 * an index range no update uses); returns false when no group was flat.
 */
async function resampleFlatGroups<S, R extends EpisodeStep>(
  run: UpdateContext<S, R>,
  st: UpdateState<S, R>,
  round: number,
  onTrajectory?: (t: Trajectory<S, R>) => void,
): Promise<boolean> {
  const { config } = st;
  const G = config.groupSize;
  const flat: number[] = [];
  for (let b = 0; b < config.tasksPerUpdate; b++) {
    const rewards = st.trajectories.slice(b * G, (b + 1) * G).map((t) => totalReward(t, config));
    if (rewards.every((r) => r === rewards[0])) flat.push(b);
  }
  if (flat.length === 0) return false;
  const scenes: S[] = [];
  const tasks: number[] = [];
  const firstIndex = RESAMPLE_INDEX_BASE + (st.update * config.resampleRounds + round - 1) * config.tasksPerUpdate;
  for (const b of flat) {
    const scene = run.world.env.trainScene(firstIndex + b, run.seed);
    for (let g = 0; g < G; g++) {
      scenes.push(scene);
      tasks.push(b);
    }
  }
  const fresh = await rollout(
    run.world.env,
    run.backend,
    run.tok,
    scenes,
    tasks,
    rolloutOptions(config),
    updateRng(run.seed, st.update, `rollout/${round}`),
    onTrajectory,
  );
  st.played = (st.played ?? 0) + fresh.length;
  st.playedWins = (st.playedWins ?? 0) + fresh.filter((t) => t.won).length;
  if (st.playedScore !== undefined) st.playedScore += scoreSum(fresh);
  flat.forEach((b, k) => {
    for (let g = 0; g < G; g++) st.trajectories[b * G + g] = { ...fresh[k * G + g], index: b * G + g };
  });
  return true;
}

/** The summed score of episodes of a world with a score. */
function scoreSum(ts: readonly Pick<Trajectory, 'score'>[]): number {
  return ts.reduce((sum, t) => sum + t.score!, 0);
}

// Stage 3 of an update: one hindsight skill per trajectory, and the skill each trajectory distils from.
// - seed, opid, seed-nogate, seed-exact: the current policy reads its finished trajectory and writes the skill
//   (analyzer.ts); each trajectory distils from its own. seed-exact with advisorAlpha > 0 also draws, as
//   seed-crossgame does, another game's skill for each trajectory: the second teacher its positions are weighed by.
// - seed-static: the skills come from a library written once, before the first update, by the warm-start
//   policy (`buildStaticLibrary`); each trajectory draws one of its task type.
// The controls change only the skill a trajectory distils from; rollouts, rewards and advantages are those
// of seed:
// - seed-sibling: the policy writes every skill, but each trajectory distils from the usable skill of another
//   trajectory of its group. A group plays one game, so the sibling's skill states the same game's facts: it
//   tests whether the hindsight must be about this very trajectory, not whether content matters.
// - seed-crossgame, seed-exact-crossgame: the policy writes every skill, but each trajectory distils from the usable skill of a
//   trajectory of another group whose game has the same task type: the right kind of advice with the wrong
//   facts. When no other group of the update has that type, the skill comes from the last CROSSGAME_POOL_SIZE
//   usable skills of that type written in earlier updates (the pool, part of the run's state); with none
//   there either, the trajectory distils from nothing (opd_mask 0), and the update counts it.
// - the other part controls of seed and seed-exact (seed-procedure, seed-facts, seed-empty, seed-shuffled and
//   their seed-exact-* twins): the policy writes every skill, and each trajectory distils from the world's
//   transform of its own (RlWorld.skillPart: its procedure, its facts, no words, its words shuffled), usable
//   where the written skill is, so the transform changes what the teacher reads and never which tokens distil.
// - seed-annotator (faithful hindsight): the rule-based annotator of the warm start (annotator.ts, through
//   skill_fidelity.ts's referenceSkill) writes the skills instead of the policy; the setting
//   annotatorSkills = 1 does the same under any skill-writing algorithm.
// - grpo writes none.
import type { Rng } from '../common/rng.ts';
import { checkedSkill, writeSkills, type WrittenSkill } from './analyzer.ts';
import type { TrainConfig } from './config.ts';
import { annotatorWrites, ARMS, type SkillTransform } from './arms.ts';
import { rollout, rolloutOptions, type Trajectory } from './rollout.ts';
import { updateRng } from './update_rng.ts';
import type { CrossgameSources, UpdateContext, UpdateState } from './update_state.ts';

/** seed-static's library: skills by task type. */
export type SkillLibrary = Record<string, string[]>;

/** seed-crossgame's pool: per task type, the newest usable skills of earlier updates, oldest first. */
export type CrossgamePool = Record<string, string[]>;

/** Skills the crossgame pool keeps per task type. */
export const CROSSGAME_POOL_SIZE = 16;

/** The skills a run keeps from one update to the next (saved with the run: run_checkpoint.ts). */
export interface RunSkills {
  staticLibrary: SkillLibrary | null;
  crossgamePool: CrossgamePool;
}

/** Train-task indices of the library's tasks, apart from those of every update. */
const LIBRARY_INDEX_BASE = 1_000_000;

/** One skill per trajectory: written by the policy (the analyzer), or by the annotator (seed-annotator, annotatorSkills). */
async function writeHindsight(
  run: UpdateContext,
  trajectories: readonly Trajectory[],
  config: TrainConfig,
  rng: Rng,
): Promise<WrittenSkill[]> {
  if (annotatorWrites(run.algo, config)) {
    return trajectories.map((t) =>
      checkedSkill(run.world, run.world.referenceSkill(t, run.tok, config.maxSkillTokens)),
    );
  }
  return writeSkills(
    run.world,
    run.backend,
    run.tok,
    trajectories,
    config.maxSkillTokens,
    config.analyzerTemperature,
    rng,
    { grammar: config.skillGrammar === 1 },
  );
}

/** seed-static: the current weights (the warm-start policy, before any update) play staticTasks games and write the library. */
export async function buildStaticLibrary(run: UpdateContext, config: TrainConfig): Promise<SkillLibrary> {
  const { env } = run.world;
  const scenes: unknown[] = [];
  for (let b = 0; b < config.staticTasks; b++) scenes.push(env.trainScene(LIBRARY_INDEX_BASE + b, run.seed));
  const rng = updateRng(run.seed, -1, 'static');
  const trajectories = await rollout(
    env,
    run.backend,
    run.tok,
    scenes,
    scenes.map((_, i) => i),
    rolloutOptions(config),
    rng.fork('rollout'),
  );
  const skills = await writeHindsight(run, trajectories, config, rng.fork('analyzer'));
  const library: SkillLibrary = {};
  skills.forEach((s, i) => {
    if (!s.ok) return;
    const type = env.taskType(scenes[i]);
    library[type] ??= [];
    library[type].push(s.text);
  });
  return library;
}

/** A deep copy of a crossgame pool (what a checkpoint stores and restores). */
export function copyPool(pool: CrossgamePool): CrossgamePool {
  return Object.fromEntries(Object.entries(pool).map(([type, skills]) => [type, skills.slice()]));
}

/** seed-sibling: each trajectory gets the usable skill of another trajectory of its group (drawn at random), or none. */
function siblingSkills(st: UpdateState, rng: Rng): void {
  st.trajectories.forEach((t, i) => {
    const others = st.trajectories
      .filter((u, j) => j !== i && u.task === t.task && st.written[j]?.ok)
      .map((u) => u.index);
    st.used[i] = others.length ? st.written[rng.pick(others)] : null;
  });
}

/** seed-crossgame: the skills of other groups' games of the same task type, else of the pool; then the pool takes this update's. */
function crossgameSkills(
  run: UpdateContext,
  st: UpdateState,
  pool: CrossgamePool,
  rng: Rng,
): { skills: (WrittenSkill | null)[]; sources: CrossgameSources } {
  const sources: CrossgameSources = { update: 0, pool: 0, none: 0 };
  const typeOf = (t: Trajectory) => run.world.env.taskType(t.scene);
  const skills = st.trajectories.map((t): WrittenSkill | null => {
    const type = typeOf(t);
    const others = st.trajectories
      .filter((u, j) => u.task !== t.task && typeOf(u) === type && st.written[j]?.ok)
      .map((u) => u.index);
    if (others.length) {
      sources.update++;
      return st.written[rng.pick(others)];
    }
    if (pool[type]?.length) {
      sources.pool++;
      return { text: rng.pick(pool[type]), ok: true, reason: '' };
    }
    sources.none++;
    return null;
  });
  st.trajectories.forEach((t, j) => {
    const skill = st.written[j];
    if (!skill?.ok) return;
    const type = typeOf(t);
    pool[type] ??= [];
    const kept = pool[type];
    kept.push(skill.text);
    if (kept.length > CROSSGAME_POOL_SIZE) kept.shift();
  });
  return { skills, sources };
}

/** A part control: each usable skill as the world transforms it, usable as written; an unusable one as written. */
function transformedSkills(
  run: UpdateContext,
  st: UpdateState,
  part: SkillTransform,
  rng: Rng,
): (WrittenSkill | null)[] {
  return st.written.map((s) => (s?.ok ? { text: run.world.skillPart(part, s.text, rng), ok: true, reason: '' } : s));
}

/** Stage 3: fills the written and the used skill of every trajectory (and seed-crossgame's pool). */
export async function hindsightStage(run: UpdateContext, st: UpdateState, skills: RunSkills): Promise<void> {
  const n = st.trajectories.length;
  st.written = new Array(n).fill(null);
  st.used = new Array(n).fill(null);
  st.crossgame = null;
  st.advisor = null;
  const arm = ARMS[run.algo];
  if (arm.teacherSkill === 'none') return;
  const rng = updateRng(run.seed, st.update, 'skills');
  if (arm.teacherSkill === 'library') {
    const library = skills.staticLibrary ?? {};
    const all = Object.values(library).flat();
    st.trajectories.forEach((t, i) => {
      const type = run.world.env.taskType(t.scene);
      const pool = library[type]?.length ? library[type] : all;
      st.used[i] = pool.length ? { text: rng.pick(pool), ok: true, reason: '' } : null;
    });
    return;
  }
  st.written = await writeHindsight(run, st.trajectories, st.config, rng.fork('analyzer'));
  const taught = arm.teacherSkill;
  if (taught === 'sibling') siblingSkills(st, rng.fork('shuffle'));
  else if (taught === 'crossgame') {
    const drawn = crossgameSkills(run, st, skills.crossgamePool, rng.fork('crossgame'));
    st.used = drawn.skills;
    st.crossgame = drawn.sources;
  } else if (taught !== 'own') st.used = transformedSkills(run, st, taught, rng.fork('parts'));
  else {
    st.used = st.written.slice();
    if (arm.advisor && st.config.advisorAlpha > 0)
      st.advisor = crossgameSkills(run, st, skills.crossgamePool, rng.fork('crossgame')).skills;
  }
}

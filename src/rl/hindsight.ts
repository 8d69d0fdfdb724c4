// Stage 3 of an update: one hindsight skill per trajectory, and the skill each trajectory distils from.
// - seed, opid, seed-nogate: the current policy reads its finished trajectory and writes the skill
//   (analyzer.ts); each trajectory distils from its own.
// - seed-static: the skills come from a library written once, before the first update, by the warm-start
//   policy (`buildStaticLibrary`); each trajectory draws one of its task type.
// - seed-shuffled (a control): the policy writes every skill, but each trajectory distils from the usable
//   skill of another trajectory of its group.
// - annotatorSkills = 1 (a control with faithful hindsight): the rule-based annotator of the warm start
//   (annotator.ts, through skill_fidelity.ts's referenceSkill) writes the skills instead of the policy.
// - grpo writes none.
import type { Rng } from '../common/rng.ts';
import { generateScene } from '../env/generate.ts';
import type { Scene } from '../env/scene.ts';
import { checkSkill, writeSkills, type WrittenSkill } from './analyzer.ts';
import type { TrainConfig } from './config.ts';
import { rollout, rolloutOptions, type Trajectory } from './rollout.ts';
import { referenceSkill } from './skill_fidelity.ts';
import { updateRng, type UpdateContext, type UpdateState } from './update_state.ts';

/** seed-static's library: skills by task type. */
export type SkillLibrary = Record<string, string[]>;

/** Train-task indices of the library's tasks, apart from those of every update. */
const LIBRARY_INDEX_BASE = 1_000_000;

/** One skill per trajectory: written by the policy (the analyzer), or by the annotator under annotatorSkills. */
export async function writeHindsight(run: UpdateContext, trajectories: readonly Trajectory[], config: TrainConfig, rng: Rng): Promise<WrittenSkill[]> {
  if (config.annotatorSkills === 1) {
    return trajectories.map((t) => checkSkill(referenceSkill(t.records, t.scene.task, t.won, run.tok, config.maxSkillTokens)));
  }
  return writeSkills(run.backend, run.tok, trajectories, config.maxSkillTokens, config.analyzerTemperature, rng, { grammar: config.skillGrammar === 1 });
}

/** seed-static: the current weights (the warm-start policy, before any update) play staticTasks games and write the library. */
export async function buildStaticLibrary(run: UpdateContext, config: TrainConfig): Promise<SkillLibrary> {
  const scenes: Scene[] = [];
  for (let b = 0; b < config.staticTasks; b++) scenes.push(generateScene('train', LIBRARY_INDEX_BASE + b, run.scale, run.seed));
  const rng = updateRng(run.seed, -1, 'static');
  const trajectories = await rollout(run.backend, run.tok, scenes, scenes.map((_, i) => i), rolloutOptions(config), rng.fork('rollout'));
  const skills = await writeHindsight(run, trajectories, config, rng.fork('analyzer'));
  const library: SkillLibrary = {};
  skills.forEach((s, i) => {
    if (!s.ok) return;
    const type = scenes[i].task.type;
    (library[type] ??= []).push(s.text);
  });
  return library;
}

/** Stage 3: fills the written and the used skill of every trajectory. */
export async function hindsightStage(run: UpdateContext, st: UpdateState, library: SkillLibrary | null): Promise<void> {
  const n = st.trajectories.length;
  st.written = new Array(n).fill(null);
  st.used = new Array(n).fill(null);
  if (run.algo === 'grpo') return;
  const rng = updateRng(run.seed, st.update, 'skills');
  if (run.algo === 'seed-static') {
    const skills = library ?? {};
    const all = Object.values(skills).flat();
    st.trajectories.forEach((t, i) => {
      const pool = skills[t.scene.task.type]?.length ? skills[t.scene.task.type] : all;
      st.used[i] = pool.length ? { text: rng.pick(pool), ok: true, reason: '' } : null;
    });
    return;
  }
  st.written = await writeHindsight(run, st.trajectories, st.config, rng.fork('analyzer'));
  if (run.algo !== 'seed-shuffled') {
    st.used = st.written.slice();
    return;
  }
  // Each trajectory gets the usable skill of another trajectory of its group (drawn at random), or none.
  const shuffle = rng.fork('shuffle');
  st.trajectories.forEach((t, i) => {
    const others = st.trajectories.filter((u, j) => j !== i && u.task === t.task && st.written[j]?.ok).map((u) => u.index);
    st.used[i] = others.length ? st.written[shuffle.pick(others)] : null;
  });
}

// The teacher check: does the policy act better with a hindsight skill in its context? SEED distils the
// skill-conditioned policy (the teacher) into the plain one (the student), which can only help where the
// teacher is the better player. Each game is played once (the first episode), then three more times from the
// same sampling stream, so that the three differ only by their context:
//   no skill     the student;
//   own skill    the annotator's skill of that game's first episode: hindsight about this very game, faithful
//                by construction (the annotator wrote the warm start's skills);
//   other skill  the annotator's skill of another game's first episode: a skill block with the wrong content.
// A teacher worth distilling wins more with its own skill than with none, and more than with another game's.
import type { Backend } from '../backend/backend.ts';
import { Rng } from '../common/rng.ts';
import { generateScene } from '../env/generate.ts';
import type { RoomScale } from '../env/scale.ts';
import type { Scene } from '../env/scene.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { evalRolloutOptions, playInChunks, type EvalConfig } from './evaluate.ts';
import type { Trajectory } from './rollout.ts';
import { referenceSkill } from './skill_fidelity.ts';

/** Scene seed of the teacher-check games: games of training rooms, drawn with their own seed. */
export const TEACHER_SEED = 2029;

export interface TeacherSuccess {
  games: number;
  no_skill: number;
  own_skill: number;
  other_skill: number;
}

export interface TeacherCheck extends TeacherSuccess {
  /** Success of the first episodes, whose skills the other plays read. */
  first: number;
  /** The same figures over the games whose first episode was won (a workflow skill) or failed (avoid-rules). */
  after_won: TeacherSuccess;
  after_failed: TeacherSuccess;
}

export function teacherScenes(count: number, scale: RoomScale): Scene[] {
  return Array.from({ length: count }, (_, i) => generateScene('train', i, scale, TEACHER_SEED));
}

export async function teacherCheck(
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly Scene[],
  config: EvalConfig,
  onEpisode?: (t: Trajectory) => void,
): Promise<TeacherCheck> {
  const n = scenes.length;
  if (n < 2) throw new RangeError(`the teacher check needs at least 2 games (one's skill is another's control), got ${n}`);
  const options = evalRolloutOptions(config);
  const rng = new Rng(TEACHER_SEED);
  const first = await playInChunks(backend, tok, scenes, options, (start) => rng.fork(`first/${start}`), onEpisode);
  const firstWon = first.map((t) => t.won);
  const skills = first.map((t) => referenceSkill(t.records, t.scene.task, t.won, tok, config.maxSkillTokens));
  // One stream for the three plays: they differ only by the skill in context.
  const again = async (skillsInContext: readonly (string | null)[]) =>
    (await playInChunks(backend, tok, scenes, options, (start) => rng.fork(`again/${start}`), onEpisode, skillsInContext)).map((t) => t.won);
  const none = await again([]);
  const own = await again(skills);
  const other = await again(skills.map((_, i) => skills[(i + 1) % n]));
  const success = (keep: (i: number) => boolean): TeacherSuccess => {
    const ids = scenes.map((_, i) => i).filter(keep);
    const rate = (won: boolean[]) => (ids.length ? ids.filter((i) => won[i]).length / ids.length : 0);
    return { games: ids.length, no_skill: rate(none), own_skill: rate(own), other_skill: rate(other) };
  };
  const all = success(() => true);
  return {
    games: n,
    first: firstWon.filter(Boolean).length / n,
    no_skill: all.no_skill,
    own_skill: all.own_skill,
    other_skill: all.other_skill,
    after_won: success((i) => firstWon[i]),
    after_failed: success((i) => !firstWon[i]),
  };
}

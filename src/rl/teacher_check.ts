// The teacher check: does the policy act better with a hindsight skill in its context? SEED distils the
// skill-conditioned policy (the teacher) into the plain one (the student), which can only help where the
// teacher is the better player. Each game is played once (the first episode), a skill is written about that
// episode, and the game is played four more times from the same sampling stream, so that the four differ
// only by their context:
//   no skill     the student;
//   own skill    the skill of that game's first episode: hindsight about this very game;
//   other skill  the skill of the first episode of another game of the same task type (the next such game in
//                the list; any other game when a type occurs once): the right kind of advice, the wrong facts;
//   blank block  a skill block as long as the own skill that holds no words, only full stops: what a block's
//                presence and length do (it moves every later token's position), apart from anything it says.
// The check's effects split the own skill's lead over no skill in two: the block effect (another game's skill
// against none: what any skill block does to this policy) and the content effect (its own skill against another
// game's: what this game's hindsight adds).
// The skill's writer is a choice: 'own' has the policy write it with its analyzer, as SEED's hindsight stage
// does (the skill SEED distils from); 'annotator' has the rule-based annotator write it (faithful by
// construction: what the policy could gain from a perfect skill). A teacher worth distilling wins more with
// its own skill than with none, and more than with another game's.
import type { Backend } from '../backend/backend.ts';
import { Rng } from '../common/rng.ts';
import type { Environment, EpisodeStep } from '../env/environment.ts';
import type { Tokenizer } from '../text/tokenizer.ts';
import { writeSkills } from './analyzer.ts';
import type { RlWorld } from './rl_world.ts';
import type { TrainConfig } from './config.ts';
import { evalRolloutOptions, playInChunks, type EvalConfig } from './evaluate.ts';
import type { Trajectory } from './rollout.ts';

/** Scene seed of the teacher-check games: games of training rooms, drawn with their own seed. */
const TEACHER_SEED = 2029;

export interface TeacherSuccess {
  games: number;
  no_skill: number;
  own_skill: number;
  other_skill: number;
  blank_skill: number;
}

/** A difference of success rates paired by game, with its 95% interval (pairedGain). */
export interface PairedGain {
  mean: number;
  ci95: [number, number];
}

export const SKILL_WRITERS = ['own', 'annotator'] as const;
export type SkillWriter = (typeof SKILL_WRITERS)[number];

/** How the policy writes its own skills: the analyzer settings of a run. */
export type AnalyzerConfig = Pick<TrainConfig, 'maxSkillTokens' | 'analyzerTemperature' | 'skillGrammar'>;

export interface TeacherCheck extends TeacherSuccess {
  /** Who wrote the skills: the policy ('own') or the rule-based annotator. */
  skills: SkillWriter;
  /** Fraction of the written skills that are usable (parse, at least 5 words); unusable ones give no skill. */
  valid_skills: number;
  /**
   * Fractions of the written skills that state the receptacle where the task's object started, as where it was,
   * and that state one where it did not (skill_truth.ts).
   */
  skill_place_true: number;
  skill_place_false: number;
  /** Success of the first episodes, whose skills the other plays read. */
  first: number;
  /** The same figures over the games whose first episode was won (a workflow skill) or failed (avoid-rules). */
  after_won: TeacherSuccess;
  after_failed: TeacherSuccess;
  /** own_skill - no_skill with its 95% interval, paired by game (normal approximation): the check's question. */
  own_gain: PairedGain;
  /**
   * The own skill's lead taken apart, each paired by game: block = other_skill - no_skill (what any skill block
   * does), content = own_skill - other_skill (what this game's hindsight adds; block + content = own_gain), and
   * blank = blank_skill - no_skill (a wordless block of the own skill's length: its presence and length alone).
   */
  effects: { block: PairedGain; content: PairedGain; blank: PairedGain };
  /** In a world with a score (the shop): the mean score, in [0, 1], of the same plays; absent elsewhere. */
  score?: Omit<TeacherSuccess, 'games'> & { first: number };
}

/** The mean of b - a over paired outcomes and its 95% interval (normal approximation, the sample's own spread). */
export function pairedGain(a: readonly boolean[], b: readonly boolean[]): PairedGain {
  const n = a.length;
  const d = a.map((x, i) => Number(b[i]) - Number(x));
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : 0;
  const half = (1.96 * sd) / Math.sqrt(n);
  return { mean, ci95: [mean - half, mean + half] };
}

/** Episodes the check plays of each game: the first, then no skill, its own, another game's and a blank block. */
export const TEACHER_PLAYS = 5;

/** The games the teacher check plays in a world (RlWorld.teacherScenes): its training games of TEACHER_SEED, which no run draws. */
export function teacherScenesOf<S>(env: Pick<Environment<S>, 'sceneOf'>, count: number): S[] {
  return Array.from({ length: count }, (_, i) => env.sceneOf('train', i, TEACHER_SEED));
}

/**
 * A skill block as long as `skill` that says nothing: one full stop for each of the skill's tokens (a full stop is
 * one token in every world's vocabulary, and skillTokens cuts it where it would cut the skill). No skill, no block.
 */
export function blankSkill(tok: Tokenizer, skill: string | null): string | null {
  return skill === null ? null : '.'.repeat(tok.encode(skill).length);
}

/** For each game (by its task type), another game of the same type (the next one in the list, cyclically), else the next game. */
export function otherGameOf(types: readonly string[]): number[] {
  const n = types.length;
  return types.map((type, i) => {
    for (let k = 1; k < n; k++) if (types[(i + k) % n] === type) return (i + k) % n;
    return (i + 1) % n;
  });
}

/** The check's plays before any replay: the first episodes, the skills written about them, and replays on demand. */
export interface TeacherPlays<S, R extends EpisodeStep> {
  first: Trajectory<S, R>[];
  written: { text: string; ok: boolean }[];
  /** Usable skills (null for an unusable one: no skill). */
  skills: (string | null)[];
  /** For each game, the game whose skill is its "other skill". */
  otherOf: number[];
  /**
   * Each game played again from the check's one stream with `skillsInContext`, whether it was won; `env` may be a
   * world that wraps the check's (the shop's lab/reading_ceiling.ts steps some commands as a better player would).
   */
  again(skillsInContext: readonly (string | null)[], env?: RlWorld<S, R>['env']): Promise<boolean[]>;
  /** The same replay, its episodes whole (their scores among them). */
  replay(skillsInContext: readonly (string | null)[], env?: RlWorld<S, R>['env']): Promise<Trajectory<S, R>[]>;
}

/** The first plays and skills of the check, and its replay stream (teacherCheck; probes that add plays to it). */
export async function teacherPlays<S, R extends EpisodeStep>(
  world: RlWorld<S, R>,
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly S[],
  config: EvalConfig & AnalyzerConfig,
  onEpisode?: (t: Trajectory<S, R>) => void,
  writer: SkillWriter = 'annotator',
): Promise<TeacherPlays<S, R>> {
  const n = scenes.length;
  if (n < 2)
    throw new RangeError(`the teacher check needs at least 2 games (one's skill is another's control), got ${n}`);
  const options = evalRolloutOptions(config);
  const rng = new Rng(TEACHER_SEED);
  const first = await playInChunks(
    world.env,
    backend,
    tok,
    scenes,
    options,
    (start) => rng.fork(`first/${start}`),
    onEpisode,
  );
  const written =
    writer === 'annotator'
      ? first.map((t) => ({ text: world.referenceSkill(t, tok, config.maxSkillTokens), ok: true }))
      : await writeSkills(
          world,
          backend,
          tok,
          first,
          config.maxSkillTokens,
          config.analyzerTemperature,
          rng.fork('analyzer'),
          { grammar: config.skillGrammar === 1 },
        );
  // One stream for every replay: they differ only by the skill in context (and a wrapped world's help).
  const replay = (skillsInContext: readonly (string | null)[], env = world.env) =>
    playInChunks(env, backend, tok, scenes, options, (start) => rng.fork(`again/${start}`), onEpisode, skillsInContext);
  return {
    first,
    written,
    skills: written.map((w) => (w.ok ? w.text : null)),
    otherOf: otherGameOf(scenes.map((s) => world.env.taskType(s))),
    again: async (skillsInContext, env) => (await replay(skillsInContext, env)).map((t) => t.won),
    replay,
  };
}

export async function teacherCheck<S, R extends EpisodeStep>(
  world: RlWorld<S, R>,
  backend: Backend,
  tok: Tokenizer,
  scenes: readonly S[],
  config: EvalConfig & AnalyzerConfig,
  onEpisode?: (t: Trajectory<S, R>) => void,
  writer: SkillWriter = 'annotator',
  onSkills?: (first: readonly Trajectory<S, R>[], skills: readonly (string | null)[]) => Promise<void>,
): Promise<TeacherCheck> {
  const n = scenes.length;
  const { first, written, skills, otherOf, replay } = await teacherPlays(
    world,
    backend,
    tok,
    scenes,
    config,
    onEpisode,
    writer,
  );
  const firstWon = first.map((t) => t.won);
  await onSkills?.(first, skills);
  const truth = world.truthShares(written.map((w, i) => ({ text: w.text, scene: scenes[i] })))!;
  const plays = [
    await replay([]),
    await replay(skills),
    await replay(skills.map((_, i) => skills[otherOf[i]])),
    await replay(skills.map((skill) => blankSkill(tok, skill))),
  ];
  const [none, own, other, blank] = plays.map((ts) => ts.map((t) => t.won));
  const success = (keep: (i: number) => boolean): TeacherSuccess => {
    const ids = scenes.map((_, i) => i).filter(keep);
    const rate = (won: boolean[]) => (ids.length ? ids.filter((i) => won[i]).length / ids.length : 0);
    return {
      games: ids.length,
      no_skill: rate(none),
      own_skill: rate(own),
      other_skill: rate(other),
      blank_skill: rate(blank),
    };
  };
  const all = success(() => true);
  return {
    skills: writer,
    valid_skills: skills.filter((s) => s !== null).length / n,
    skill_place_true: truth.placeTrue,
    skill_place_false: truth.placeFalse,
    games: n,
    first: firstWon.filter(Boolean).length / n,
    no_skill: all.no_skill,
    own_skill: all.own_skill,
    other_skill: all.other_skill,
    blank_skill: all.blank_skill,
    after_won: success((i) => firstWon[i]),
    after_failed: success((i) => !firstWon[i]),
    own_gain: pairedGain(none, own),
    effects: { block: pairedGain(none, other), content: pairedGain(other, own), blank: pairedGain(none, blank) },
    ...(world.env.score ? { score: meanScores(first, plays) } : {}),
  };
}

/** The mean score of the first plays and of each replay (no skill, own skill, other skill, blank block). */
function meanScores(
  first: readonly Trajectory[],
  [none, own, other, blank]: readonly Trajectory[][],
): TeacherCheck['score'] {
  const mean = (ts: readonly Trajectory[]) => ts.reduce((sum, t) => sum + t.score!, 0) / ts.length;
  return {
    first: mean(first),
    no_skill: mean(none),
    own_skill: mean(own),
    other_skill: mean(other),
    blank_skill: mean(blank),
  };
}

// `seed teacher`: the teacher check (rl/teacher_check.ts) of a checkpoint's policy; its options and output are
// declared in `command` below (the --help text).
import { quote } from '../../common/json.ts';
import { rlWorldOf } from '../../worlds/rl_worlds.ts';
import { SKILL_WRITERS, TEACHER_PLAYS, teacherCheck, type SkillWriter } from '../../rl/teacher_check.ts';
import { tokenizerOf } from '../../text/tokenizer.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { backendOption, openBackend } from '../backend.ts';
import { CliError } from '../cli_error.ts';
import { defineCommand, usageLine } from '../help.ts';
import { progressBar, readCheckpointFile } from '../io.ts';
import { LIMITS } from '../limits.ts';
import { evalConfigOf, readScenes, sceneFiles } from './eval.ts';
import { ENV_OPTION, environmentFrom, SCALE_OPTION } from '../environment_option.ts';

export const command = defineCommand({
  name: 'teacher',
  summary: "whether a checkpoint's policy acts better with a hindsight skill of the game in its context",
  description:
    "The teacher check: whether the checkpoint's policy wins more with the hindsight skill of its own earlier episode of a game in its context than with none, " +
    "with the skill of another game of the same task type, or with a wordless block as long as its own skill (full stops): the premise of SEED's distillation. Prints JSON on stdout: " +
    '{"skills", "valid_skills", "skill_place_true", "skill_place_false", "games", "first", "no_skill", "own_skill", "other_skill", "blank_skill", "after_won": {...}, "after_failed": {...}, ' +
    '"own_gain": {"mean", "ci95"}, "effects": {"block", "content", "blank"}} (fractions in [0, 1]; own_gain is own_skill - no_skill with its 95% interval, paired by game; ' +
    'the effects take it apart, each {"mean", "ci95"}: block = other_skill - no_skill, what any skill block does; content = own_skill - other_skill, what this game\'s hindsight adds; ' +
    "blank = blank_skill - no_skill, a block's presence and length alone); " +
    'in a world with a score (the shop), "score": {"first", "no_skill", "own_skill", "other_skill", "blank_skill"}, the mean WebShop score of the same plays, in [0, 1].',
  options: {
    ckpt: { type: 'string', value: 'FILE', required: true, description: 'the checkpoint whose policy plays' },
    skills: {
      type: 'string',
      value: 'own|annotator',
      default: 'own',
      description:
        "who writes each game's skill: the policy's analyzer, as SEED's hindsight stage does (own), or the rule-based annotator (annotator: faithful by construction)",
    },
    games: {
      type: 'string',
      value: 'N',
      limit: LIMITS.teacher.games,
      default: '512',
      description:
        "games played, each 5 times: once to write its skill, then without a skill, with its own, with another game's and with a blank block (at least 2 games: one game's skill is another's control)",
    },
    scenes: {
      type: 'string',
      value: 'DIR',
      defaultText: "the check's own games of training rooms",
      description: 'play the scene files (.json) of DIR instead (their first N)',
    },
    temperature: {
      type: 'string',
      value: 'T',
      limit: LIMITS.teacher.temperature,
      defaultText: "the checkpoint's run's evalTemperature",
      description: 'the sampling temperature (0 = greedy)',
    },
    backend: backendOption('the backend that runs the policy'),
    env: ENV_OPTION,
    scale: SCALE_OPTION,
  },
});

const usage = usageLine(command);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, command);
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  const writer = values.skills!;
  if (!(SKILL_WRITERS as readonly string[]).includes(writer))
    throw new CliError(`--skills must be one of ${SKILL_WRITERS.join(', ')}, got ${quote(writer)}`, 2);
  // At least 2 games: one game's skill is another's control.
  const games = numberOption(values.games, 'games', LIMITS.teacher.games);
  const env = environmentFrom(values.env, values.scale);
  const world = rlWorldOf(env);
  const files = values.scenes !== undefined ? await sceneFiles(values.scenes) : null;
  if (files !== null && files.length < 2)
    throw new CliError(`${quote(values.scenes)} holds ${files.length} scene; the check needs at least 2`, 2);
  const scenes = files !== null ? await readScenes(env, files.slice(0, games)) : null;
  const tok = tokenizerOf(env);
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, path, values.temperature, env);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const played = scenes ?? world.teacherScenes(games);
  const bar = progressBar('teacher check', TEACHER_PLAYS * played.length);
  const result = await teacherCheck(world, backend, tok, played, config, () => bar.increment(), writer as SkillWriter);
  bar.stop();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}

// `seed teacher --ckpt FILE [--skills own|annotator] [--games N] [--scenes DIR] [--temperature T] [--backend cpu|webgpu]`
// The teacher check (rl/teacher_check.ts): whether the checkpoint's policy wins more with the hindsight skill
// of its own earlier episode of a game in its context than with none or with another game's skill, the
// premise of SEED's distillation. --skills own (default): the policy writes the skills, as in SEED's hindsight
// stage; annotator: the rule-based annotator does. --scenes DIR plays the scene files of DIR instead of the
// check's own training-room games. Prints JSON on stdout: {"skills", "valid_skills", "games", "first",
// "no_skill", "own_skill", "other_skill", "after_won": {...}, "after_failed": {...}} (fractions in [0, 1]).
import { TINY } from '../../env/scale.ts';
import { SKILL_WRITERS, teacherCheck, teacherScenes, type SkillWriter } from '../../rl/teacher_check.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { quote } from '../../common/json.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { CliError } from '../cli_error.ts';
import { openBackend } from '../backend.ts';
import { evalConfigOf, loadScenes } from './eval.ts';
import { progressBar, readCheckpointFile } from '../io.ts';
import { LIMITS, withLimits } from '../limits.ts';

export const summary = "whether a checkpoint's policy acts better with a hindsight skill of the game in its context";

const usage = withLimits(
  'npm run seed -- teacher --ckpt FILE [--skills own|annotator] [--games N] [--scenes DIR] [--temperature T] [--backend cpu|webgpu]',
  LIMITS.teacher,
);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      ckpt: { type: 'string' },
      skills: { type: 'string', default: 'own' },
      games: { type: 'string', default: '512' },
      scenes: { type: 'string' },
      temperature: { type: 'string' },
      backend: { type: 'string', default: 'cpu' },
    },
    usage,
  );
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  const writer = values.skills!;
  if (!(SKILL_WRITERS as readonly string[]).includes(writer)) throw new CliError(`--skills must be one of ${SKILL_WRITERS.join(', ')}, got ${quote(writer)}`, 2);
  // At least 2 games: one game's skill is another's control.
  const games = numberOption(values.games, 'games', LIMITS.teacher.games);
  const scenes = values.scenes !== undefined ? await loadScenes(values.scenes) : null;
  if (scenes !== null && scenes.length < 2) throw new CliError(`${quote(values.scenes)} holds ${scenes.length} scene; the check needs at least 2`, 2);
  const tok = defaultTokenizer();
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, path, values.temperature);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const bar = progressBar('teacher check', 4 * Math.min(games, scenes?.length ?? games));
  const played = scenes !== null ? scenes.slice(0, games) : teacherScenes(games, TINY);
  const result = await teacherCheck(backend, tok, played, config, () => bar.increment(), writer as SkillWriter);
  bar.stop();
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

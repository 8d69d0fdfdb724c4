// `seed teacher --ckpt FILE [--games N] [--temperature T] [--backend cpu|webgpu]`
// The teacher check (rl/teacher_check.ts): whether the checkpoint's policy wins more with the hindsight skill
// of its own earlier episode of a game in its context than with none or with another game's skill, the
// premise of SEED's distillation. Prints JSON on stdout: {"games", "first", "no_skill", "own_skill",
// "other_skill", "after_won": {...}, "after_failed": {...}} (success as fractions in [0, 1]).
import { TINY } from '../../env/scale.ts';
import { teacherCheck, teacherScenes } from '../../rl/teacher_check.ts';
import { defaultTokenizer } from '../../text/tokenizer.ts';
import { noPositionals, numberOption, parseOptions, requireOption } from '../args.ts';
import { openBackend } from '../backend.ts';
import { evalConfigOf } from './eval.ts';
import { progressBar, readCheckpointFile } from '../io.ts';
import { LIMITS, withLimits } from '../limits.ts';

export const summary = "whether a checkpoint's policy acts better with a hindsight skill of the game in its context";

const usage = withLimits('npm run seed -- teacher --ckpt FILE [--games N] [--temperature T] [--backend cpu|webgpu]', LIMITS.teacher);

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { ckpt: { type: 'string' }, games: { type: 'string', default: '512' }, temperature: { type: 'string' }, backend: { type: 'string', default: 'cpu' } },
    usage,
  );
  noPositionals(positionals, usage);
  const path = requireOption(values.ckpt, 'ckpt', usage);
  // At least 2 games: one game's skill is another's control.
  const games = numberOption(values.games, 'games', LIMITS.teacher.games);
  const tok = defaultTokenizer();
  const ck = await readCheckpointFile(path, tok);
  const config = evalConfigOf(ck, path, values.temperature);
  const backend = await openBackend(values.backend!, ck.config, ck.params);
  const bar = progressBar('teacher check', 4 * games);
  const result = await teacherCheck(backend, tok, teacherScenes(games, TINY), config, () => bar.increment());
  bar.stop();
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}
